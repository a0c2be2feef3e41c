/**
 * The uncertainty part of the tabular benchmark (issue 9): per test fold, the champion's class
 * scores before and after calibration (log loss, Brier score, ECE, a pooled reliability table), and
 * the conformal intervals' coverage and mean width at each level.
 */
import type { Frame, Task, TrainedModel } from '../../src/ml/frame.js';
import { classificationMetrics } from '../../src/ml/metrics/classification.js';
import { brierScore, expectedCalibrationError, RELIABILITY_BINS } from '../../src/ml/metrics/calibration.js';
import type { ChampionUncertainty } from '../../src/ml/calibration/champion-uncertainty.js';
import { intervalCoverage, meanWidth } from '../../src/ml/conformal/interval-fields.js';

export const BENCH_INTERVAL_LEVELS = [0.8, 0.9, 0.95];

export interface UncertaintyTally {
  /** Sums over folds (divide by `folds`). */
  sums: Record<string, number>;
  folds: number;
  methods: string[];
  /** Pooled top-label reliability of the calibrated scores: rows, confidence sum, correct count per bin. */
  reliability: { count: number; confidence: number; correct: number }[];
}

export function newTally(): UncertaintyTally {
  return { sums: {}, folds: 0, methods: [], reliability: Array.from({ length: RELIABILITY_BINS }, () => ({ count: 0, confidence: 0, correct: 0 })) };
}

export function tallyFold(t: UncertaintyTally, task: Task, raw: TrainedModel, u: ChampionUncertainty, test: Frame, yTest: Float64Array): void {
  const add = (key: string, v: number) => (t.sums[key] = (t.sums[key] ?? 0) + v);
  t.folds++;
  if (task.kind === 'classification') {
    const k = task.classes.length;
    const y = Int32Array.from(yTest);
    t.methods.push(u.calibration!.calibrator.method);
    for (const [tag, p] of [['raw', raw.predictScores(test)], ['cal', u.model.predictScores(test)]] as const) {
      add(`${tag}LogLoss`, classificationMetrics(y, p, k).logLoss);
      add(`${tag}Brier`, brierScore(y, p, k));
      add(`${tag}Ece`, expectedCalibrationError(y, p, k));
      if (tag === 'cal') {
        for (let i = 0; i < y.length; i++) {
          let best = 0;
          for (let c = 1; c < k; c++) if (p[i * k + c] > p[i * k + best]) best = c;
          const conf = p[i * k + best];
          const bin = t.reliability[Math.min(RELIABILITY_BINS - 1, Math.floor(conf * RELIABILITY_BINS))];
          bin.count++;
          bin.confidence += conf;
          if (best === y[i]) bin.correct++;
        }
      }
    }
    return;
  }
  t.methods.push(u.intervals!.method);
  const predictions = u.model.predictScores(test);
  for (const level of BENCH_INTERVAL_LEVELS) {
    const { lower, upper } = u.intervals!.intervals(test, predictions, level);
    add(`coverage${level}`, intervalCoverage(yTest, lower, upper));
    add(`width${level}`, meanWidth(lower, upper));
  }
}

export const meanOf = (t: UncertaintyTally, key: string) => (t.sums[key] ?? NaN) / t.folds;

export function reliabilityLines(t: UncertaintyTally): string[] {
  return t.reliability
    .map((b, j) => ({ ...b, j }))
    .filter((b) => b.count > 0)
    .map((b) => `    confidence ${(b.j / RELIABILITY_BINS).toFixed(1)}–${((b.j + 1) / RELIABILITY_BINS).toFixed(1)}: rows ${String(b.count).padStart(5)}  mean score ${(b.confidence / b.count).toFixed(3)}  observed ${(b.correct / b.count).toFixed(3)}`);
}

export function methodCounts(t: UncertaintyTally): string {
  const counts = new Map<string, number>();
  for (const m of t.methods) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([m, n]) => `${m}×${n}`).join(' ');
}
