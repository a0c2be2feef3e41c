/**
 * A model session's computation alone (no server, no store), phase by phase: the bench:load
 * classification CSV of --rows × --columns is loaded into typed columns and handed to the
 * `model` computation in this thread; prints its phase table (wall and CPU seconds, work counts)
 * and the peak resident memory. For finding where a big session's time goes without a server.
 *   npm run bench:session-phases [-- --rows 1000000] [--columns 10]
 */
import { createReadStream } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { classificationCsv } from './load/lib/csv-files.js';
import { DictColumnBuilder, NumberColumnBuilder, type ColumnBuilder, type LoadedColumns } from '../src/ml/loaded-columns.js';
import { compute } from '../src/jobs/compute/model-compute.js';
import { contestWorkBudget } from '../src/ml/tabular/contest/run-contest.js';
import { CONTEST_SAMPLE_ROWS } from '../src/ml/tabular/contest/sample.js';
import type { ColumnSpec } from '../src/ml/encode.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i > 0 ? process.argv[i + 1] : undefined; };
const rows = Number(arg('--rows') ?? 1_000_000);
const columns = Number(arg('--columns') ?? 10);

let peak = process.memoryUsage.rss();
const watch = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 50);
const { file } = await classificationCsv(rows, columns);
const started = performance.now();
const cpu0 = process.cpuUsage();

let names: string[] = [];
let builders: ColumnBuilder[] = [];
let n = 0;
for await (const line of createInterface({ input: createReadStream(file) })) {
  const cells = line.split(',');
  if (names.length === 0) {
    names = cells;
    builders = names.map((c) => (c.startsWith('f') ? new NumberColumnBuilder(rows) : new DictColumnBuilder(rows)));
    continue;
  }
  for (let j = 0; j < cells.length; j++) builders[j]!.set(n, cells[j]!);
  n++;
}
const loaded: LoadedColumns = Object.fromEntries(names.map((c, j) => [c, builders[j]!.finish(n)]));
const specs: ColumnSpec[] = names.map((c) => ({ name: c, dataType: c.startsWith('f') ? 'numeric' : 'string', role: c === 'label' ? 'target' : null }));
const loadSeconds = (performance.now() - started) / 1000;

const out = await compute({
  domain: 'classification', seed: 11, specs, columns: loaded, rows: n, targetColumn: 'label', keyColumn: null, balance: true,
  containsAnomalies: false, workBudget: contestWorkBudget(Math.min(Math.round(n * 0.8), CONTEST_SAMPLE_ROWS)),
});
clearInterval(watch);
const cpu = process.cpuUsage(cpu0);
if ('failure' in out) throw new Error(out.failure);
console.log(`session-phases ${n} × ${columns}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on 2 cores`);
console.log(`CSV → typed columns ${loadSeconds.toFixed(1)} s; total ${((performance.now() - started) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s (all threads); peak RSS ${Math.round(peak / 2 ** 20)} MB`);
console.log(`champion ${out.algorithm.name}; accuracy ${Number(out.results.metrics.accuracy).toFixed(4)}, log loss ${Number(out.results.metrics.logLoss).toFixed(4)}`);
for (const m of out.messages) console.log(`  [${m.severity}] ${m.message}`);
