/**
 * The uncertainty part of the tabular benchmark (issue 9): per test fold, the champion's class
 * scores before and after calibration (log loss, Brier score, ECE, a pooled reliability table), and
 * the conformal intervals' coverage and mean width at each level.
 */
import type { Frame, Task, TrainedModel } from '../../src/ml/frame.js';
import { classificationMetrics } from '../../src/ml/metrics/classification.js';
import { brierScore, expectedCalibrationError, RELIABILITY_BINS } from '../../src/ml/metrics/calibration.js';
import type { ChampionUncertainty } from '../../src/ml/calibration/champion-uncertainty.js';
import { intervalCoverage, meanIntervalScore, meanWidth } from '../../src/ml/conformal/interval-fields.js';

export const BENCH_INTERVAL_LEVELS = [0.8, 0.9, 0.95];

export interface UncertaintyTally {
  /** Sums over folds (divide by `folds`). */
  sums: Record<string, number>;
  /** Sums over the test rows of all folds (pooled): rows covered, rows, width and interval score per level. */
  pooled: Record<string, number>;
  folds: number;
  methods: string[];
  /** Pooled top-label reliability of the calibrated scores: rows, confidence sum, correct count per bin. */
  reliability: { count: number; confidence: number; correct: number }[];
}

export function newTally(): UncertaintyTally {
  return { sums: {}, pooled: {}, folds: 0, methods: [], reliability: Array.from({ length: RELIABILITY_BINS }, () => ({ count: 0, confidence: 0, correct: 0 })) };
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
  const intervals = u.intervals!.intervalsAt(test, predictions, BENCH_INTERVAL_LEVELS);
  for (const [j, level] of BENCH_INTERVAL_LEVELS.entries()) {
    const { lower, upper } = intervals[j];
    add(`coverage${level}`, intervalCoverage(yTest, lower, upper));
    add(`width${level}`, meanWidth(lower, upper));
    const pool = (key: string, v: number) => (t.pooled[`${key}${level}`] = (t.pooled[`${key}${level}`] ?? 0) + v);
    pool('rows', yTest.length);
    pool('covered', intervalCoverage(yTest, lower, upper) * yTest.length);
    pool('width', meanWidth(lower, upper) * yTest.length);
    pool('score', meanIntervalScore(yTest, lower, upper, level) * yTest.length);
  }
}

/**
 * Pooled coverage of the test folds at `level` and its binomial sampling error under the nominal
 * level (2·√(L(1−L)/n)): the band within which an exactly calibrated method lands 95 % of the time.
 */
export function pooledCoverage(t: UncertaintyTally, level: number): { coverage: number; rows: number; band: number; width: number; score: number } {
  const rows = t.pooled[`rows${level}`] ?? 0;
  return {
    coverage: (t.pooled[`covered${level}`] ?? NaN) / rows,
    rows,
    band: 2 * Math.sqrt((level * (1 - level)) / rows),
    width: (t.pooled[`width${level}`] ?? NaN) / rows,
    score: (t.pooled[`score${level}`] ?? NaN) / rows,
  };
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
