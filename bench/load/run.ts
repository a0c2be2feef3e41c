/**
 * bench:load — load scenarios against a server in its own process (the client is this process,
 * over loopback). Every scenario file beside this one is found and run in name order, or only
 * those named:
 *   npm run bench:load [-- ingest responsiveness] [--rows N] [--stores embedded,postgres]
 * A scenario file default-exports a LoadScenario (lib/scenario.ts).
 */
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { postgresReachable } from '../../test/support/backends.js';
import type { LoadScenario, StoreKind } from './lib/scenario.js';

const argv = process.argv.slice(2);
const option = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const optionValues = new Set(['--rows', '--stores', '--seconds', '--singles', '--phases'].map((o) => option(o)).filter((v) => v !== undefined));
const named = argv.filter((a) => !a.startsWith('--') && !optionValues.has(a));

const here = new URL('.', import.meta.url);
const files = readdirSync(here).filter((f) => f.endsWith('.js') && f !== 'run.js').sort();
const scenarios: LoadScenario[] = [];
for (const f of files) {
  const mod = (await import(new URL(f, here).href)) as { default?: LoadScenario };
  if (mod.default && (named.length === 0 || named.includes(mod.default.name))) scenarios.push(mod.default);
}
if (scenarios.length === 0) {
  console.error(`no scenario named ${named.join(', ')}; there are: ${files.map((f) => f.replace(/\.js$/, '')).join(', ')}`);
  process.exit(1);
}

let stores: StoreKind[] = (option('--stores')?.split(',') as StoreKind[] | undefined) ?? ['embedded', 'postgres'];
if (stores.includes('postgres') && !(await postgresReachable())) {
  console.log('PostgreSQL: skipped (no PostgreSQL at 127.0.0.1:5432)');
  stores = stores.filter((s) => s !== 'postgres');
}
const rows = Number(option('--rows') ?? 1_000_000);
const load = () => `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${2} cores`;
console.log(`bench:load — ${scenarios.map((s) => s.name).join(', ')}; ${load()}`);
for (const s of scenarios) {
  console.log(`\n## ${s.name}: ${s.description}`);
  await s.run({ stores, rows, args: argv, log: (line) => console.log(`${line}  [${load()}]`) });
}
