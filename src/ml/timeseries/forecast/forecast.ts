/**
 * The forecasting engine: runs the candidate methods, scores them by rolling-origin backtest on
 * the end of the series, and forecasts with the winner (a single method or the combination).
 */
import { zeroFloorIfNeverNegative } from '../../core/statistics.js';
import { backtestOrigins, ScoreAccumulator } from './backtest.js';
import { BASE_METHODS, combFamilies, combine, type MethodContext } from './methods.js';
import { centralIntervals, DEFAULT_LEVELS, quantileForecasts } from './quantiles.js';
import { regressionForecast } from './regression.js';
import { isConstant, isFlagColumn } from './stats.js';
import { censorAtZero, VarianceCalibration } from './uncertainty.js';
import { POOLED_TAIL_SHAPE, withTailShape } from './tail-shape.js';
import { farOutliers, withoutFarOutliers, type FarOutlier } from './far-outliers.js';
import { smoothOutliers, type OutlierResult } from './outliers.js';
import type { CandidateReport, ForecastOptions, ForecastResult, ForecastXreg, PointForecast } from './types.js';

/** Backtest windows per series (more is steadier but costs a refit each). */
const MAX_ORIGINS = 2;
/**
 * A single method replaces the combination only when its backtest MASE is this much lower:
 * combinations are the more reliable choice on unseen data, a few backtest windows are noisy.
 */
const SINGLE_METHOD_MARGIN = 0.5;

/**
 * Weight of the model's own variance in the backtest calibration of its spread, in backtest windows of
 * h errors (VarianceCalibration.factor): the prior of an empirical-Bayes estimate of the series'
 * variance factor, fitted by the likelihood of the held-out values of M3 pseudo-holdouts (every 2nd
 * training series, its last h points forecast from the rest; competition holdouts unread; the pooled
 * tail shape refitted at each weight): `bench:forecast-tail-shape -- --stride 2 --prior-weight`.
 * Log-likelihood at w = 0.5, 1, 2, 4, 8, 12, 16, 24, 32, 64: −28 630.8, −28 379.1, −28 181.7, −28 058.9,
 * −28 001.4, −27 988.4, −27 985.0, −27 985.1, −27 987.1, −27 993.8 → 16. Two backtest windows of
 * correlated errors say little about a series' variance factor: at w = 1 (before) a window thrown off by
 * a change of regime blew single bands up five-fold (tourism yearly: 95 % bands 1.5× R's width in
 * geometric mean, yet covering 87 %). Pseudo-holdout MSIS at 95 %, w = 1 → 16: 14.30 → 13.51.
 */
export const CALIBRATION_PRIOR_WINDOWS = 16;

/** Calibration origins per window length h: the scoring windows are h apart, the calibration ones h / this. */
const CALIBRATION_STEPS_PER_WINDOW = 3;

/**
 * Shortest training span of a calibration window. Shorter than the scoring windows' minimum: a short
 * yearly series (13 points, h = 6) has no scoring window at all and kept the model's own variance
 * (M1 yearly, 181 series: the 90 % band covered 74.7 % of held-out points, 85.7 % with these windows);
 * fits on few points err more, which errs on the wide side.
 */
const MIN_CALIBRATION_TRAIN = 6;

function fillMissing(y: Float64Array): Float64Array {
  const out = Float64Array.from(y);
  const known: number[] = [];
  for (let t = 0; t < out.length; t++) if (Number.isFinite(out[t])) known.push(t);
  if (known.length === 0) throw new RangeError('the series has no finite value');
  if (known.length === out.length) return out;
  let k = 0;
  for (let t = 0; t < out.length; t++) {
    while (k + 1 < known.length && known[k + 1] <= t) k++;
    const a = known[k], b = known[Math.min(k + 1, known.length - 1)];
    if (t <= a || a === b) out[t] = out[t <= a ? a : b];
    else out[t] = out[a] + ((out[b] - out[a]) * (t - a)) / (b - a);
  }
  return out;
}

