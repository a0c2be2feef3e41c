import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aucScoreInterval } from '../../../src/ml/metrics/auc-interval.js';
import { rocAuc } from '../../../src/ml/metrics/ranking.js';
import { SeededRandom } from '../../../src/ml/core/random.js';

/** Φ, for the AUC of two normal score distributions a distance d apart: Φ(d/√2). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - p : p;
}

test('95 % score intervals of an AUC near 1 from 40 + 40 rows hold the true AUC about 95 % of the time', () => {
  const random = new SeededRandom(2006);
  const d = 2.326; // true AUC Φ(2.326/√2) ≈ 0.95
  const truth = normalCdf(d / Math.SQRT2);
  let held = 0;
  const draws = 400;
  for (let r = 0; r < draws; r++) {
    const labels: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < 40; i++) { labels.push(1); scores.push(d + random.normal()); }
    for (let i = 0; i < 40; i++) { labels.push(0); scores.push(random.normal()); }
    const { lower, upper } = aucScoreInterval(rocAuc(labels, scores), [{ positives: 40, negatives: 40 }], 0.95);
    if (lower <= truth && truth <= upper) held++;
  }
  // Binomial s.e. of a 95 % share over 400 draws: 1.1 points.
  assert.ok(held / draws > 0.92 && held / draws < 0.985, `held ${held} of ${draws}`);
});

test('a test set ranked without a single error still gets an interval reaching below 1', () => {
  const { lower, upper } = aucScoreInterval(1, [{ positives: 50, negatives: 50 }], 0.95);
  assert.equal(upper, 1);
  assert.ok(lower > 0.9 && lower < 0.99, `lower ${lower}`);
  // More rows, a narrower interval; a macro mean over classes narrower than one class's.
  assert.ok(aucScoreInterval(1, [{ positives: 500, negatives: 500 }], 0.95).lower > lower);
  const oneClass = aucScoreInterval(0.95, [{ positives: 10, negatives: 90 }], 0.95);
  const fourClasses = aucScoreInterval(0.95, Array.from({ length: 4 }, () => ({ positives: 10, negatives: 90 })), 0.95);
  assert.ok(fourClasses.upper - fourClasses.lower < oneClass.upper - oneClass.lower);
  assert.ok(oneClass.lower < 0.95 && 0.95 < oneClass.upper);
});
