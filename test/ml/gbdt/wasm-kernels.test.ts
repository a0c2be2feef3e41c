/**
 * Every wasm kernel (kernels.wat) against its plain-TypeScript statement (kernel-reference.ts, or inline for clear) on
 * seeded random inputs, called directly on a kernel memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kernels, SCORE_LANES } from '../../../src/ml/tabular/gbdt/wasm-kernels.js';
import type { ForestArrays } from '../../../src/ml/tabular/gbdt/compiled-forest.js';
import { walkLayout, type WalkLayout } from '../../../src/ml/tabular/gbdt/walk-layout.js';
import { leafMaskLayout } from '../../../src/ml/tabular/gbdt/leaf-mask-layout.js';
import { MaskScorer } from '../../../src/ml/tabular/gbdt/mask-scorer.js';
import { buildReference, partitionReference, scoreReference } from './kernel-reference.js';
import { lcg } from './synthetic.js';

type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array;
type TypedCtor<T extends Typed> = { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** Hands out views on a kernel memory, 16-byte aligned, one after the other. */
function arena(bytes: number) {
  const kernels = new Kernels(bytes);
  let at = 64; // address 0 stays unused, so a forgotten offset shows
  const alloc = <T extends Typed>(Ctor: TypedCtor<T>, length: number): T => {
    const view = new Ctor(kernels.buffer, at, length);
    at += Math.ceil((length * Ctor.BYTES_PER_ELEMENT) / 16) * 16;
    if (at > bytes) throw new Error('test arena too small');
    return view;
  };
  return { kernels, alloc };
}

function assertClose(actual: Float64Array, expected: Float64Array, what: string): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < actual.length; i++) {
    const tol = 1e-12 * Math.max(1, Math.abs(expected[i]));
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

test('build8: histogram sums of a row segment over a feature range equal the reference (any feature count, up to 256 bins each)', () => {
  const rnd = lcg(16);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let trial = 0; trial < 40; trial++) {
    const nRows = 1 + int(600);
    const nf = 1 + int(40);
    // Features of different bin counts, so that each needs its own offset.
    const numBins = Int32Array.from({ length: nf }, () => 2 + int(255));
    const binOffset = new Int32Array(nf + 1);
    for (let f = 0; f < nf; f++) binOffset[f + 1] = binOffset[f] + numBins[f];
    const { kernels, alloc } = arena(1 << 24);
    const hist = alloc(Float64Array, 2 * binOffset[nf]);
    const codes = alloc(Uint8Array, nRows * nf);
    const binAt = alloc(Int32Array, nf);
    const idx = alloc(Int32Array, nRows);
    const pairs = alloc(Float64Array, 2 * nRows);
    for (let f = 0; f < nf; f++) binAt[f] = binOffset[f] * 16;
    for (let r = 0; r < nRows; r++) for (let f = 0; f < nf; f++) codes[r * nf + f] = int(numBins[f]);
    // A leaf segment: rows in a shuffled order, each row once.
    const order = Array.from({ length: nRows }, (_, i) => i).sort(() => rnd() - 0.5);
    idx.set(order);
    for (let r = 0; r < nRows; r++) {
      pairs[2 * r] = rnd() * 4 - 2;
      pairs[2 * r + 1] = rnd();
    }
    const begin = int(nRows);
    const end = begin + int(nRows - begin + 1);
    const f0 = int(nf);
    const f1 = f0 + int(nf - f0 + 1);
    const initial = Float64Array.from(hist, () => rnd());
    hist.set(initial);
    const expected = initial.slice();
    buildReference(expected, codes, idx, begin, end, pairs, nf, f0, f1, binOffset);
    kernels.build8(hist.byteOffset, codes.byteOffset, idx.byteOffset, begin, end, pairs.byteOffset, nf, f0, f1, binAt.byteOffset);
    assertClose(hist, expected, `trial ${trial} hist`);
  }
});

