/**
 * Classification metrics as defined in benchdata/PROTOCOL.md §1, computed from predicted
 * class probabilities (row-major n×k) and true class indices.
 */
import { rocAuc } from './ranking.js';

export { rocAuc, averagePrecision } from './ranking.js';

export interface ClassificationMetrics {
  accuracy: number;
  macroAverageF1Score: number;
  macroAveragePrecision: number;
  macroAverageRecall: number;
  matthewsCorrelationCoefficient: number;
  rocAreaUnderCurve: number;
  logLoss: number;
}

export interface ClassificationMetricOptions {
  /** Binary tasks: class whose probability is the ROC score. Default: the minority class of yTrue (ties: the higher index). */
  positiveClass?: number;
  /** The class decided per row, when the model decides otherwise than by arg-max (balanced decisions); default argMaxRows(proba). */
  decisions?: Int32Array;
  /** False: rocAreaUnderCurve is NaN, not computed (it sorts the rows once per class). */
  rocAuc?: boolean;
}

/** The smallest probability log loss takes, so that a confident miss costs log(1e15), not Infinity. */
export const LOG_LOSS_EPS = 1e-15;

/** Predicted class per row: arg-max of the probabilities (first maximum wins). */
export function argMaxRows(proba: Float64Array, k: number): Int32Array {
  const n = proba.length / k;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (proba[i * k + c] > proba[i * k + best]) best = c;
    out[i] = best;
  }
  return out;
}

/** Counts: rows = actual class, columns = predicted class. */
export function confusionMatrix(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, k: number): number[][] {
  const m = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < yTrue.length; i++) m[yTrue[i]][yPred[i]]++;
  return m;
}

export function classificationMetrics(
  yTrue: Int32Array,
  proba: Float64Array,
  k: number,
  opts: ClassificationMetricOptions = {},
): ClassificationMetrics {
  const n = yTrue.length;
  if (proba.length !== n * k) throw new Error(`proba has ${proba.length} values, expected ${n}×${k}`);
  const yPred = opts.decisions ?? argMaxRows(proba, k);
  const cm = confusionMatrix(yTrue, yPred, k);
  const actual = cm.map((row) => row.reduce((a, b) => a + b, 0));
  const predicted = cm[0]?.map((_, c) => cm.reduce((a, row) => a + row[c], 0)) ?? [];
  let correct = 0;
  let f1Sum = 0;
  let precisionSum = 0;
  let recallSum = 0;
  for (let c = 0; c < k; c++) {
    const tp = cm[c][c];
    correct += tp;
    // A class never predicted (or never present) scores 0 rather than being skipped (PROTOCOL.md §1).
    const precision = predicted[c] > 0 ? tp / predicted[c] : 0;
    const recall = actual[c] > 0 ? tp / actual[c] : 0;
    precisionSum += precision;
    recallSum += recall;
    f1Sum += actual[c] + predicted[c] > 0 ? (2 * tp) / (actual[c] + predicted[c]) : 0;
  }
  return {
    accuracy: n > 0 ? correct / n : NaN,
    macroAverageF1Score: f1Sum / k,
    macroAveragePrecision: precisionSum / k,
    macroAverageRecall: recallSum / k,
    matthewsCorrelationCoefficient: gorodkinRk(correct, n, actual, predicted),
    rocAreaUnderCurve: opts.rocAuc === false ? NaN : rocAucOf(yTrue, proba, k, actual, opts.positiveClass),
    logLoss: logLoss(yTrue, proba, k),
  };
}

/** Gorodkin's R_K: multiclass MCC (equals the binary MCC when k = 2); 0 when undefined. */
function gorodkinRk(correct: number, n: number, actual: number[], predicted: number[]): number {
  let pt = 0;
  let pp = 0;
  let tt = 0;
  for (let c = 0; c < actual.length; c++) {
    pt += predicted[c] * actual[c];
    pp += predicted[c] * predicted[c];
    tt += actual[c] * actual[c];
  }
  const denominator = Math.sqrt((n * n - pp) * (n * n - tt));
  return denominator > 0 ? (correct * n - pt) / denominator : 0;
}

/** Binary: AUC of the positive class's probability. Multiclass: macro mean of one-vs-rest AUCs over classes present. */
function rocAucOf(yTrue: Int32Array, proba: Float64Array, k: number, actual: number[], positiveClass?: number): number {
  const n = yTrue.length;
  const oneVsRest = (c: number): number => {
    const labels = new Uint8Array(n);
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      labels[i] = yTrue[i] === c ? 1 : 0;
      scores[i] = proba[i * k + c];
    }
    return rocAuc(labels, scores);
  };
  if (k === 2) return oneVsRest(positiveClass ?? (actual[0] < actual[1] ? 0 : 1));
  let sum = 0;
  let count = 0;
  for (let c = 0; c < k; c++) {
    const auc = oneVsRest(c);
    if (!Number.isNaN(auc)) {
      sum += auc;
      count++;
    }
  }
  return count > 0 ? sum / count : NaN;
}

export function logLoss(yTrue: Int32Array, proba: Float64Array, k: number): number {
  let sum = 0;
  for (let i = 0; i < yTrue.length; i++) {
    const p = Math.min(1, Math.max(LOG_LOSS_EPS, proba[i * k + yTrue[i]]));
    sum -= Math.log(p);
  }
  return sum / yTrue.length;
}