function candidateNames(ctx: MethodContext, withXreg: boolean): string[] {
  const names = ['naive'];
  if (ctx.period > 1) names.push('snaive');
  names.push(...combFamilies(ctx).flat(), 'comb');
  if (withXreg) names.push('regression');
  return names;
}

/**
 * Runs the named candidates on y; the combination and the regression reuse/compose base methods.
 * On strictly positive data a trend extrapolated below zero is cut at zero before combining (a
 * negative member would drag the combination down; on M3 this alone gains 0.035 sMAPE), and its
 * spread becomes that of the forecast censored at zero.
 */
function runCandidates(y: Float64Array, h: number, ctx: MethodContext, names: string[], xreg?: ForecastXreg): Map<string, PointForecast> {
  const out = new Map<string, PointForecast>();
  const needed = new Set(names);
  const families = combFamilies(ctx);
  if (needed.has('comb')) for (const m of families.flat()) needed.add(m);
  const positive = y.every((v) => v > 0);
  for (const name of Object.keys(BASE_METHODS)) {
    if (!needed.has(name)) continue;
    const f = BASE_METHODS[name](y, h, ctx);
    if (f && f.mean.every(Number.isFinite)) out.set(name, positive ? censorAtZero(f) : f);
  }
  if (needed.has('comb')) {
    const comb = combine(y, families, out);
    if (comb) out.set('comb', comb);
  }
  if (needed.has('regression') && xreg) {
    // The residuals are forecast by the combination too.
    const inner = (u: Float64Array, hh: number) => {
      const fits = new Map<string, PointForecast>();
      for (const m of families.flat()) {
        const f = BASE_METHODS[m](u, hh, ctx);
        if (f && f.mean.every(Number.isFinite)) fits.set(m, f);
      }
      return combine(u, families, fits);
    };
    const r = regressionForecast(y, h, xreg, [ctx.period, ...ctx.extraPeriods], inner);
    if (r && r.forecast.mean.every(Number.isFinite)) out.set('regression', r.forecast);
  }
  return out;
}

/**
 * The method's forecast with its standard deviation rescaled by its own backtest errors, the model's
 * variance counting as CALIBRATION_PRIOR_WINDOWS backtest windows' worth of evidence. Model variances leave out the
 * uncertainty of the parameters and of the model choice, and the data's changes of regime; the
 * backtest, refitting the whole procedure on the training data alone, sees all of them.
 */
function calibrated(f: PointForecast, calibration: VarianceCalibration | undefined, h: number): PointForecast {
  if (!calibration) return f;
  const c = calibration.factor(CALIBRATION_PRIOR_WINDOWS * h);
  return { ...f, sd: f.sd.map((s) => s * c), dof: calibration.dof(h) };
}

/** The features as seen from an origin inside the series; a window running past the end takes the known future values. */
function sliceXreg(xreg: ForecastXreg, trainLen: number, h: number): ForecastXreg {
  return {
    train: xreg.train.map((c) => c.subarray(0, trainLen)),
    future: xreg.train.map((c, j) => {
      const known = c.subarray(trainLen, trainLen + h);
      if (known.length === h) return known;
      const out = new Float64Array(h);
      out.set(known);
      out.set(xreg.future[j].subarray(0, h - known.length), known.length);
      return out;
    }),
  };
}

function choose(reports: CandidateReport[], available: string[], withXreg: boolean): string {
  const preferred = withXreg && available.includes('regression') ? 'regression' : available.includes('comb') ? 'comb' : available[0];
  const key = (r: CandidateReport) => (Number.isFinite(r.backtest.mase) ? r.backtest.mase : r.backtest.smape);
  const ref = reports.find((r) => r.method === preferred);
  if (!ref || !Number.isFinite(key(ref))) return preferred;
  let best = preferred;
  let bestKey = key(ref) * SINGLE_METHOD_MARGIN;
  for (const r of reports) {
    if (r.method === preferred || !available.includes(r.method)) continue;
    if (key(r) < bestKey) { best = r.method; bestKey = key(r); }
  }
  return best;
}