test('partition and partitionApart: a stable split of one segment by a bin → side table equals the reference; the rest untouched', () => {
  const rnd = lcg(18);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let trial = 0; trial < 50; trial++) {
    const nRows = 1 + int(3000);
    const { kernels, alloc } = arena(1 << 20);
    const idx = alloc(Int32Array, nRows);
    const tmp = alloc(Int32Array, nRows);
    const codes = alloc(Uint8Array, nRows);
    const table = alloc(Uint8Array, 256);
    idx.set(Array.from({ length: nRows }, (_, i) => i).sort(() => rnd() - 0.5));
    for (let r = 0; r < nRows; r++) codes[r] = int(256);
    const share = rnd();
    for (let b = 0; b < 256; b++) table[b] = rnd() < share ? 1 : 0;
    const begin = int(nRows);
    const end = begin + int(nRows - begin + 1);
    const expected = idx.slice();
    const expectedMid = partitionReference(expected, begin, end, codes, table);
    const before = idx.slice();
    const mid = kernels.partition(idx.byteOffset, begin, end, codes.byteOffset, table.byteOffset, tmp.byteOffset);
    assert.equal(mid, expectedMid, `trial ${trial}`);
    assert.deepEqual(Array.from(idx), Array.from(expected), `trial ${trial}`);
    // partitionApart: the same left part in place, the right part in order at the start of tmp, the rest untouched.
    idx.set(before);
    const apartMid = kernels.partitionApart(idx.byteOffset, begin, end, codes.byteOffset, table.byteOffset, tmp.byteOffset);
    assert.equal(apartMid, expectedMid, `trial ${trial} apart`);
    assert.deepEqual(Array.from(idx.subarray(begin, mid)), Array.from(expected.subarray(begin, mid)), `trial ${trial} apart left`);
    assert.deepEqual(Array.from(tmp.subarray(0, end - mid)), Array.from(expected.subarray(mid, end)), `trial ${trial} apart right`);
    assert.deepEqual(Array.from(idx.subarray(0, begin)), Array.from(before.subarray(0, begin)), `trial ${trial} apart before`);
    assert.deepEqual(Array.from(idx.subarray(end)), Array.from(before.subarray(end)), `trial ${trial} apart after`);
  }
});

for (const op of ['subtract', 'add'] as const) {
  test(`${op}: dst ${op === 'add' ? '+=' : '−='} src over a run of float64s (even and odd lengths) equals the plain ${op === 'add' ? 'sums' : 'differences'}; neighbours untouched`, () => {
    const rnd = lcg(op === 'add' ? 29 : 23);
    for (let trial = 0; trial < 30; trial++) {
      const { kernels, alloc } = arena(1 << 16);
      const n = 1 + Math.floor(rnd() * 600);
      const dst = alloc(Float64Array, n + 2);
      const src = alloc(Float64Array, n + 2);
      for (let i = 0; i < n + 2; i++) {
        dst[i] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8);
        src[i] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8);
      }
      const expected = Float64Array.from(dst, (v, i) => (i >= 1 && i <= n ? (op === 'add' ? v + src[i] : v - src[i]) : v));
      kernels[op](dst.byteOffset + 8, src.byteOffset + 8, n);
      assert.deepEqual(Array.from(dst), Array.from(expected), `trial ${trial}`);
    }
  });
}

/**
 * A random forest of nTrees trees over nf features (the ones in `categorical` by bin bitsets), of up to
 * maxNodes split nodes each; thresholds drawn by `drawThreshold` (default uniform on [-1, 1)).
 */
