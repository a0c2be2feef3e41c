import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramFromBins } from '../../web/src/lib/histogram.js';

test('the stats endpoint\'s ten ranges become edges and counts, the last range ending at the maximum', () => {
  const bins = Array.from({ length: 10 }, (_, i) => ({ min: 4.3 + i * 0.36, max: i === 9 ? 7.9 : 4.3 + (i + 1) * 0.36, count: i + 1 }));
  const h = histogramFromBins(bins)!;
  assert.equal(h.edges.length, 11);
  assert.equal(h.edges[0], 4.3);
  assert.equal(h.edges[10], 7.9);
  assert.deepEqual(h.counts, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('a column of one value gets one bin a unit wide around it, so it draws', () => {
  assert.deepEqual(histogramFromBins([{ min: 3, max: 3, count: 12 }]), { edges: [2.5, 3.5], counts: [12] });
});

test('top values (a column counted as text) and an empty distribution are no histogram', () => {
  assert.equal(histogramFromBins([{ value: 'setosa', count: 50 }, { value: 'virginica', count: 50 }]), undefined);
  assert.equal(histogramFromBins([]), undefined);
});
