/**
 * Codes for a missing value among numbers (-9999, 999, -2): found where a real data set has one, and
 * nowhere else in the repository's real-data fixtures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExtremeTally, missingCode } from '../../src/domain/missing-codes.js';
import { fixturePath } from '../support/fixtures.js';
import { numericColumns } from '../../bench/lib/numeric-columns.js';

/**
 * R package rpart 4.1.19 (Debian r-cran-rpart 4.1.19-1, GPL-2 | GPL-3), car90$RearShld: rear shoulder
 * room in inches, with -2 for the five two-seaters (Corvette, CRX, MX-5, RX7, 300ZX), which have none.
 */
const REAR_SHOULDER = [
  52.0, 55.5, 55.0, 52.0, 51.5, 55.5, 56.0, 58.5, 58.5, 56.5, 56.5, 60.0, 58.5, 57.0, 56.5, 50.5, 55.0, 55.5, 61.0, 53.5, 55.0, -2.0, 56.5, 62.0,
  55.5, 53.5, 55.0, 41.5, 52.5, 54.0, 55.5, 60.5, 51.0, 53.5, 54.5, 56.5, 52.5, 62.5, 51.5, 51.0, 61.5, 54.5, 52.0, 57.5, 54.0, 59.5, 50.0, 52.5,
  47.5, 54.0, 53.0, -2.0, 50.5, 51.5, 56.5, 57.0, 56.0, 57.5, 57.5, 62.0, 52.0, 55.0, 55.5, 43.0, -2.0, 52.5, 54.0, -2.0, 53.0, 56.0, 52.0, 55.0,
  52.5, 53.0, 59.0, 50.5, -2.0, 56.5, 55.5, 49.5, 52.5, 54.0, 58.5, 55.0, 54.5, 52.0, 59.0, 54.0, 53.0, 51.5, 53.0, 57.0, 54.0, 50.5, 53.5, 53.5,
  51.0, 53.5, 48.0, 52.5, 54.5, 50.5, 52.5, 51.0, 51.0, 54.0, 53.0, 53.5, 39.5, 53.0, 56.5,
];

const code = (values: number[]) => missingCode(ExtremeTally.of(values));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('a real code: car90 writes -2 for the rear shoulder room of two-seaters', () => {
  assert.deepEqual(code(REAR_SHOULDER), { value: -2, count: 5, present: 111, othersLow: 39.5, othersHigh: 62.5 });
});

test('codes as data sources write them: -9999 among temperatures, 999 among ages, 99 on a five-point scale', () => {
  const temps = [...range(-20, 40), -9999, -9999, -9999];
  assert.deepEqual(code(temps), { value: -9999, count: 3, present: 64, othersLow: -20, othersHigh: 40 });
  assert.equal(code([...range(0, 99), 999, 999, 999, 999])?.value, 999);
  assert.equal(code([...range(1, 5), ...range(1, 5), ...range(1, 5), 99, 99, 99])?.value, 99);
  // Both ends coded: the lower one is said first; the range is the values between.
  assert.deepEqual(code([...range(10, 30), -99, -99, -99, 999, 999, 999]), { value: -99, count: 3, present: 27, othersLow: 10, othersHigh: 30 });
});

test('values, not codes: a lone far value, a code-shaped value among its neighbours, -1 near day counts, too few other values', () => {
  assert.equal(code([...range(0, 50), -9999]), undefined, 'one far value is an outlier');
  assert.equal(code([...range(0, 50), 99, 99, 99]), undefined, '99 is not further from 0..50 than their range');
  assert.equal(code([...range(1, 871), -1, -1, -1, -1]), undefined, '-1 sits next to 1..871');
  assert.equal(code([...range(1, 9), -9999, -9999, -9999]), undefined, 'nine other values say little');
  assert.equal(code([5, 5, 5, 5]), undefined);
  assert.equal(code([]), undefined);
});

test('no column of the repository\'s real-data fixtures holds a code', () => {
  const columns = numericColumns(fixturePath());
  assert.ok(columns.length > 400, `${columns.length} numeric columns read`);
  assert.deepEqual(columns.filter((c) => code(c.values)).map((c) => `${c.file}: ${c.name}`), []);
});
