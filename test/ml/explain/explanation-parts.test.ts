/**
 * A batch explained in parts (as the scoring threads do), each part planned for the whole batch
 * (ExplainOptions.batchRows), gives every row the same numbers, bit for bit, as the batch explained at
 * once — on real fixture data, with batch and part sizes for which TreeSHAP tabulates different leaves
 * (so the plan, not the part, must decide): GBDT with categorical splits and missing values
 * (credit_data), a four-class forest (vehicle, one class by difference). And a tree ensemble explained
 * by tree parts (as the scoring threads share them), however the parts are grouped, adds up to the
 * same bits as the explanation in-thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Frame } from '../../../src/ml/frame.js';
import type { TrainedModel } from '../../../src/ml/estimator.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { RandomForestLearner } from '../../../src/ml/tabular/forest/index.js';
import { TREE_PARTS, explain, explainTreeParts, sumTreeParts } from '../../../src/ml/explain/explanation.js';
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

/** Tree parts grouped as threads would take them (one group per thread) = the in-thread explanation, bit for bit. */
function assertTreePartsEqualWhole(model: TrainedModel, frame: Frame): void {
  assert.equal(TREE_PARTS, 4);
  const whole = explain(model, frame);
  for (const groups of [[[0, 1, 2, 3]], [[0, 1], [2, 3]], [[0], [1], [2, 3]], [[0], [1], [2], [3]]]) {
    const summed = sumTreeParts(groups.map((parts) => explainTreeParts(model, frame, parts)));
    assert.equal(summed.values.length, whole.values.length);
    for (let i = 0; i < whole.values.length; i++) assert.ok(Object.is(summed.values[i], whole.values[i]), `groups ${JSON.stringify(groups)} [${i}]: ${summed.values[i]} whole ${whole.values[i]}`);
  }
  // Every part explains trees of its own: none alone is the whole, each moves some contribution.
  for (let p = 0; p < TREE_PARTS; p++) {
    const part = explain(model, frame, { treeParts: [p] });
    assert.ok(part.values.some((v) => v !== 0), `part ${p} has contributions`);
    assert.ok(part.values.some((v, i) => Math.abs(v - whole.values[i]!) > 1e-9), `part ${p} is not the whole`);
  }
}

test('explained by tree parts, however grouped = explained whole, bit for bit (GBDT, credit_data; forest, vehicle)', () => {
  const credit = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const gbdt = new GbdtLearner({ nEstimators: 30 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 });
  assertTreePartsEqualWhole(gbdt, range(credit.test, 0, 120));
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const forest = new RandomForestLearner({ nTrees: 9 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 });
  assertTreePartsEqualWhole(forest, range(vehicle.test, 0, 120));
});
