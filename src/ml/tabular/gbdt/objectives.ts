/**
 * Losses: gradients/hessians of the raw scores, the prior that boosting starts from, and the loss used
 * for early stopping. Scores are class-major: class k of row r at k*nRows + r; gradients and hessians
 * are written as pairs, class k of row r's gradient at pairs[2(k*nRows + r)] and its hessian next to it.
 */
import { median } from '../../core/statistics.js';

export type ObjectiveName = 'binary' | 'multiclass' | 'l2' | 'huber';

export interface Objective {
  readonly name: ObjectiveName;
  /** Trees per boosting round (= raw scores per row). */
  readonly numScores: number;
  /** Starting raw score per class. */
  initScores(y: Float64Array, w: Float64Array | null): Float64Array;
  /**
   * Gradient and hessian pairs of rows begin .. end − 1 (default all; y.length rows in all). Each row's
   * values depend on that row alone, so row ranges may be computed on different threads.
   */
  gradients(scores: Float64Array, y: Float64Array, w: Float64Array | null, pairs: Float64Array, begin?: number, end?: number): void;
  /** Weighted mean loss. */
  loss(scores: Float64Array, y: Float64Array, w: Float64Array | null): number;
}

const EPS = 1e-15;

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function weightSum(w: Float64Array | null, n: number): number {
  if (!w) return n;
  let s = 0;
  for (let i = 0; i < n; i++) s += w[i];
  return s;
}

function weightedMean(y: Float64Array, w: Float64Array | null): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += (w ? w[i] : 1) * y[i];
  return s / weightSum(w, y.length);
}

export class BinaryLogloss implements Objective {
  readonly name = 'binary';
  readonly numScores = 1;

  initScores(y: Float64Array, w: Float64Array | null): Float64Array {
    const p = Math.min(1 - EPS, Math.max(EPS, weightedMean(y, w)));
    return Float64Array.of(Math.log(p / (1 - p)));
  }

  gradients(scores: Float64Array, y: Float64Array, w: Float64Array | null, pairs: Float64Array, begin = 0, end = y.length): void {
    for (let i = begin; i < end; i++) {
      const p = sigmoid(scores[i]);
      const wi = w ? w[i] : 1;
      pairs[2 * i] = (p - y[i]) * wi;
      pairs[2 * i + 1] = Math.max(p * (1 - p), EPS) * wi;
    }
  }

  loss(scores: Float64Array, y: Float64Array, w: Float64Array | null): number {
    let s = 0;
    for (let i = 0; i < y.length; i++) {
      const p = sigmoid(scores[i]);
      s -= (w ? w[i] : 1) * Math.log(Math.max(EPS, y[i] === 1 ? p : 1 - p));
    }
    return s / weightSum(w, y.length);
  }
}

export class MulticlassSoftmax implements Objective {
  readonly name = 'multiclass';

  constructor(readonly numScores: number) {}

  initScores(y: Float64Array, w: Float64Array | null): Float64Array {
    const k = this.numScores;
    const counts = new Float64Array(k);
    for (let i = 0; i < y.length; i++) counts[y[i]] += w ? w[i] : 1;
    const total = weightSum(w, y.length);
    return counts.map((c) => Math.log(Math.max(EPS, c / total)));
  }

  /** LightGBM scales the hessian by k/(k−1) so that a k-class step matches the binary one. */
  gradients(scores: Float64Array, y: Float64Array, w: Float64Array | null, pairs: Float64Array, begin = 0, end = y.length): void {
    const n = y.length;
    const k = this.numScores;
    const factor = k / (k - 1);
    // The exponentials go where the gradients will (every other slot of pairs).
    const sum = this.softmaxInto(scores, n, pairs, 2, begin, end);
    // One division per row, then products (the class loop runs over every row k times).
    for (let i = 0; i < sum.length; i++) sum[i] = 1 / sum[i];
    for (let c = 0; c < k; c++) {
      for (let i = begin, o = 2 * (c * n + begin); i < end; i++, o += 2) {
        const p = pairs[o] * sum[i - begin];
        const wi = w ? w[i] : 1;
        pairs[o] = (p - (y[i] === c ? 1 : 0)) * wi;
        pairs[o + 1] = Math.max(factor * p * (1 - p), EPS) * wi;
      }
    }
  }

  loss(scores: Float64Array, y: Float64Array, w: Float64Array | null): number {
    const n = y.length;
    const e = new Float64Array(scores.length);
    const sum = this.softmaxInto(scores, n, e, 1);
    let s = 0;
    for (let i = 0; i < n; i++) s -= (w ? w[i] : 1) * Math.log(Math.max(EPS, e[y[i] * n + i] / sum[i]));
    return s / weightSum(w, n);
  }