function validate(n: number, h: number, opts: ForecastOptions): void {
  if (!Number.isInteger(h) || h < 1) throw new RangeError(`horizon must be a positive integer, got ${h}`);
  if (n < 1) throw new RangeError('the series is empty');
  if (!(opts.period >= 1)) throw new RangeError(`period must be ≥ 1, got ${opts.period}`);
  const x = opts.xreg;
  if (x) {
    if (x.train.length !== x.future.length) throw new RangeError('xreg.train and xreg.future need the same number of columns');
    for (const c of x.train) if (c.length !== n) throw new RangeError(`each xreg.train column needs ${n} values`);
    for (const c of x.future) if (c.length < h) throw new RangeError(`each xreg.future column needs ${h} values`);
  }
}

function constantForecast(value: number, n: number, h: number): PointForecast {
  return { mean: new Float64Array(h).fill(value), sd: new Float64Array(h), fitted: new Float64Array(n).fill(value) };
}

/** The chosen method's predictive distribution before the pooled tail shape, and how it was chosen. */
export interface PredictiveDistribution {
  /** Mean and spread (backtest-calibrated when `calibrated`), means not yet floored. */
  chosen: PointForecast;
  method: string;
  candidates: CandidateReport[];
  /** Lower bound of every forecast and quantile: 0 for data never negative. */
  floor: number;
  /** Whether the spread was rescaled by backtest errors (the forecasts the pooled shape was fitted on). */
  calibrated: boolean;
  /** Values far outside the rest of the series (far-outliers.ts): those inside it were fitted as their expected values. */
  farOutliers: FarOutlier[];
  /** The recorded series' outliers (smoothOutliers), which the far values are picked from. */
  outliers: OutlierResult;
  /** The backtest evidence of the calibration (Σz², number of errors) and the factor applied, for refitting its prior weight (bench:forecast-tail-shape). */
  calibration?: { sumSquares: number; errors: number; factor: number };
}

/** Univariate forecast of y, h steps ahead; see ForecastOptions and ForecastResult for the contract. */
export function forecast(y: Float64Array, h: number, opts: ForecastOptions): ForecastResult {
  return shapedForecast(predictiveDistribution(y, h, opts), opts.levels ?? DEFAULT_LEVELS);
}

/** The forecast from a predictive distribution: a calibrated spread takes the pooled tail shape. */
export function shapedForecast(d: PredictiveDistribution, levels: number[]): ForecastResult {
  return forecastOfSpread(d, d.calibrated ? withTailShape(d.chosen, POOLED_TAIL_SHAPE) : d.chosen, levels);
}

/**
 * The forecast of `spread` (d's chosen forecast with its tail shape given): means floored at d's floor,
 * quantiles and central intervals at `levels`. bench/lib/tail-shape-table.ts gives it other shapes.
 */
export function forecastOfSpread(d: PredictiveDistribution, spread: PointForecast, levels: number[]): ForecastResult {
  const floor = d.floor;
  const mean = spread.mean.map((v) => Math.max(v, floor));
  return {
    mean,
    quantiles: quantileForecasts({ ...spread, mean }, levels, floor),
    intervals: centralIntervals({ ...spread, mean }, levels, floor),
    method: d.method,
    candidates: d.candidates,
    fitted: spread.fitted,
    farOutliers: d.farOutliers,
    outliers: d.outliers,
  };
}

