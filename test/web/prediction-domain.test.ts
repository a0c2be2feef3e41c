import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestedDomain } from '../../web/src/lib/prediction-domain.js';
import type { ColumnStats } from '../../web/src/types.js';

const stats = (rows: number, distinct: number, missing = 0): ColumnStats => ({
  totalCount: rows, missingCount: missing, errorCount: 0, distinctCount: distinct, suggestedType: 'numeric',
  min: 0, max: 1, mean: 0, median: 0, mode: null, stddev: null, variance: null, distribution: [],
});

test('a measurement with decimals suggests regression (concrete: 845 values in 1,030 rows)', () => {
  const s = suggestedDomain('compressive_strength', { dataType: 'numericMeasure', role: 'feature' }, stats(1030, 845));
  assert.equal(s.domain, 'regression');
  assert.match(s.reason, /845 different values in 1,030 rows/);
  // Before its values are counted, decimals alone say quantity.
  assert.equal(suggestedDomain('x', { dataType: 'numericMeasure', role: 'feature' }).domain, 'regression');
});

test('words, truth values and two-valued numbers are classes', () => {
  assert.equal(suggestedDomain('species', { dataType: 'string', role: 'target' }, stats(150, 3)).domain, 'classification');
  assert.equal(suggestedDomain('spam', { dataType: 'logical', role: 'feature' }).domain, 'classification');
  assert.equal(suggestedDomain('outcome', { dataType: 'numeric', role: 'feature' }, stats(768, 2)).domain, 'classification');
  assert.equal(suggestedDomain('flag', { dataType: 'numericMeasure', role: 'feature' }, stats(500, 2)).domain, 'classification');
});

test('whole numbers are classes while few are different, a quantity past 10 % of the rows (5 % past 1,000 rows)', () => {
  const whole = { dataType: 'numeric', role: 'feature' };
  assert.equal(suggestedDomain('rating', whole, stats(500, 5)).domain, 'classification');
  assert.equal(suggestedDomain('n', whole, stats(500, 50)).domain, 'classification');
  assert.equal(suggestedDomain('n', whole, stats(500, 51)).domain, 'regression');
  assert.equal(suggestedDomain('n', whole, stats(2000, 100)).domain, 'classification');
  assert.equal(suggestedDomain('n', whole, stats(2000, 101)).domain, 'regression');
  // Missing cells are not rows with a value.
  assert.equal(suggestedDomain('n', whole, stats(1000, 60, 500)).domain, 'regression');
  assert.equal(suggestedDomain('n', whole).domain, 'classification');
});
