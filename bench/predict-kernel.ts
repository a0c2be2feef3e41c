/**
 * The GBDT prediction kernel alone (issue 12 §6): CPU per 1,000-row batch and nanoseconds per
 * row × tree of Forest.rawScores (the leaf-mask kernel for these 31-leaf trees) next to the tree walk it replaced, on the table bench:load predict trains on (20,000 × 10: 8 numeric
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
import { WalkScorer } from '../src/ml/tabular/gbdt/walk-scorer.js';
import { leafMaskLayout } from '../src/ml/tabular/gbdt/leaf-mask-layout.js';

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

/** CPU and wall ms per batch of `score` over the batches (after warmUp). */
function timed(score: (f: Frame) => Float64Array): { cpuMs: number; wallMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) score(batchFrames[i % 10]!);
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000 / batches, wallMs: (performance.now() - t0) / batches };
}
const walk = new WalkScorer(forest.arrays, forest.numTrees);
const masked = leafMaskLayout(forest.arrays, forest.features.map((f) => f.categorical !== null)) !== null;
console.log(`predict kernel: ${forest.numTrees} trees (depth median ${depths[depths.length >> 1]}, max ${depths.at(-1)}), ${forest.arrays.feature.length} nodes; `
  + `${batches} batches of ${BATCH} rows; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on 2 cores`);
/** JIT and wasm tier-up: the optimised kernel code is compiled in the background, so every way runs for a while (≥ 1 s) before any is timed. */
function warmUp(scores: ((f: Frame) => Float64Array)[]): void {
  const until = performance.now() + 1000;
  for (let i = 0; i < 30 || performance.now() < until; i++) for (const score of scores) score(batchFrames[i % 10]!);
}
const ways = [
  [masked ? 'rawScores (leaf masks)' : 'rawScores (tree walk: the forest does not fit the leaf-mask layout)', (f: Frame) => forest.rawScores(f)],
  ['tree walk', (f: Frame) => walk.rawScores(forest.inputColumns(f), f.nRows, forest.initScores)],
] as const;
warmUp(ways.map(([, score]) => score));
for (const [name, score] of ways) {
  const { cpuMs, wallMs } = timed(score);
  console.log(`  ${name}: CPU ${cpuMs.toFixed(2)} ms per batch = ${((cpuMs * 1e6) / (BATCH * forest.numTrees)).toFixed(1)} ns per row × tree (wall ${wallMs.toFixed(2)} ms)`);
}

// One record (the single-record predict path, scored in-thread).
const single = slice(frame, 0, 1);
const singles = batches * 20;
for (const [name, score] of [['rawScores', (f: Frame) => forest.rawScores(f)], ['tree walk', (f: Frame) => walk.rawScores(forest.inputColumns(f), f.nRows, forest.initScores)]] as const) {
  for (let i = 0; i < 200; i++) score(single);
  const s0 = process.cpuUsage();
  for (let i = 0; i < singles; i++) score(single);
  const s = process.cpuUsage(s0);
  console.log(`  one row, ${name}: CPU ${((s.user + s.system) / singles).toFixed(1)} µs per call (${singles} calls)`);
}
const catNodes = forest.arrays.feature.filter((f) => f < 0).length;
console.log(`  categorical split nodes: ${catNodes} (${(catNodes / forest.numTrees).toFixed(1)} per tree)`);
