/**
 * The model a small session keeps: after the test rows have scored the fit on the training rows, the
 * champion is trained again on all rows (model-compute.ts keptFit). The session's results still
 * describe the tested fit, and the model kept has learned the test rows too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { creditSessionInput } from '../support/credit-session-input.js';
import { compute, type ModelComputeOutput } from '../../src/jobs/compute/model-compute.js';
import { Predictor } from '../../src/service/models/predictor.js';

const ROWS = 1000;

const creditInput = (refitOnAllRowsMaxCells?: number) => creditSessionInput(ROWS, { seed: 7, ...(refitOnAllRowsMaxCells === undefined ? {} : { refitOnAllRowsMaxCells }) });

type Completed = Exclude<ModelComputeOutput, { failure: string }>;

function completed(out: ModelComputeOutput): Completed {
  if ('failure' in out) assert.fail(out.failure);
  return out;
}

/** The held-back rows (result rows, with `Status:actual`) and the class scores the session reported for them. */
function testRows(out: Completed): { rows: Record<string, string>[]; scores: number[][] } {
  const part = (name: string) => out.results.parts.find((p) => p.name === name)!.pages.flatMap((page) => JSON.parse(page) as unknown[]);
  return { rows: part('data') as Record<string, string>[], scores: part('classScores') as number[][] };
}

/** Mean −ln p(actual class) of a model's class scores for the held-back rows. */
function logLossOn(out: Completed, rows: Record<string, string>[]): number {
  const predictor = new Predictor(out.artifact);
  const records = rows.map(({ Status: _, 'Status:actual': _actual, ...features }) => features);
  const predicted = predictor.predict(records, { includeClassScores: true }).data;
  return predicted.reduce((sum, p, i) => sum - Math.log(Math.max(1e-15, Number(p[`Status:${rows[i]!['Status:actual']}`]))), 0) / rows.length;
}

const stable = (out: Completed) => JSON.stringify({ metrics: out.results.metrics, data: out.results.parts.filter((p) => p.name === 'data' || p.name === 'classScores') });

test('a small session keeps a model refitted on all rows; its results describe the fit the test rows scored', async () => {
  const kept = completed(await compute(creditInput()));
  const tested = completed(await compute(creditInput(0)));
  // Metrics, result rows and their class scores: the same held-back test of the same fit.
  assert.equal(stable(kept), stable(tested));
  const refitMessage = (out: Completed) => out.messages.some((m) => /trained again on all 1000 rows/.test(m.message));
  assert.ok(refitMessage(kept), JSON.stringify(kept.messages));
  assert.ok(!refitMessage(tested));
  // The results say it in fields, too: what trained and tested the fit the metrics describe, and what trained the model kept.
  const rowsOf = (out: Completed) => {
    const { trainingRows, testRows, modelTrainingRows } = JSON.parse(out.results.extra).resultFields as Record<string, number>;
    return { trainingRows, testRows, modelTrainingRows };
  };
  // The test metrics' intervals describe the tested fit, so keeping the refit changes none of them.
  const intervalsOf = (out: Completed) => JSON.parse(out.results.extra).resultFields.metricIntervals;
  assert.deepEqual(intervalsOf(kept), intervalsOf(tested));
  const testCount = rowsOf(kept).testRows!;
  assert.ok(testCount >= 150, `${testCount} test rows`);
  assert.deepEqual(rowsOf(kept), { trainingRows: 1000 - testCount, testRows: testCount, modelTrainingRows: 1000 });
  assert.deepEqual(rowsOf(tested), { trainingRows: 1000 - testCount, testRows: testCount, modelTrainingRows: 1000 - testCount });
  assert.equal(kept.algorithm.key, tested.algorithm.key);

  const { rows, scores } = testRows(tested);
  assert.ok(rows.length >= 150, `${rows.length} held-back rows`);
  // Without the refit, the model kept is the fit that was tested: it predicts what the results say.
  const predictor = new Predictor(tested.artifact);
  const first = predictor.predict([Object.fromEntries(Object.entries(rows[0]!).filter(([k]) => !k.startsWith('Status')))], { includeClassScores: true }).data[0]!;
  const classes = tested.artifact.classes!;
  classes.forEach((c, j) => assert.ok(Math.abs(Number(first[`Status:${c}`]) - scores[0]![j]!) < 1e-12, `${c}: ${first[`Status:${c}`]} vs ${scores[0]![j]}`));
  // With it, the model has learned the held-back rows as well: it fits them better than the tested fit does.
  const keptLoss = logLossOn(kept, rows);
  const testedLoss = logLossOn(tested, rows);
  assert.ok(keptLoss < testedLoss - 0.01, `log loss on the held-back rows: kept ${keptLoss}, tested ${testedLoss}`);
});
