/**
 * The GBDT prediction kernel alone (issue 12 §6): CPU per 1,000-row batch and nanoseconds per
 * row × tree of Forest.rawScores, on the table bench:load predict trains on (20,000 × 10: 8 numeric
 * features with 5% missing, a 4-level category), fitted with the default GBDT parameters.
 *   npm run bench:predict-kernel [-- --rounds 200 --batches 300]
 * CPU time, not wall clock, is the figure (the machine is shared); the load average is printed beside it.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { classificationCsv } from './load/lib/csv-files.js';
import { encodeTarget, fitFrameEncoder, inferDataType, type ColumnSpec } from '../src/ml/encode.js';
import type { Frame } from '../src/ml/frame.js';
import { GbdtLearner } from '../src/ml/tabular/gbdt/index.js';
import type { GbdtModel } from '../src/ml/tabular/gbdt/model.js';

const argv = process.argv.slice(2);
const option = (name: string, d: number) => { const i = argv.indexOf(name); return i >= 0 ? Number(argv[i + 1]) : d; };
const rounds = option('--rounds', 200);
const batches = option('--batches', 300);
const BATCH = 1000;

const { file } = await classificationCsv(20_000, 10);
const lines = readFileSync(file, 'utf8').trim().split('\n');
const header = lines[0]!.split(',');
const cells = lines.slice(1).map((l) => l.split(','));
const columns: Record<string, string[]> = {};
header.forEach((h, j) => { columns[h] = cells.map((c) => c[j]!); });
const specs: ColumnSpec[] = header.filter((h) => h !== 'label').map((name) => ({ name, dataType: inferDataType(columns[name]!) }));
const encoder = fitFrameEncoder(specs, columns);
const frame = encoder.encode(columns, cells.length);
const { task, y } = encodeTarget(columns.label!, 'classification');
const model = new GbdtLearner({ nEstimators: rounds }).fit(frame, y, task, { seed: 1 }) as GbdtModel;
const forest = model.forest;

const slice = (f: Frame, start: number, n: number): Frame => ({
  nRows: n,
  columns: f.columns.map((c) => (c.kind === 'numeric' ? { ...c, values: c.values.subarray(start, start + n) } : { ...c, codes: c.codes.subarray(start, start + n) })),
});
const batchFrames = Array.from({ length: 10 }, (_, b) => slice(frame, b * BATCH, BATCH));

const depths: number[] = [];
const { nodeOffset, children } = forest.arrays;
for (let t = 0; t < forest.numTrees; t++) {
  const depth = (node: number): number => (node < 0 ? 0 : 1 + Math.max(depth(children[2 * (nodeOffset[t] + node)]), depth(children[2 * (nodeOffset[t] + node) + 1])));
  depths.push(nodeOffset[t + 1] === nodeOffset[t] ? 0 : depth(0));
}
depths.sort((a, b) => a - b);

for (let i = 0; i < 30; i++) forest.rawScores(batchFrames[i % 10]!); // warm-up (JIT, wasm tier-up)
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < batches; i++) forest.rawScores(batchFrames[i % 10]!);
const c = process.cpuUsage(c0);
const cpuMs = (c.user + c.system) / 1000 / batches;
const wallMs = (performance.now() - t0) / batches;
console.log(`predict kernel: ${forest.numTrees} trees (depth median ${depths[depths.length >> 1]}, max ${depths.at(-1)}), ${forest.arrays.feature.length} nodes; `
  + `${batches} batches of ${BATCH} rows`);
console.log(`  CPU ${cpuMs.toFixed(2)} ms per batch = ${((cpuMs * 1e6) / (BATCH * forest.numTrees)).toFixed(1)} ns per row × tree `
  + `(wall ${wallMs.toFixed(2)} ms; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on 2 cores)`);

// One record (the single-record predict path, scored in-thread).
const single = slice(frame, 0, 1);
const singles = batches * 20;
for (let i = 0; i < 200; i++) forest.rawScores(single);
const s0 = process.cpuUsage();
for (let i = 0; i < singles; i++) forest.rawScores(single);
const s = process.cpuUsage(s0);
console.log(`  one row: CPU ${((s.user + s.system) / singles).toFixed(1)} µs per call (${singles} calls)`);