/** Runs the candidates, backtests them, picks one and calibrates its spread (everything but the pooled tail shape). */
export function predictiveDistribution(y: Float64Array, h: number, opts: ForecastOptions): PredictiveDistribution {
  validate(y.length, h, opts);
  const recorded = fillMissing(y);
  const n = recorded.length;
  const ctx: MethodContext = {
    period: Math.round(opts.period),
    extraPeriods: (opts.extraPeriods ?? []).map(Math.round).filter((p) => p > 1),
  };
  const xreg = opts.xreg && opts.xreg.train.length > 0 ? { train: opts.xreg.train, future: opts.xreg.future.map((c) => c.subarray(0, h)) } : undefined;
  // Before anything is fitted or backtested: a far value (a typo) would steer the model choice.
  const flags = (xreg?.train ?? []).filter(isFlagColumn);
  const outliers = smoothOutliers(recorded, ctx.period);
  const far = farOutliers(recorded, ctx.period, (t) => flags.some((f) => f[t] !== 0), outliers);
  const series = withoutFarOutliers(recorded, far);

  let chosen: PointForecast;
  let method: string;
  let candidates: CandidateReport[] = [];
  let wasCalibrated = false;
  let evidence: PredictiveDistribution['calibration'];
  if (isConstant(series) && !xreg) {
    chosen = constantForecast(series[0], n, h);
    method = 'constant';
  } else {
    const applicable = candidateNames(ctx, xreg !== undefined);
    const names = opts.methods ? applicable.filter((m) => opts.methods!.includes(m)) : applicable;
    if (names.length === 0) throw new RangeError(`none of the methods ${opts.methods} applies; candidates are ${applicable}`);
    const scores = new Map(names.map((name) => [name, new ScoreAccumulator()]));
    const calibrations = new Map(names.map((name) => [name, new VarianceCalibration()]));
    const origins = names.length > 1 ? backtestOrigins(n, h, ctx.period, MAX_ORIGINS) : [];
    for (const trainLen of origins) {
      const train = series.subarray(0, trainLen);
      const actual = series.subarray(trainLen, trainLen + h);
      const runs = runCandidates(train, h, ctx, names, xreg && sliceXreg(xreg, trainLen, h));
      for (const [name, f] of runs) {
        scores.get(name)!.add(train, actual, f.mean, ctx.period);
        calibrations.get(name)!.add(actual, f);
      }
    }
    candidates = names
      .filter((name) => scores.get(name)!.origins > 0)
      .map((name) => ({ method: name, backtest: scores.get(name)!.score() }));
    const scored = candidates.map((c) => c.method);
    method = choose(candidates, scored.length ? scored : names, xreg !== undefined);
    const final = runCandidates(series, h, ctx, [method, 'naive'], xreg);
    if (!final.has(method)) method = 'naive';
    const calibration = calibrations.get(method);
    if (calibration && names.length > 1 && origins.length === 0) {
      // A series too short for a scoring window: overlapping windows on shorter training spans, for
      // the chosen method only, give it some errors to calibrate its spread from.
      const step = Math.max(1, Math.ceil(h / CALIBRATION_STEPS_PER_WINDOW));
      const span = Math.ceil((MAX_ORIGINS * h) / step);
      for (const trainLen of backtestOrigins(n, h, ctx.period, span, step, MIN_CALIBRATION_TRAIN)) {
        const train = series.subarray(0, trainLen);
        const f = runCandidates(train, h, ctx, [method], xreg && sliceXreg(xreg, trainLen, h)).get(method);
        if (f) calibration.add(series.subarray(trainLen, trainLen + h), f, true);
      }
    }
    chosen = calibrated(final.get(method)!, calibration, h);
    wasCalibrated = calibration !== undefined && calibration.dof(h) !== undefined;
    if (wasCalibrated) evidence = { ...calibration!.evidence(), factor: calibration!.factor(CALIBRATION_PRIOR_WINDOWS * h) };
  }
  // Data never negative (counts with zeros too) get non-negative forecasts and quantiles: a quantile
  // of max(Y, 0) is max(quantile of Y, 0), so a cut quantile is the exact one of a non-negative truth.
  const floor = zeroFloorIfNeverNegative(series);
  return { chosen, method, candidates, floor, calibrated: wasCalibrated, calibration: evidence, farOutliers: far, outliers };
}
