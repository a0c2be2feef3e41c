/** Discretisation: quantile bins within the byte budget, a dedicated missing bin, categorical levels by name. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeToBinTable, fitBins, valueToBin } from '../../../src/ml/tabular/gbdt/bin-mapper.js';
import { binColumn } from '../../../src/ml/tabular/gbdt/binned-data.js';
import { categorical, lcg, numeric } from './synthetic.js';

const allRows = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

test('many distinct values get at most maxBins roughly equal-count bins, NaN its own bin', () => {
  const rnd = lcg(5);
  const n = 10_000;
  const values = Float64Array.from({ length: n }, (_, i) => (i % 50 === 0 ? NaN : rnd() ** 2));
  const bins = fitBins(numeric('x', values), allRows(n), 255, 0);
  assert.equal(bins.kind, 'numeric');
  if (bins.kind !== 'numeric') return;
  assert.ok(bins.upperBounds.length <= 255 && bins.upperBounds.length >= 200, `${bins.upperBounds.length} bins`);
  assert.equal(bins.upperBounds[bins.upperBounds.length - 1], Infinity);
  assert.equal(valueToBin(bins, NaN), bins.missingBin);
  assert.ok(bins.hasMissing);
  const counts = new Array<number>(bins.missingBin + 1).fill(0);
  for (const v of values) counts[valueToBin(bins, v)]++;
  assert.equal(counts[bins.missingBin], n / 50);
  const valueCounts = counts.slice(0, -1);
  assert.ok(Math.max(...valueCounts) < 3 * (n / 255), `largest bin ${Math.max(...valueCounts)}`);
});

test('few distinct values: one bin each, boundaries between them', () => {
  const bins = fitBins(numeric('x', [1, 1, 1, 2, 2, 2, 5, 5, 5]), allRows(9), 255, 0);
  if (bins.kind !== 'numeric') throw new Error('numeric expected');
  assert.deepEqual(Array.from(bins.upperBounds), [1.5, 3.5, Infinity]);
  assert.deepEqual([1, 2, 5, 3, 4, 100].map((v) => valueToBin(bins, v)), [0, 1, 2, 1, 2, 2]);
});

test('categorical levels map by name; unseen, missing and unused levels share the missing bin', () => {
  const col = categorical('c', ['a', 'b', 'unused'], [0, 0, 0, 1, -1]);
  const bins = fitBins(col, allRows(5), 255, 0);
  if (bins.kind !== 'categorical') throw new Error('categorical expected');
  assert.equal(bins.missingBin, 2);
  assert.deepEqual(Array.from(codeToBinTable(bins, ['b', 'zzz', 'a', 'unused'])), [1, 2, 0, 2]);
});

test('binColumn (the wasm kernel) puts every value in valueToBin\'s bin: bounds counts 1..255, values on bounds, ±0, ±∞, NaN, row subsets', () => {
  const rnd = lcg(11);
  const n = 40_000;
  for (const distinct of [1, 2, 3, 7, 64, 200, 20_000]) {
    const values = Float64Array.from({ length: n }, (_, i) => {
      if (i % 97 === 0) return NaN;
      if (i % 89 === 0) return i % 2 ? Infinity : -Infinity;
      if (i % 83 === 0) return i % 2 ? -0 : 0;
      return Math.floor(rnd() * distinct) - distinct / 2;
    });
    for (const maxBins of [2, 16, 255]) {
      const bins = fitBins(numeric('x', values), allRows(n), maxBins, 0);
      if (bins.kind !== 'numeric') throw new Error('numeric expected');
      // Every other row, backwards: the kernel reads values through the row indices, a chunk at a time.
      const rows = Int32Array.from({ length: n / 2 }, (_, i) => n - 1 - 2 * i);
      const probes = Float64Array.from([...Array.from(rows, (r) => values[r]), ...bins.upperBounds, ...bins.upperBounds.map((b) => b + 1e-9)]);
      const probeRows = allRows(probes.length);
      const got = new Uint8Array(probes.length);
      binColumn(bins, numeric('x', probes), probeRows, got);
      assert.deepEqual(Array.from(got), Array.from(probes, (v) => valueToBin(bins, v)), `${distinct} distinct values, maxBins ${maxBins}`);
      const subset = new Uint8Array(rows.length);
      binColumn(bins, numeric('x', values), rows, subset);
      assert.deepEqual(Array.from(subset), Array.from(rows, (r) => valueToBin(bins, values[r])));
    }
  }
});
