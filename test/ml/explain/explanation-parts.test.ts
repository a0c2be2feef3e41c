/**
 * A batch explained in parts (as the scoring threads do), each part planned for the whole batch
 * (ExplainOptions.batchRows), gives every row the same numbers, bit for bit, as the batch explained at
 * once — on real fixture data, with batch and part sizes for which TreeSHAP tabulates different leaves
 * (so the plan, not the part, must decide): GBDT with categorical splits and missing values
 * (credit_data), a four-class forest (vehicle, last class by difference).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Frame } from '../../../src/ml/frame.js';
import type { TrainedModel } from '../../../src/ml/estimator.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { RandomForestLearner } from '../../../src/ml/tabular/forest/index.js';
import { explain } from '../../../src/ml/explain/explanation.js';
import { selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';

function range(frame: Frame, r0: number, r1: number): Frame {
  return selectRows(frame, Int32Array.from({ length: r1 - r0 }, (_, i) => (r0 + i) % frame.nRows));
}

/** Explains rows 0..n−1 whole and in three uneven parts; returns how many values differ when the parts are planned on their own. */
function assertPartsEqualWhole(model: TrainedModel, test: Frame, n: number): number {
  const whole = explain(model, range(test, 0, n));
  const cuts = [0, 3, Math.floor(n / 2), n];
  const joined: number[] = [];
  const alone: number[] = [];
  for (let p = 0; p + 1 < cuts.length; p++) {
    const part = range(test, cuts[p]!, cuts[p + 1]!);
    joined.push(...explain(model, part, { batchRows: n }).values);
    alone.push(...explain(model, part).values);
  }
  assert.equal(joined.length, whole.values.length);
  for (let i = 0; i < joined.length; i++) assert.ok(Object.is(joined[i], whole.values[i]), `[${i}]: in parts ${joined[i]} whole ${whole.values[i]}`);
  let differ = 0;
  for (let i = 0; i < alone.length; i++) if (!Object.is(alone[i], whole.values[i])) differ++;
  return differ;
}

test('explained in parts planned for the whole batch = explained whole, bit for bit (GBDT, credit_data)', () => {
  const credit = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 30 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 });
  const differ = assertPartsEqualWhole(model, credit.test, 200);
  // Planned on their own, the small parts evaluate other leaves another way (to rounding): the plan matters.
  assert.ok(differ > 0, 'parts planned on their own give the same bits: this test would not see a wrong plan');
});

test('explained in parts planned for the whole batch = explained whole, bit for bit (forest, vehicle)', () => {
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const model = new RandomForestLearner({ nTrees: 8 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 });
  const differ = assertPartsEqualWhole(model, vehicle.test, 200);
  assert.ok(differ > 0, 'parts planned on their own give the same bits: this test would not see a wrong plan');
});
