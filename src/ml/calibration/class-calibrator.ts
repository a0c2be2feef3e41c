/**
 * Maps class scores to probabilities of the data's class mix, fitted on out-of-fold scores.
 * Training with class weights (the contest's `balance` option) learns a balanced prior, and forest
 * leaves vote mostly 0 or 1, so raw scores
 * say how a row ranks, not how often it is right. Three maps, each fitted by maximum likelihood
 * to Platt's smoothed targets (smoothedTargets; isotonic: by least squares, the
 * pool-adjacent-violators fit), and the one with the lowest cross-validated log loss is used
 * ('none' competes too):
 * - temperature: softmax(a·log p + b), one slope and a bias per class (the bias moves the balanced
 *   prior back to the data's; for two classes this is Platt scaling on the score's logit);
 * - platt: per class σ(a_c·logit p_c + b_c), one-vs-rest, renormalised;
 * - isotonic: per class a monotone step map of p_c, one-vs-rest, renormalised; only from
 *   ISOTONIC_MIN_ROWS rows on (below that it overfits: Niculescu-Mizil & Caruana 2005).
 * The choice follows the one-standard-error rule over the methods in order of complexity (none,
 * temperature, platt, isotonic): the simplest whose cross-validated log loss is within one paired
 * standard error of the best. On a small set a lucky fold does not buy a flexible map.
 */
import { minimizeLbfgs } from '../core/lbfgs.js';
import { stratifiedFolds } from '../tabular/contest/folds.js';

export type CalibrationMethod = 'none' | 'temperature' | 'platt' | 'isotonic';
export const CALIBRATION_METHODS: CalibrationMethod[] = ['none', 'temperature', 'platt', 'isotonic'];

/**
 * `floor`: the smallest probability a map gives any class, half a row's weight among the rows it was
 * fitted on. A map fitted on a few hundred rows cannot know that an outcome is rarer than that, and
 * a sharpening map applied to a raw score near 0 would otherwise rule out outcomes that happen
 * (one such row cost wine's test fold ten times its log loss).
 */
export type ClassCalibrator =
  | { method: 'none' }
  | { method: 'temperature'; slope: number; bias: number[]; floor: number }
  | { method: 'platt'; slope: number[]; bias: number[]; floor: number }
  | { method: 'isotonic'; steps: { x: number[]; y: number[] }[]; floor: number };

export interface CalibrationChoice {
  calibrator: ClassCalibrator;
  /** Cross-validated log loss of each method on the out-of-fold scores. */
  cvLogLoss: Record<CalibrationMethod, number>;
}

/** Scores are clipped here before logs: forests give 0 and 1. */
const SCORE_EPS = 1e-5;
const CV_FOLDS = 5;
export const ISOTONIC_MIN_ROWS = 1000;

const logit = (p: number) => {
  const q = Math.min(1 - SCORE_EPS, Math.max(SCORE_EPS, p));
  return Math.log(q / (1 - q));
};

/** Picks a map by cross-validated log loss (one-standard-error rule) and fits it on all the rows. */
export function chooseCalibrator(proba: Float64Array, y: Int32Array, k: number, seed: number, methods = CALIBRATION_METHODS): CalibrationChoice {
  const n = y.length;
  const usable = methods.filter((m) => m !== 'isotonic' || n >= ISOTONIC_MIN_ROWS);
  const folds = Math.min(CV_FOLDS, n);
  const foldOf = stratifiedFolds(y, k, folds, seed);
  const cvLogLoss = {} as Record<CalibrationMethod, number>;
  const rowLoss = new Map<CalibrationMethod, Float64Array>();
  for (const method of usable) {
    const losses = new Float64Array(n);
    for (let f = 0; f < folds; f++) {
      const train: number[] = [];
      const test: number[] = [];
      for (let i = 0; i < n; i++) (foldOf[i] === f ? test : train).push(i);
      if (test.length === 0) continue;
      const cal = fitCalibrator(method, rowsOf(proba, train, k), Int32Array.from(train, (i) => y[i]), k);
      const out = applyCalibrator(cal, rowsOf(proba, test, k), k);
      test.forEach((r, j) => (losses[r] = -Math.log(Math.min(1, Math.max(1e-15, out[j * k + y[r]])))));
    }
    rowLoss.set(method, losses);
    cvLogLoss[method] = losses.reduce((a, v) => a + v, 0) / n;
  }
  let best: CalibrationMethod = usable[0];
  for (const m of usable) if (cvLogLoss[m] < cvLogLoss[best]) best = m;
  const chosen = usable.find((m) => {
    const d = rowLoss.get(m)!.map((v, i) => v - rowLoss.get(best)![i]);
    const mean = d.reduce((a, v) => a + v, 0) / n;
    const sd = Math.sqrt(d.reduce((a, v) => a + (v - mean) * (v - mean), 0) / Math.max(1, n - 1));
    return mean <= sd / Math.sqrt(n);
  })!;
  return { calibrator: fitCalibrator(chosen, proba, y, k), cvLogLoss };
}

