/** The wasm kernels through TrainingMemory (its slot layout and carving) against plain loops over the same random data. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitBins } from '../../../src/ml/tabular/gbdt/bin-mapper.js';
import { binRows, makeLayout } from '../../../src/ml/tabular/gbdt/binned-data.js';
import { MAX_CHUNKS, TrainingMemory } from '../../../src/ml/tabular/gbdt/training-memory.js';
import { RowWork } from '../../../src/ml/tabular/gbdt/row-work.js';
import { L2Regression } from '../../../src/ml/tabular/gbdt/objectives.js';
import { frame, lcg, numeric } from './synthetic.js';

/** Columns a (continuous, some NaN), b (7 levels), then `extra` continuous ones. */
function setup(extra = 0) {
  const rnd = lcg(9);
  const n = 500;
  const f = frame(
    numeric('a', Array.from({ length: n }, () => (rnd() < 0.1 ? NaN : rnd()))),
    numeric('b', Array.from({ length: n }, () => Math.floor(rnd() * 7))),
    ...Array.from({ length: extra }, (_, j) => numeric(`c${j}`, Array.from({ length: n }, () => rnd()))),
  );
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const layout = makeLayout(f.columns.map((_, j) => j), f.columns.map((c, j) => fitBins(c, rows, 255, j)));
  const data = binRows(f, layout, rows);
  const memory = new TrainingMemory(layout, data, 2, 4);
  for (let i = 0; i < memory.pairs.length; i += 2) {
    memory.pairs[i] = rnd() - 0.5;
    memory.pairs[i + 1] = rnd();
  }
  return { n, layout, data, memory };
}

for (const [label, extra] of [['up to', 0], ['beyond', 400]] as const) {
  test(`histogram kernel (${label} 65,536 bins in all, as u16 bin indices once held): per-bin sums of the listed rows, for one class's gradients`, () => {
    const { n, layout, data, memory } = setup(extra);
    const nf = layout.bins.length;
    assert.equal(layout.binOffset[nf] > 65536, extra > 0);
    // Every third row, in the order a leaf segment would hold them.
    const rows = Int32Array.from({ length: Math.ceil(n / 3) }, (_, i) => 3 * i);
    memory.indices.set(rows, 10);
    const pairs = memory.pairs.subarray(2 * n, 4 * n);
    const hist = memory.pool[2];
    hist.fill(123);
    memory.buildHistogram(hist, 10, rows.length, pairs);
    const expected = new Float64Array(hist.length);
    for (const r of rows)
      for (let f = 0; f < nf; f++) {
        const slot = layout.binOffset[f] + data.codes[f * n + r];
        expected[2 * slot] += pairs[2 * r];
        expected[2 * slot + 1] += pairs[2 * r + 1];
      }
    for (let s = 0; s < hist.length; s++) assert.ok(Math.abs(hist[s] - expected[s]) < 1e-9, `slot ${s >> 1}: ${hist[s]} vs ${expected[s]}`);
  });
}

test('histogram in row chunks: chunks built over any feature ranges in any order, then added in chunk order, equal those sums exactly', () => {
  const { n, layout, data, memory } = setup(30);
  const nf = layout.bins.length;
  const h = memory.histograms;
  // How many chunks depends on the rows only: 1, 2 or 4 (equal shares for two threads), more with more rows.
  const counts = [100, 1000, 5000, 20_000, 100_000, 1_000_000].map((rows) => h.chunks(rows));
  assert.ok(counts.every((k, i) => [1, 2, 4].includes(k) && (i === 0 || k >= counts[i - 1])), `chunks ${counts}`);
  assert.equal(counts[0], 1);
  assert.equal(counts[counts.length - 1], MAX_CHUNKS);
  const rows = Int32Array.from({ length: n - 20 }, (_, i) => i + (i % 7 === 0 ? 0 : 1));
  memory.indices.set(rows);
  const pairs = memory.pairs.subarray(0, 2 * n);
  const all = Int32Array.from({ length: nf }, (_, f) => f);
  const ones = new Uint8Array(nf).fill(1);
  for (const chunks of [2, 3, 4]) {
    // Chunk k's rows alone, each in pool slot 3 by the one-pass kernel (the reference for chunk k).
    const parts = Array.from({ length: chunks }, (_, k) => {
      const from = Math.floor((rows.length * k) / chunks);
      const to = Math.floor((rows.length * (k + 1)) / chunks);
      memory.buildHistogram(memory.pool[3], from, to - from, pairs);
      return Float64Array.from(memory.pool[3]);
    });
    const expected = Float64Array.from(parts[0], (v, s) => parts.slice(1).reduce((sum, p) => sum + p[s], v));
    memory.pool[1].fill(123);
    h.partials.forEach((p) => p.fill(-7));
    // Last chunk first, the first chunk in two feature ranges.
    const cut = Math.floor(nf / 3);
    for (let k = chunks - 1; k >= 1; k--) h.buildChunk(1, k, chunks, 0, rows.length, pairs.byteOffset, 0, nf);
    h.buildChunk(1, 0, chunks, 0, rows.length, pairs.byteOffset, cut, nf);
    h.buildChunk(1, 0, chunks, 0, rows.length, pairs.byteOffset, 0, cut);
    h.addChunks(1, chunks, all, ones);
    assert.deepEqual(Array.from(memory.pool[1]), Array.from(expected), `${chunks} chunks`);
  }
});

test('partition kernel: a stable split of one segment by a bin → side table, the rest untouched', () => {
  const { n, data, memory } = setup();
  for (let i = 0; i < n; i++) memory.indices[i] = n - 1 - i;
  const goesLeft = Uint8Array.from({ length: 8 }, (_, b) => (b % 2 === 0 ? 1 : 0));
  const before = Array.from(memory.indices);
  const mid = memory.partition(100, 400, 1, goesLeft);
  const segment = before.slice(100, 400);
  const left = segment.filter((r) => goesLeft[data.codes[n + r]] === 1);
  const right = segment.filter((r) => goesLeft[data.codes[n + r]] === 0);
  assert.equal(mid, 100 + left.length);
  assert.deepEqual(Array.from(memory.indices), [...before.slice(0, 100), ...left, ...right, ...before.slice(400)]);
});

test('row ranges partitioned apart and merged give the one-range stable partition (how threads share a split)', () => {
  const { n, data, memory } = setup();
  const rows = new RowWork(memory.kernels, memory.histograms.plan, new L2Regression());
  const rnd = lcg(3);
  const perm = Array.from({ length: n }, (_, i) => i).sort(() => rnd() - 0.5);
  const goesLeft = Uint8Array.from({ length: 8 }, () => (rnd() < 0.5 ? 1 : 0));
  const codesAt = memory.sideTable(1, goesLeft);
  const segment = perm.slice(50, 450);
  const left = segment.filter((r) => goesLeft[data.codes[n + r]] === 1);
  const right = segment.filter((r) => goesLeft[data.codes[n + r]] === 0);
  for (const parts of [1, 2, 3, 7]) {
    memory.indices.set(perm);
    const bounds = Int32Array.from({ length: parts + 1 }, (_, t) => 50 + Math.floor((400 * t) / parts));
    const mids = Int32Array.from({ length: parts }, (_, t) => rows.partition(bounds[t], bounds[t + 1], codesAt));
    const mid = rows.mergePartitions(bounds, mids, parts);
    assert.equal(mid, 50 + left.length, `${parts} parts`);
    assert.deepEqual(Array.from(memory.indices), [...perm.slice(0, 50), ...left, ...right, ...perm.slice(450)], `${parts} parts`);
  }
});