  /**
   * out[stride·o] = exp(score[o] − row max) for rows begin .. end − 1 (o class-major, as in the scores);
   * returns each row's sum (so that p = out / sum), indexed from begin. Loops run class by class so that
   * every array is read sequentially.
   */
  private softmaxInto(scores: Float64Array, n: number, out: Float64Array, stride: number, begin = 0, end = n): Float64Array {
    const max = new Float64Array(end - begin).fill(-Infinity);
    for (let c = 0; c < this.numScores; c++)
      for (let i = 0, o = c * n + begin; i < end - begin; i++, o++) if (scores[o] > max[i]) max[i] = scores[o];
    const sum = new Float64Array(end - begin);
    for (let c = 0; c < this.numScores; c++)
      for (let i = 0, o = c * n + begin; i < end - begin; i++, o++) sum[i] += out[stride * o] = Math.exp(scores[o] - max[i]);
    return sum;
  }
}

export class L2Regression implements Objective {
  readonly name = 'l2';
  readonly numScores = 1;

  initScores(y: Float64Array, w: Float64Array | null): Float64Array {
    return Float64Array.of(weightedMean(y, w));
  }

  gradients(scores: Float64Array, y: Float64Array, w: Float64Array | null, pairs: Float64Array, begin = 0, end = y.length): void {
    for (let i = begin; i < end; i++) {
      const wi = w ? w[i] : 1;
      pairs[2 * i] = (scores[i] - y[i]) * wi;
      pairs[2 * i + 1] = wi;
    }
  }

  loss(scores: Float64Array, y: Float64Array, w: Float64Array | null): number {
    let s = 0;
    for (let i = 0; i < y.length; i++) s += (w ? w[i] : 1) * (scores[i] - y[i]) ** 2;
    return s / weightSum(w, y.length);
  }
}

/** Huber loss: squared near the fit, absolute beyond delta, so outliers pull with bounded force. */
export class HuberRegression implements Objective {
  readonly name = 'huber';
  readonly numScores = 1;
  delta: number;

  constructor(delta?: number) {
    this.delta = delta ?? NaN;
  }

  /** Starts at the median; an unset delta becomes 1.345 × the target's robust scale (MAD). */
  initScores(y: Float64Array): Float64Array {
    const med = median(y);
    if (Number.isNaN(this.delta)) {
      const mad = 1.4826 * median(y.map((v) => Math.abs(v - med)));
      this.delta = 1.345 * (mad > 0 ? mad : stdDev(y) || 1);
    }
    return Float64Array.of(med);
  }

  gradients(scores: Float64Array, y: Float64Array, w: Float64Array | null, pairs: Float64Array, begin = 0, end = y.length): void {
    const d = this.delta;
    for (let i = begin; i < end; i++) {
      const wi = w ? w[i] : 1;
      const r = scores[i] - y[i];
      pairs[2 * i] = (r > d ? d : r < -d ? -d : r) * wi;
      pairs[2 * i + 1] = wi;
    }
  }

  loss(scores: Float64Array, y: Float64Array, w: Float64Array | null): number {
    const d = this.delta;
    let s = 0;
    for (let i = 0; i < y.length; i++) {
      const a = Math.abs(scores[i] - y[i]);
      s += (w ? w[i] : 1) * (a <= d ? 0.5 * a * a : d * (a - 0.5 * d));
    }
    return s / weightSum(w, y.length);
  }
}

function stdDev(v: Float64Array): number {
  let mean = 0;
  for (const x of v) mean += x / v.length;
  let ss = 0;
  for (const x of v) ss += (x - mean) ** 2;
  return Math.sqrt(ss / v.length);
}

/** What a helper thread needs to rebuild a fit's objective (after initScores, which may set Huber's delta). */
export interface ObjectiveState {
  name: ObjectiveName;
  numScores: number;
  huberDelta: number;
}

export function objectiveState(o: Objective): ObjectiveState {
  return { name: o.name, numScores: o.numScores, huberDelta: o instanceof HuberRegression ? o.delta : NaN };
}

export function objectiveFromState(s: ObjectiveState): Objective {
  switch (s.name) {
    case 'binary':
      return new BinaryLogloss();
    case 'multiclass':
      return new MulticlassSoftmax(s.numScores);
    case 'l2':
      return new L2Regression();
    case 'huber':
      return new HuberRegression(s.huberDelta);
  }
}