export function fitCalibrator(method: CalibrationMethod, proba: Float64Array, y: Int32Array, k: number): ClassCalibrator {
  const floor = 0.5 / (y.length + 1);
  switch (method) {
    case 'none':
      return { method };
    case 'temperature':
      return { ...fitTemperature(proba, y, k), floor };
    case 'platt': {
      const slope: number[] = [];
      const bias: number[] = [];
      for (let c = 0; c < (k === 2 ? 1 : k); c++) {
        const cls = k === 2 ? 1 : c;
        const [a, b] = fitSigmoid(column(proba, k, cls, logit), y, cls);
        slope.push(a);
        bias.push(b);
      }
      return { method, slope, bias, floor };
    }
    case 'isotonic': {
      const steps: { x: number[]; y: number[] }[] = [];
      for (let c = 0; c < (k === 2 ? 1 : k); c++) {
        const cls = k === 2 ? 1 : c;
        steps.push(fitIsotonic(column(proba, k, cls), y, cls));
      }
      return { method, steps, floor };
    }
  }
}

/** Calibrated probabilities (row-major n×k) for raw class scores. */
export function applyCalibrator(cal: ClassCalibrator, proba: Float64Array, k: number): Float64Array {
  if (cal.method === 'none') return Float64Array.from(proba);
  return withFloor(mapScores(cal, proba, k), k, cal.floor);
}

/** Every probability at least `floor` (a mixture with the uniform distribution, so rows still sum to 1). */
function withFloor(p: Float64Array, k: number, floor: number): Float64Array {
  const w = Math.min(1, floor * k);
  for (let j = 0; j < p.length; j++) p[j] = (1 - w) * p[j] + w / k;
  return p;
}

function mapScores(cal: Exclude<ClassCalibrator, { method: 'none' }>, proba: Float64Array, k: number): Float64Array {
  const n = proba.length / k;
  const out = new Float64Array(n * k);
  if (cal.method === 'temperature') {
    const z = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) z[c] = cal.slope * Math.log(Math.max(SCORE_EPS, proba[i * k + c])) + cal.bias[c];
      softmaxInto(z, out, i * k);
    }
    return out;
  }
  const one = (c: number, p: number) =>
    cal.method === 'platt' ? sigmoid(cal.slope[c] * logit(p) + cal.bias[c]) : interpolate(cal.steps[c], p);
  for (let i = 0; i < n; i++) {
    if (k === 2) {
      const p1 = one(0, proba[i * 2 + 1]);
      out[i * 2] = 1 - p1;
      out[i * 2 + 1] = p1;
      continue;
    }
    let sum = 0;
    for (let c = 0; c < k; c++) sum += out[i * k + c] = one(c, proba[i * k + c]);
    for (let c = 0; c < k; c++) out[i * k + c] = sum > 0 ? out[i * k + c] / sum : 1 / k;
  }
  return out;
}

/**
 * Platt's (1999) targets, for k classes: a row of class c counts as (N_c + 1)/(N_c + k) of its own
 * class and 1/(N_c + k) of each other, N_c the rows of class c — the rule of succession, what N_c
 * rows can tell of the chance of class c. With 0/1 targets, scores that separate the calibration
 * rows (wine: every out-of-fold row right in some folds) drive the slope without bound (a
 * temperature slope of 35–46 was fitted), and the one held-out row the champion gets wrong is then
 * given the floor probability.
 */
function smoothedTargets(y: Int32Array, k: number): { own: Float64Array; other: Float64Array } {
  const counts = new Float64Array(k);
  for (const c of y) counts[c]++;
  return { own: counts.map((nc) => (nc + 1) / (nc + k)), other: counts.map((nc) => 1 / (nc + k)) };
}

