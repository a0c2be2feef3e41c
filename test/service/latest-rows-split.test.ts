import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latestRowsSplit, rowTimes } from '../../src/service/models/latest-rows-split.js';

test('the latest 20 % of rows by time are the test rows, whatever the rows\' stored order', () => {
  const days = Array.from({ length: 20 }, (_, i) => `2014-01-${String(i + 1).padStart(2, '0')}`);
  const stored = [...days].reverse();
  const split = latestRowsSplit(rowTimes(stored))!;
  assert.deepEqual(Array.from(split.test, (r) => stored[r]).sort(), days.slice(16));
  assert.equal(split.train.length, 16);
  assert.equal(stored[split.firstTest], '2014-01-17');
  assert.equal(stored[split.lastTest], '2014-01-20');
});

test('rows sharing the first test time are all tested; rows without a time train; one time only is no order', () => {
  const split = latestRowsSplit(Float64Array.from([1, 2, 3, 4, 4, NaN, 5, 6, 7, 8]))!;
  assert.deepEqual(Array.from(split.test), [8, 9]);
  const tied = latestRowsSplit(Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 8, 8]))!;
  assert.deepEqual(Array.from(tied.test), [7, 8, 9]);
  assert.ok(Array.from(split.train).includes(5));
  assert.equal(latestRowsSplit(Float64Array.from([3, 3, 3, NaN])), undefined);
});

test('a numeric timestamp (years) orders by its numbers', () => {
  assert.deepEqual(Array.from(rowTimes(Float64Array.from([1999, 2001]))), [1999, 2001]);
  assert.deepEqual(Array.from(rowTimes(['2014-01-02', 'not a date', null])).map(Number.isNaN), [false, true, true]);
});
