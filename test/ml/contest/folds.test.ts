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

test('forward-chaining folds: the earlier half only trains, each fold predicts a later block from every row before it', async () => {
  const { forwardChainingSplits } = await import('../../../src/ml/tabular/contest/folds.js');
  // Rows stored out of time order: row r is at time position order.indexOf(r).
  const order = Int32Array.from([5, 0, 9, 3, 7, 1, 8, 2, 6, 4, 11, 10]);
  const splits = forwardChainingSplits(order, 5);
  assert.equal(splits.length, 5);
  const position = (r: number) => order.indexOf(r);
  let predicted = 0;
  for (const { train, test: held } of splits) {
    const lastTrained = Math.max(...Array.from(train, position));
    assert.ok(Array.from(held).every((r) => position(r) > lastTrained));
    assert.equal(train.length, Math.min(...Array.from(held, position)));
    predicted += held.length;
  }
  assert.equal(predicted, 6);
  // Fewer rows than blocks: one row a block.
  assert.deepEqual(forwardChainingSplits(Int32Array.from([0, 1, 2]), 5).map((s) => Array.from(s.test)), [[2]]);
});
