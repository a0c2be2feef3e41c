import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedCalibrationError, hardestClass, histogram, prCurve, reliabilityBins, rocCurve, type Scored } from '../../web/src/lib/curves.js';
import { mulberry32 } from '../support/random.js';

/** A small seeded generator for the test's own samples (mulberry32). */

const rows = (truth: number[], scores: number[]): Scored[] => truth.map((t, i) => ({ positive: t === 1, score: scores[i]! }));

/** AUC as the Mann–Whitney statistic: P(score of a positive > score of a negative), ties counting half. */
function mannWhitney(r: Scored[]): number {
  const pos = r.filter((x) => x.positive);
  const neg = r.filter((x) => !x.positive);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

describe('dashboard curves', () => {
  it("match scikit-learn's documented example (roc_auc_score 0.75, average_precision_score 0.8333)", () => {
    const r = rows([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]);
    assert.ok(Math.abs(rocCurve(r)!.auc - 0.75) < 1e-12);
    assert.ok(Math.abs(prCurve(r)!.averagePrecision - 0.8333333333333333) < 1e-12);
    assert.deepEqual(rocCurve(r)!.points, [[0, 0], [0, 0.5], [0.5, 0.5], [0.5, 1], [1, 1]]);
  });

  it('ROC area equals the Mann–Whitney statistic, ties included', () => {
    const rand = mulberry32(7);
    const r: Scored[] = Array.from({ length: 400 }, () => {
      const positive = rand() < 0.3;
      return { positive, score: Math.round((rand() + (positive ? 0.4 : 0)) * 20) / 20 };
    });
    assert.ok(Math.abs(rocCurve(r)!.auc - mannWhitney(r)) < 1e-12);
  });

  it('has no curve without both classes, and ignores missing scores', () => {
    assert.equal(rocCurve(rows([1, 1], [0.2, 0.9])), undefined);
    assert.equal(prCurve(rows([0, 0], [0.2, 0.9])), undefined);
    assert.ok(Math.abs(rocCurve(rows([0, 1, 1], [0.1, NaN, 0.9]))!.auc - 1) < 1e-12);
  });

  it('bins probabilities for the reliability curve; a calibrated sample has a small calibration error', () => {
    const rand = mulberry32(11);
    const r: Scored[] = Array.from({ length: 20000 }, () => { const p = rand(); return { score: p, positive: rand() < p }; });
    const bins = reliabilityBins(r, 10);
    assert.equal(bins.length, 10);
    for (const b of bins) assert.ok(Math.abs(b.observed - b.meanPredicted) < 0.04, `bin ${b.lower}: ${b.observed} vs ${b.meanPredicted}`);
    assert.ok(expectedCalibrationError(bins) < 0.02);
    const overconfident = r.map((x) => ({ ...x, score: x.score > 0.5 ? 1 : 0 }));
    assert.ok(expectedCalibrationError(reliabilityBins(overconfident, 10)) > 0.2);
  });

  it('counts every finite value in a histogram, the maximum in the last bin', () => {
    const h = histogram([0, 0.5, 1, 1, NaN, 2], 4, [0, 2]);
    assert.deepEqual(h.counts, [1, 1, 2, 1]);
    assert.deepEqual(h.edges, [0, 0.5, 1, 1.5, 2]);
    assert.deepEqual(histogram([3, 3, 3], 2).counts, [0, 3]);
  });
});

test('a precision-recall curve whose top-scored row is a negative draws no vertical line at recall 0', () => {
  const pr = prCurve([{ score: 0.9, positive: false }, { score: 0.8, positive: true }, { score: 0.3, positive: false }, { score: 0.2, positive: true }])!;
  assert.deepEqual(pr.points.filter(([r]) => r === 0), [[0, 1]], 'recall 0 only at the start');
  assert.equal(pr.averagePrecision, 0.5 * 0.5 + 0.5 * 0.5);
});

test('hardestClass picks the class with the lowest one-vs-rest AUC', () => {
  const row = (actual: string, a: number, b: number, c: number) => ({ 'y:actual': actual, 'y:a': String(a), 'y:b': String(b), 'y:c': String(c) });
  // a and c are told apart perfectly; b's rows score below a c row's score for b (AUC 4/6).
  const rows = [row('a', 0.9, 0.05, 0.05), row('b', 0.5, 0.3, 0.2), row('b', 0.3, 0.5, 0.2), row('c', 0, 0.6, 0.4), row('c', 0, 0.2, 0.8)];
  assert.equal(hardestClass(['a', 'b', 'c'], rows, 'y'), 'b');
});