function randomForest(
  rnd: () => number, nTrees: number, nf: number, categorical: Set<number>, nBins: number, maxNodes = 30, drawThreshold = () => rnd() * 2 - 1,
): ForestArrays {
  const int = (n: number) => Math.floor(rnd() * n);
  const feature: number[] = [];
  const threshold: number[] = [];
  const children: number[] = [];
  const defaultLeft: number[] = [];
  const catOffset: number[] = [];
  const catBits: number[] = [];
  const leafValue: number[] = [];
  const nodeOffset = [0];
  const leafOffset = [0];
  for (let t = 0; t < nTrees; t++) {
    // Grown like the learner grows trees: split a random leaf into (leaf, new leaf) again and again.
    const nNodes = t % 5 === 0 ? 0 : int(maxNodes + 1);
    const left: number[] = [];
    const right: number[] = [];
    const parentOf: [number, boolean][] = [[-1, false]];
    for (let j = 0; j < nNodes; j++) {
      const leaf = int(j + 1);
      const [parent, isLeft] = parentOf[leaf];
      if (parent >= 0) (isLeft ? left : right)[parent] = j;
      left[j] = ~leaf;
      right[j] = ~(j + 1);
      parentOf[leaf] = [j, true];
      parentOf[j + 1] = [j, false];
    }
    for (let j = 0; j < nNodes; j++) {
      const f = int(nf);
      children.push(left[j], right[j]);
      defaultLeft.push(int(2));
      if (categorical.has(f)) {
        feature.push(~f);
        threshold.push(0);
        catOffset.push(catBits.length);
        for (let w = 0; w < Math.ceil(nBins / 32); w++) catBits.push(int(2 ** 32));
      } else {
        feature.push(f);
        threshold.push(drawThreshold());
        catOffset.push(-1);
      }
    }
    const nLeaves = nNodes + 1;
    for (let l = 0; l < nLeaves; l++) leafValue.push(rnd() - 0.5);
    nodeOffset.push(nodeOffset[t] + nNodes);
    leafOffset.push(leafOffset[t] + nLeaves);
  }
  return {
    nodeOffset: Int32Array.from(nodeOffset), leafOffset: Int32Array.from(leafOffset), feature: Int32Array.from(feature),
    threshold: Float64Array.from(threshold), children: Int32Array.from(children), defaultLeft: Uint8Array.from(defaultLeft),
    catOffset: Int32Array.from(catOffset), catBits: Uint32Array.from(catBits), leafValue: Float64Array.from(leafValue),
  };
}

test('score: tree walks (numeric thresholds, NaN to the default side, categorical bitsets, empty trees, k scores) equal the reference exactly', () => {
  const rnd = lcg(19);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let trial = 0; trial < 20; trial++) {
    const nf = 1 + int(12);
    const k = 1 + int(4);
    const nBins = 2 + int(70);
    const categorical = new Set(Array.from({ length: nf }, (_, f) => f).filter(() => rnd() < 0.3));
    const forest = randomForest(rnd, 1 + int(40), nf, categorical, nBins);
    const nRows = 1 + int(240);
    const { kernels, alloc } = arena(1 << 22);
    const x = alloc(Float64Array, nRows * nf);
    for (let r = 0; r < nRows; r++)
      for (let f = 0; f < nf; f++) {
        // Numeric values sometimes exactly on a threshold, sometimes missing.
        const u = rnd();
        x[r * nf + f] = categorical.has(f) ? int(nBins) : u < 0.1 ? NaN : u < 0.15 ? forest.threshold[int(forest.threshold.length)] ?? 0 : rnd() * 2 - 1;
      }
    // The kernel walks the forest's walk layout (walk-layout.ts), made from the same arrays.
    const layout = walkLayout(forest as ForestArrays);
    const at = {} as Record<keyof WalkLayout, number>;
    for (const [key, a] of Object.entries(layout) as [keyof WalkLayout, WalkLayout[keyof WalkLayout]][]) {
      const view = alloc(Uint8Array, Math.max(1, a.byteLength));
      view.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      at[key] = view.byteOffset;
    }
    const out = alloc(Float64Array, nRows * k);
    const initial = Float64Array.from(out, () => rnd());
    out.set(initial);
    const expected = initial.slice();
    scoreReference(x, nf, nRows, forest, expected, k);
    // score4 over the rows in fours, score1 over the rest.
    const fours = nRows - (nRows % SCORE_LANES);
    const nTrees = forest.nodeOffset.length - 1;
    kernels.score4(x.byteOffset, nf, fours, at.treeRoot, nTrees, at.nodes, at.value, at.catBits, out.byteOffset, k);
    kernels.score1(x.byteOffset + fours * nf * 8, nf, nRows - fours, at.treeRoot, nTrees, at.nodes, at.value, at.catBits, out.byteOffset + fours * k * 8, k);
    // Exactly: the same leaves added in the same order.
    assert.deepEqual(out, expected, `trial ${trial} out`);
  }
});