function fitTemperature(proba: Float64Array, y: Int32Array, k: number): { method: 'temperature'; slope: number; bias: number[] } {
  const n = y.length;
  const logs = proba.map((p) => Math.log(Math.max(SCORE_EPS, p)));
  const { own, other } = smoothedTargets(y, k);
  const z = new Float64Array(k);
  const q = new Float64Array(k);
  // x = [slope, bias_0..bias_{k-1}]; a tiny ridge on the biases fixes their common shift.
  const f = (x: Float64Array, grad: Float64Array) => {
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) z[c] = x[0] * logs[i * k + c] + x[1 + c];
      softmaxInto(z, q, 0);
      for (let c = 0; c < k; c++) {
        const t = c === y[i] ? own[y[i]] : other[y[i]];
        loss -= t * Math.log(Math.max(1e-300, q[c]));
        const d = q[c] - t;
        grad[0] += d * logs[i * k + c];
        grad[1 + c] += d;
      }
    }
    for (let j = 0; j < x.length; j++) grad[j] /= n;
    loss /= n;
    for (let c = 0; c < k; c++) {
      loss += 1e-6 * x[1 + c] * x[1 + c];
      grad[1 + c] += 2e-6 * x[1 + c];
    }
    return loss;
  };
  const x0 = new Float64Array(k + 1);
  x0[0] = 1;
  const { x } = minimizeLbfgs(f, x0, { maxIterations: 200, gradientTolerance: 1e-7, relativeTolerance: 1e-10 });
  return { method: 'temperature', slope: x[0], bias: Array.from(x.subarray(1)) };
}

/** Logistic regression of [y = cls] on one input: [slope, intercept]. */
function fitSigmoid(input: Float64Array, y: Int32Array, cls: number): [number, number] {
  const n = y.length;
  // Platt's targets (smoothedTargets with k = 2): (N+ + 1)/(N+ + 2) and 1/(N− + 2).
  const positives = y.reduce((a, v) => a + (v === cls ? 1 : 0), 0);
  const hit = (positives + 1) / (positives + 2);
  const miss = 1 / (n - positives + 2);
  const f = (x: Float64Array, grad: Float64Array) => {
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      const p = sigmoid(x[0] * input[i] + x[1]);
      const t = y[i] === cls ? hit : miss;
      loss -= t * Math.log(Math.max(1e-300, p)) + (1 - t) * Math.log(Math.max(1e-300, 1 - p));
      grad[0] += (p - t) * input[i];
      grad[1] += p - t;
    }
    grad[0] /= n;
    grad[1] /= n;
    return loss / n;
  };
  const { x } = minimizeLbfgs(f, Float64Array.of(1, 0), { maxIterations: 100, gradientTolerance: 1e-7, relativeTolerance: 1e-10 });
  return [x[0], x[1]];
}

/**
 * Pool-adjacent-violators fit of [y = cls] on the score, as knots for linear interpolation
 * (scikit-learn's IsotonicRegression). Values are kept off 0 and 1 by half a row's weight, so a
 * probability never rules an outcome out.
 */
function fitIsotonic(score: Float64Array, y: Int32Array, cls: number): { x: number[]; y: number[] } {
  const n = y.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => score[a] - score[b]);
  const value: number[] = [];
  const weight: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  for (const i of order) {
    value.push(y[i] === cls ? 1 : 0);
    weight.push(1);
    lo.push(score[i]);
    hi.push(score[i]);
    while (value.length > 1 && value[value.length - 2] >= value[value.length - 1]) {
      const w = weight.pop()!;
      const v = value.pop()!;
      const h = hi.pop()!;
      lo.pop();
      const j = value.length - 1;
      value[j] = (value[j] * weight[j] + v * w) / (weight[j] + w);
      weight[j] += w;
      hi[j] = h;
    }
  }
  const floor = 0.5 / (n + 1);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let b = 0; b < value.length; b++) {
    const v = Math.min(1 - floor, Math.max(floor, value[b]));
    xs.push(lo[b]);
    ys.push(v);
    if (hi[b] > lo[b]) {
      xs.push(hi[b]);
      ys.push(v);
    }
  }
  return { x: xs, y: ys };
}

function interpolate(steps: { x: number[]; y: number[] }, p: number): number {
  const { x, y } = steps;
  if (p <= x[0]) return y[0];
  if (p >= x[x.length - 1]) return y[y.length - 1];
  let a = 0;
  let b = x.length - 1;
  while (b - a > 1) {
    const m = (a + b) >> 1;
    if (x[m] <= p) a = m;
    else b = m;
  }
  const t = x[b] > x[a] ? (p - x[a]) / (x[b] - x[a]) : 0;
  return y[a] + t * (y[b] - y[a]);
}

function sigmoid(t: number): number {
  return t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t));
}

function softmaxInto(z: Float64Array, out: Float64Array, offset: number): void {
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  let sum = 0;
  for (let c = 0; c < z.length; c++) sum += out[offset + c] = Math.exp(z[c] - max);
  for (let c = 0; c < z.length; c++) out[offset + c] /= sum;
}

function column(proba: Float64Array, k: number, c: number, map: (p: number) => number = (p) => p): Float64Array {
  const n = proba.length / k;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = map(proba[i * k + c]);
  return out;
}

function rowsOf(proba: Float64Array, rows: number[], k: number): Float64Array {
  const out = new Float64Array(rows.length * k);
  rows.forEach((r, i) => out.set(proba.subarray(r * k, (r + 1) * k), i * k));
  return out;
}
