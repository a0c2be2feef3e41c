import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResampledMacroAuc } from '../../../src/ml/metrics/resampled-auc.js';
import { classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { classificationMetricIntervals } from '../../../src/ml/metrics/test-metric-intervals.js';
import { SeededRandom } from '../../../src/ml/core/random.js';

/** Scores on a coarse grid, so that many tie within a class's order. */
function scores(n: number, k: number, random: SeededRandom): { y: Int32Array; proba: Float64Array } {
  const y = Int32Array.from({ length: n }, () => random.int(k));
  const proba = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let c = 0; c < k; c++) total += proba[i * k + c] = Math.round((random.next() + (y[i] === c ? 0.6 : 0)) * 10) / 10 + 0.01;
    for (let c = 0; c < k; c++) proba[i * k + c] /= total;
  }
  return { y, proba };
}

test("a resample's macro AUC counted over the full set's order is the AUC of its rows sorted again", () => {
  const random = new SeededRandom(7);
  for (const k of [3, 5]) {
    const { y, proba } = scores(300, k, random);
    const auc = new ResampledMacroAuc(y, proba, k);
    const all = classificationMetrics(y, proba, k).rocAreaUnderCurve;
    assert.ok(Math.abs(auc.macro(new Float64Array(300).fill(1)) - all) < 1e-12);
    for (let b = 0; b < 20; b++) {
      const rows = Int32Array.from({ length: 150 }, () => random.int(300));
      const weights = new Float64Array(300);
      for (const r of rows) weights[r]++;
      const ys = Int32Array.from(rows, (r) => y[r]!);
      const ps = Float64Array.from({ length: rows.length * k }, (_, j) => proba[rows[Math.floor(j / k)]! * k + (j % k)]!);
      assert.ok(Math.abs(auc.macro(weights) - classificationMetrics(ys, ps, k).rocAreaUnderCurve) < 1e-12, `k ${k}, resample ${b}`);
    }
  }
});

test('a multiclass test set gets an interval around its macro AUC', () => {
  const { y, proba } = scores(400, 4, new SeededRandom(3));
  const decisions = Int32Array.from(y, (_, i) => {
    let best = 0;
    for (let c = 1; c < 4; c++) if (proba[i * 4 + c]! > proba[i * 4 + best]!) best = c;
    return best;
  });
  const auc = classificationMetrics(y, proba, 4).rocAreaUnderCurve;
  const interval = classificationMetricIntervals(y, proba, decisions, 4, 1).metrics.rocAreaUnderCurve;
  assert.ok(interval, 'an interval for rocAreaUnderCurve');
  assert.ok(interval.lower < auc && auc < interval.upper, `${auc} inside ${interval.lower}–${interval.upper}`);
  // 400 rows: the AUC's standard error is a few hundredths, the 95 % interval some ±0.03–0.06 wide.
  assert.ok(interval.upper - interval.lower > 0.02 && interval.upper - interval.lower < 0.2, `width ${interval.upper - interval.lower}`);
});

test("each row's share of the AUC's shortfall: the terms add up to twice the classes' shortfalls, and sit on the misranked rows", () => {
  const { y, proba } = scores(200, 3, new SeededRandom(11));
  const terms = new ResampledMacroAuc(y, proba, 3).shortfallTerms();
  let shortfalls = 0;
  for (let c = 0; c < 3; c++) {
    const labels = Int32Array.from(y, (v) => (v === c ? 1 : 0));
    const p = Float64Array.from({ length: 400 }, (_, j) => (j % 2 === 1 ? proba[Math.floor(j / 2) * 3 + c]! : 1 - proba[Math.floor(j / 2) * 3 + c]!));
    shortfalls += 1 - classificationMetrics(labels, p, 2, { positiveClass: 1 }).rocAreaUnderCurve;
  }
  assert.ok(Math.abs(terms.reduce((a, b) => a + b, 0) - 2 * shortfalls) < 1e-12);
  // Two classes ranked perfectly but for one pair: the shortfall is that pair's, at its two rows.
  const two = new ResampledMacroAuc(Int32Array.from([0, 0, 1, 0, 1, 1]), Float64Array.from([0.9, 0.1, 0.8, 0.2, 0.6, 0.4, 0.4, 0.6, 0.2, 0.8, 0.1, 0.9]), 2).shortfallTerms();
  assert.deepEqual(Array.from(two, (t) => t > 0), [false, false, true, true, false, false]);
});

test('an AUC whose shortfall rests on a few rows gets no interval (it is listed as heavy-tailed), one spread over many rows gets one', () => {
  const n = 200;
  const y = Int32Array.from({ length: n }, (_, i) => i % 2);
  // Ranked perfectly but for one positive scored below every negative.
  const proba = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const p1 = i === 1 ? 0.01 : y[i] === 1 ? 0.6 + 0.3 * (i / n) : 0.1 + 0.3 * (i / n);
    proba[2 * i] = 1 - p1;
    proba[2 * i + 1] = p1;
  }
  const decisions = Int32Array.from({ length: n }, (_, i) => (proba[2 * i + 1]! > 0.5 ? 1 : 0));
  const few = classificationMetricIntervals(y, proba, decisions, 2, 1);
  assert.equal(few.metrics.rocAreaUnderCurve, undefined);
  assert.ok(few.heavyTailed?.rocAreaUnderCurve! > 0.3, JSON.stringify(few.heavyTailed));
  const { y: yMany, proba: many } = scores(n, 2, new SeededRandom(5));
  const spread = classificationMetricIntervals(yMany, many, argMax(many, 2), 2, 1);
  assert.ok(spread.metrics.rocAreaUnderCurve, JSON.stringify(spread.heavyTailed));
});

function argMax(proba: Float64Array, k: number): Int32Array {
  return Int32Array.from({ length: proba.length / k }, (_, i) => {
    let best = 0;
    for (let c = 1; c < k; c++) if (proba[i * k + c]! > proba[i * k + best]!) best = c;
    return best;
  });
}
