/** sortFloat64 (the binners' radix sort) orders values exactly as Float64Array.prototype.sort does. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortFloat64 } from '../../src/ml/core/sort-float64.js';
import { SeededRandom } from '../../src/ml/core/random.js';

/** The values' bit patterns, so that −0 and +0 count as different. */
function bits(v: Float64Array): number[] {
  return Array.from(new Uint32Array(v.buffer, v.byteOffset, 2 * v.length));
}

test('sortFloat64 gives the bit-identical order of the built-in sort: signs, ±0, infinities, ties, tiny and huge magnitudes', () => {
  const rng = new SeededRandom(7);
  const draws: ((r: number) => number)[] = [
    (r) => (r - 0.5) * 1e6,
    (r) => Math.floor(r * 20) - 10,
    (r) => (r < 0.02 ? Infinity : r < 0.04 ? -Infinity : r < 0.2 ? -0 : r < 0.4 ? 0 : (r - 0.7) * 1e-300),
    (r) => Math.round(r * 100) / 7,
    (r) => Math.exp((r - 0.5) * 200) * (r < 0.5 ? -1 : 1),
  ];
  for (const draw of draws) {
    for (const n of [5, 1500, 20_000]) {
      const v = Float64Array.from({ length: n }, () => draw(rng.next()));
      assert.deepEqual(bits(sortFloat64(v.slice())), bits(v.slice().sort()));
    }
  }
});

test('sortFloat64 sorts beyond the memory it keeps between sorts (2^18 values), then within it again', () => {
  const rng = new SeededRandom(3);
  for (const n of [300_000, 5_000]) {
    const v = Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? -0 : Math.round((rng.next() - 0.5) * 1e5) / 3));
    assert.deepEqual(bits(sortFloat64(v.slice())), bits(v.slice().sort()));
  }
});

test('sortFloat64 sorts a view in place and leaves the rest of its buffer alone', () => {
  const all = Float64Array.from({ length: 3000 }, (_, i) => Math.sin(i) * 100);
  const before = all.slice();
  const view = all.subarray(500, 2500);
  const want = view.slice().sort();
  sortFloat64(view);
  assert.deepEqual(Array.from(view), Array.from(want));
  assert.deepEqual(Array.from(all.subarray(0, 500)), Array.from(before.subarray(0, 500)));
  assert.deepEqual(Array.from(all.subarray(2500)), Array.from(before.subarray(2500)));
});
