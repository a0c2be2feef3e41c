#!/usr/bin/env node
// Runs the compiled test files with node's own test runner.
// Default: every dist/test/**/*.test.js except *.slow.test.js and *.clients.test.js; `--slow` runs only the
// slow ones, `--clients` only the original clients driven against a live server.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const slow = process.argv.includes('--slow');
const clients = process.argv.includes('--clients');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const root = 'dist/test';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

let files = walk(root).filter((f) => f.endsWith('.slow.test.js') === slow && f.endsWith('.clients.test.js') === clients);
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
files.sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// One file at a time: the suites start real servers and databases, and the machine has two cores.
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(r.status ?? 1);
