/**
 * How far class scores are from probabilities: the Brier score, the expected calibration error and
 * the reliability table behind it. Scores are row-major n×k probabilities, truths class indices.
 */
import { SeededRandom } from '../core/random.js';
import { argMaxRows } from './classification.js';

/**
 * Brier score. Binary tasks use scikit-learn's `brier_score_loss` convention (squared error of the
 * positive class's probability, class 1); more classes use Brier's original sum over the classes.
 */
export function brierScore(yTrue: ArrayLike<number>, proba: Float64Array, k: number): number {
  const n = yTrue.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (k === 2) {
      const d = proba[i * 2 + 1] - (yTrue[i] === 1 ? 1 : 0);
      sum += d * d;
      continue;
    }
    for (let c = 0; c < k; c++) {
      const d = proba[i * k + c] - (yTrue[i] === c ? 1 : 0);
      sum += d * d;
    }
  }
  return n > 0 ? sum / n : NaN;
}

export interface ReliabilityBin {
  /** Bin bounds of the top-label confidence. */
  from: number;
  to: number;
  count: number;
  /** Mean confidence (the highest class score) of the bin's rows. */
  meanConfidence: number;
  /** Share of the bin's rows whose top-scored class is the true one. */
  accuracy: number;
}

export const RELIABILITY_BINS = 10;

/** The equal-width bin of a top-label confidence (1 falls in the last). */
function confidenceBin(p: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
}

/** Top-label reliability: rows binned by their highest class score into equal-width bins (empty bins kept). */
export function reliabilityTable(yTrue: ArrayLike<number>, proba: Float64Array, k: number, bins = RELIABILITY_BINS): ReliabilityBin[] {
  const count = new Float64Array(bins);
  const confidence = new Float64Array(bins);
  const correct = new Float64Array(bins);
  for (let i = 0; i < yTrue.length; i++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (proba[i * k + c] > proba[i * k + best]) best = c;
    const p = proba[i * k + best];
    const b = confidenceBin(p, bins);
    count[b]++;
    confidence[b] += p;
    if (best === yTrue[i]) correct[b]++;
  }
  return Array.from({ length: bins }, (_, b) => ({
    from: b / bins,
    to: (b + 1) / bins,
    count: count[b],
    meanConfidence: count[b] ? confidence[b] / count[b] : NaN,
    accuracy: count[b] ? correct[b] / count[b] : NaN,
  }));
}

/**
 * Expected calibration error (Guo et al. 2017): the row-weighted mean gap between top-label
 * confidence and accuracy over 15 equal-width bins.
 */
export function expectedCalibrationError(yTrue: ArrayLike<number>, proba: Float64Array, k: number, bins = 15): number {
  const table = reliabilityTable(yTrue, proba, k, bins);
  let sum = 0;
  for (const b of table) if (b.count) sum += b.count * Math.abs(b.meanConfidence - b.accuracy);
  return yTrue.length ? sum / yTrue.length : NaN;
}

/** The expected calibration error a perfectly calibrated model would show on rows like these. */
export interface CalibratedReference {
  /** Mean and 95th percentile of the ECE over simulated outcomes. */
  mean: number;
  upper95: number;
  /** Share of simulations whose ECE was at least the observed one: small says the scores are off. */
  pValue: number;
  draws: number;
}

const REFERENCE_DRAWS = 200;
const REFERENCE_SALT = 0x510e527f;

/**
 * ECE is biased upwards on few rows: even perfectly calibrated scores leave gaps between confidence
 * and accuracy in every bin by chance (about 0.03–0.05 on 200 rows). This draws the outcomes a
 * calibrated model would see, each row's top class right with its own confidence (Bröcker & Smith
 * 2007, consistency resampling), computes the ECE of each draw on the same 15 bins, and compares the
 * observed ECE with them.
 */
export function calibratedReference(yTrue: ArrayLike<number>, proba: Float64Array, k: number, seed: number, bins = 15): CalibratedReference {
  const n = yTrue.length;
  const observed = expectedCalibrationError(yTrue, proba, k, bins);
  const confidence = new Float64Array(n);
  const bin = new Int32Array(n);
  const binCount = new Float64Array(bins);
  const binConfidence = new Float64Array(bins);
  const top = argMaxRows(proba, k);
  for (let i = 0; i < n; i++) {
    confidence[i] = proba[i * k + top[i]];
    bin[i] = confidenceBin(confidence[i], bins);
    binCount[bin[i]]++;
    binConfidence[bin[i]] += confidence[i];
  }
  const random = new SeededRandom(seed, REFERENCE_SALT);
  const eces: number[] = [];
  const correct = new Float64Array(bins);
  for (let d = 0; d < REFERENCE_DRAWS; d++) {
    correct.fill(0);
    for (let i = 0; i < n; i++) if (random.next() < confidence[i]) correct[bin[i]]++;
    let sum = 0;
    for (let b = 0; b < bins; b++) if (binCount[b]) sum += Math.abs(binConfidence[b] - correct[b]);
    eces.push(n ? sum / n : NaN);
  }
  eces.sort((a, b) => a - b);
  return {
    mean: eces.reduce((a, v) => a + v, 0) / eces.length,
    upper95: eces[Math.ceil(0.95 * eces.length) - 1]!,
    pValue: (eces.filter((e) => e >= observed).length + 1) / (eces.length + 1),
    draws: REFERENCE_DRAWS,
  };
}
