import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { binFrame, MAX_BINS, numericValues } from '../../../src/ml/tabular/forest/binning.js';

test('binning keeps value order, caps the bin count and gives missing values bin 0', () => {
  // spambase (800-row fixture): columns with more distinct values than bins; pima_diabetes: many missing values.
  let capped = 0;
  let missing = 0;
  for (const name of ['spambase', 'pima_diabetes']) {
    const frame = benchFold(fixtureTable('classification', name), 0).train;
    const binned = binFrame(frame);
    frame.columns.forEach((col, f) => {
      const values = numericValues(col);
      const codes = binned.bins[f];
      const nCodes = binned.binLow[f].length;
      assert.ok(nCodes <= MAX_BINS + 1, `${col.name}: ${nCodes} codes`);
      if (new Set(values).size > MAX_BINS) capped++;
      const order = Array.from(values.keys()).filter((i) => !Number.isNaN(values[i])).sort((a, b) => values[a] - values[b]);
      for (let j = 1; j < order.length; j++) assert.ok(codes[order[j]] >= codes[order[j - 1]], `${col.name} not monotone`);
      values.forEach((v, i) => {
        if (Number.isNaN(v)) {
          assert.equal(codes[i], 0);
          missing++;
        } else assert.ok(codes[i] >= 1 && binned.binLow[f][codes[i]] <= v && v <= binned.binHigh[f][codes[i]]);
      });
    });
  }
  assert.ok(capped > 0 && missing > 0, 'the data must exercise both the cap and missing values');
});
