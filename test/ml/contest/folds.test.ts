import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldRows, shuffledFolds, stratifiedFolds } from '../../../src/ml/tabular/contest/folds.js';

test('stratified folds keep class shares and even sizes; a 1-row class lands in one fold', () => {
  const y = Int32Array.from([...Array(60).fill(0), ...Array(30).fill(1), 2]);
  const fold = stratifiedFolds(y, 3, 5, 42);
  for (let k = 0; k < 5; k++) {
    const { train, test } = foldRows(fold, k);
    assert.equal(train.length + test.length, y.length);
    assert.ok(test.length === 18 || test.length === 19, `fold ${k} has ${test.length} rows`);
    assert.equal(test.filter((r) => y[r] === 0).length, 12);
    assert.equal(test.filter((r) => y[r] === 1).length, 6);
  }
  assert.equal(new Set(Array.from(y.keys()).filter((r) => y[r] === 2).map((r) => fold[r])).size, 1);
});

test('folds depend on the seed only', () => {
  assert.deepEqual(shuffledFolds(50, 5, 3), shuffledFolds(50, 5, 3));
  assert.notDeepEqual(shuffledFolds(50, 5, 3), shuffledFolds(50, 5, 4));
});