test('scoreMasks (leaf masks over binned rows): the sums of the reference walk exactly, for every feature count up to 4 vectors of bins', () => {
  const rnd = lcg(23);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let trial = 0; trial < 24; trial++) {
    const nf = 1 + int(trial < 12 ? 16 : 64);
    const k = 1 + int(3);
    const nBins = 2 + int(70);
    const categorical = new Set(Array.from({ length: nf }, (_, f) => f).filter(() => rnd() < 0.3));
    // Shared thresholds (as bin bounds are), +∞ among them (a bin bound the learner can pick).
    const pool = Array.from({ length: 1 + int(200) }, () => (rnd() < 0.05 ? Infinity : rnd() * 2 - 1));
    const forest = randomForest(rnd, 1 + int(40), nf, categorical, nBins, 31, () => pool[int(pool.length)]);
    const nRows = 1 + int(240);
    const x = new Float64Array(nRows * nf);
    for (let r = 0; r < nRows; r++)
      for (let f = 0; f < nf; f++) {
        // Numeric values sometimes exactly on a threshold, sometimes missing, sometimes beyond every threshold.
        const u = rnd();
        x[r * nf + f] = categorical.has(f) ? int(nBins) : u < 0.1 ? NaN : u < 0.2 ? pool[int(pool.length)] : u < 0.25 ? (rnd() < 0.5 ? 5 : -Infinity) : rnd() * 2 - 1;
      }
    const columns = Array.from({ length: nf }, (_, f) => {
      const values = Array.from({ length: nRows }, (_, r) => x[r * nf + f]);
      return categorical.has(f) ? Int32Array.from(values) : Float64Array.from(values);
    });
    const initial = Float64Array.from({ length: k }, () => rnd());
    const expected = new Float64Array(nRows * k);
    for (let r = 0; r < nRows; r++) expected.set(initial, r * k);
    scoreReference(x, nf, nRows, forest, expected, k);
    const isCategorical = Array.from({ length: nf }, (_, f) => categorical.has(f));
    const scorer = MaskScorer.of(forest as ForestArrays, isCategorical);
    assert.ok(scorer, `trial ${trial}: the layout applies`);
    // Exactly: the same leaves added in the same order.
    assert.deepEqual(scorer.rawScores(columns, nRows, initial), expected, `trial ${trial} out`);
    // Only the layout is shared between batches: a second, smaller one scores as its rows did in the first.
    const tail = Math.max(1, nRows >> 1);
    assert.deepEqual(scorer.rawScores(columns.map((c) => c.subarray(nRows - tail)), tail, initial), expected.subarray((nRows - tail) * k), `trial ${trial} tail`);
  }
});

test('leaf-mask layout: refuses trees of more than 32 leaves, more than 254 finite thresholds of a feature and more than 64 features', () => {
  const rnd = lcg(24);
  const numeric = (nf: number) => Array.from({ length: nf }, () => false);
  assert.ok(leafMaskLayout(randomForest(rnd, 3, 4, new Set(), 8, 31) as ForestArrays, numeric(4)));
  // 33 leaves.
  let forest = randomForest(rnd, 60, 4, new Set(), 8, 32);
  assert.ok(forest.leafOffset.some((l, t) => t > 0 && l - forest.leafOffset[t - 1] === 33));
  assert.equal(leafMaskLayout(forest as ForestArrays, numeric(4)), null);
  // 255 distinct finite thresholds of one feature; with +∞ besides them, 254 still fit.
  let next = 0;
  forest = randomForest(rnd, 30, 1, new Set(), 8, 30, () => (next < 255 ? next++ : 0));
  assert.equal(new Set(forest.threshold).size, 255);
  assert.equal(leafMaskLayout(forest as ForestArrays, numeric(1)), null);
  next = 1;
  forest = randomForest(rnd, 30, 1, new Set(), 8, 30, () => (next < 255 ? next++ : Infinity));
  assert.ok(leafMaskLayout(forest as ForestArrays, numeric(1)));
  assert.equal(leafMaskLayout(randomForest(rnd, 3, 65, new Set(), 8) as ForestArrays, numeric(65)), null);
});

test('clear: zeroes exactly the given byte range', () => {
  const rnd = lcg(20);
  for (let trial = 0; trial < 20; trial++) {
    const { kernels, alloc } = arena(1 << 16);
    const bytes = alloc(Uint8Array, 4096);
    const initial = Uint8Array.from(bytes, () => 1 + Math.floor(rnd() * 255));
    bytes.set(initial);
    const from = Math.floor(rnd() * 4096);
    const n = Math.floor(rnd() * (4096 - from + 1));
    kernels.clear(bytes.byteOffset + from, n);
    const expected = initial.map((v, i) => (i >= from && i < from + n ? 0 : v));
    assert.deepEqual(Array.from(bytes), Array.from(expected), `trial ${trial}`);
  }
});
