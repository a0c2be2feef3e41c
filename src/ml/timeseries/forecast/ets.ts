/**
 * Exponential smoothing state-space models (ETS, Hyndman et al. 2008), as R's forecast::ets:
 * error A/M, trend N/A/Ad, season N/A/M; smoothing parameters and initial level/trend fitted by
 * maximum likelihood with Nelder–Mead, model chosen by AICc. Initial seasonal states come from a
 * classical decomposition of the whole series and are not re-optimised: on M3 this forecasts as well
 * as optimising them, at a sixth of the cost. They still count as parameters in the AICc.
 */
import { seasonalFigure } from './decompose.js';
import { nelderMead } from '../../core/nelder-mead.js';
import { SeededRandom } from '../../core/random.js';
import { mean } from '../../core/statistics.js';
import { fitLine } from './stats.js';
import type { PointForecast } from './types.js';

export type EtsError = 'A' | 'M';
export type EtsTrend = 'N' | 'A' | 'Ad';
export type EtsSeason = 'N' | 'A' | 'M';

export interface EtsSpec {
  error: EtsError;
  trend: EtsTrend;
  season: EtsSeason;
}

export interface EtsModel {
  spec: EtsSpec;
  m: number;
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
  /** Variance of the one-step errors (relative errors for multiplicative-error models). */
  sigma2: number;
  aicc: number;
  fitted: Float64Array;
  /** States after the last observation; `season[(n + k) % m]` is the seasonal state used at step n + k. */
  level: number;
  slope: number;
  season: Float64Array;
  n: number;
}

export function etsName(s: EtsSpec): string {
  return `ETS(${s.error},${s.trend},${s.season})`;
}

const SMALL = 1e-4;
const PHI_MIN = 0.8;
const PHI_MAX = 0.98;

interface Params { alpha: number; beta: number; gamma: number; phi: number; l0: number; b0: number }

interface RunResult { lik: number; sse: number; level: number; slope: number }

/**
 * One pass of the state recursion over y (R's etscalc): updates are written in the error-free form
 * shared by additive and multiplicative errors; only the likelihood depends on the error type.
 * Returns lik = n·log(Σe²) (+ 2Σlog|ŷ| for multiplicative errors), i.e. −2·log-likelihood up to a constant.
 */
function runRecursion(y: Float64Array, spec: EtsSpec, m: number, p: Params, season: Float64Array, fitted?: Float64Array): RunResult {
  const seasonal = spec.season !== 'N';
  const multSeason = spec.season === 'M';
  const hasTrend = spec.trend !== 'N';
  const phi = spec.trend === 'Ad' ? p.phi : 1;
  const multError = spec.error === 'M';
  let l = p.l0;
  let b = hasTrend ? p.b0 : 0;
  let sse = 0;
  let logSum = 0;
  const ratio = hasTrend ? p.beta / p.alpha : 0;
  for (let t = 0; t < y.length; t++) {
    const phib = phi * b;
    const q = l + phib;
    const j = seasonal ? t % m : 0;
    const s = seasonal ? season[j] : 0;
    const yhat = multSeason ? q * s : q + s;
    if (fitted) fitted[t] = yhat;
    const yt = y[t];
    if (multError) {
      if (!(yhat > 0)) return { lik: Infinity, sse: Infinity, level: l, slope: b };
      const e = (yt - yhat) / yhat;
      sse += e * e;
      logSum += Math.log(yhat);
    } else {
      const e = yt - yhat;
      sse += e * e;
    }
    const adjusted = !seasonal ? yt : multSeason ? (Math.abs(s) < 1e-10 ? 1e10 : yt / s) : yt - s;
    const oldl = l;
    l = q + p.alpha * (adjusted - q);
    if (hasTrend) b = phib + ratio * (l - oldl - phib);
    if (seasonal) {
      const target = multSeason ? (Math.abs(q) < 1e-10 ? 1e10 : yt / q) : yt - q;
      season[j] = s + p.gamma * (target - s);
    }
  }
  const n = y.length;
  let lik = n * Math.log(Math.max(sse, 1e-300));
  if (multError) lik += 2 * logSum;
  if (!Number.isFinite(lik)) lik = Infinity;
  return { lik, sse, level: l, slope: b };
}

function paramCount(spec: EtsSpec, m: number): number {
  let k = 2; // alpha, l0
  if (spec.trend !== 'N') k += 2; // beta, b0
  if (spec.trend === 'Ad') k += 1;
  if (spec.season !== 'N') k += 1 + (m - 1); // gamma and the free seasonal states
  return k;
}

/** Initial seasonal states (one per position t mod m) and the seasonally adjusted series. */
function initialSeason(y: Float64Array, m: number, season: EtsSeason): { states: Float64Array; adjusted: Float64Array } {
  if (season === 'N') return { states: new Float64Array(0), adjusted: y };
  // The whole series gives steadier indices than the first three cycles R uses (measured on M3 monthly).
  const states = seasonalFigure(y, m, season === 'A' ? 'additive' : 'multiplicative');
  if (season === 'M') for (let j = 0; j < m; j++) states[j] = Math.max(states[j], 1e-2);
  const adjusted = new Float64Array(y.length);
  for (let t = 0; t < y.length; t++) adjusted[t] = season === 'A' ? y[t] - states[t % m] : y[t] / states[t % m];
  return { states, adjusted };
}

/** Fits one ETS model to y (already scaled to order 1). Returns undefined when it cannot be fitted. */
export function fitEts(y: Float64Array, m: number, spec: EtsSpec): EtsModel | undefined {
  const n = y.length;
  const seasonal = spec.season !== 'N';
  if (seasonal && (m <= 1 || n < 2 * m)) return undefined;
  const np = paramCount(spec, m);
  if (n - np - 2 <= 0) return undefined;
  const { states, adjusted } = initialSeason(y, m, spec.season);
  const maxn = Math.min(Math.max(10, 2 * m), n);
  let l0: number, b0 = 0;
  if (spec.trend === 'N') l0 = mean(adjusted, 0, maxn);
  else {
    const [a, s] = fitLine(adjusted, 0, maxn, 1);
    l0 = a; b0 = s;
  }
  const hasTrend = spec.trend !== 'N';
  const damped = spec.trend === 'Ad';
  const alpha0 = SMALL + (0.2 * (1 - 2 * SMALL)) / Math.max(m, 1);
  // x = [alpha, beta?, gamma?, phi?, l0, b0?]
  const x0: number[] = [alpha0];
  const steps: number[] = [0.1];
  if (hasTrend) { x0.push(Math.min(SMALL + 0.1 * (1 - 2 * SMALL), alpha0 - 1e-3)); steps.push(0.05); }
  if (seasonal) { x0.push(SMALL + 0.05 * (1 - alpha0 - SMALL)); steps.push(0.05); }
  if (damped) { x0.push(PHI_MIN + 0.99 * (PHI_MAX - PHI_MIN) - 0.05); steps.push(0.05); }
  x0.push(l0); steps.push(0.1 * Math.max(Math.abs(l0), 1e-3));
  if (hasTrend) { x0.push(b0); steps.push(0.1 * Math.max(Math.abs(b0), 1e-3 * Math.max(Math.abs(l0), 1e-3))); }
  const scratch = new Float64Array(states.length);
  const decode = (x: ArrayLike<number>): Params => {
    let i = 0;
    const alpha = x[i++];
    const beta = hasTrend ? x[i++] : 0;
    const gamma = seasonal ? x[i++] : 0;
    const phi = damped ? x[i++] : 1;
    const pl0 = x[i++];
    const pb0 = hasTrend ? x[i++] : 0;
    return { alpha, beta, gamma, phi, l0: pl0, b0: pb0 };
  };
  const admissible = (p: Params) =>
    p.alpha >= SMALL && p.alpha <= 1 - SMALL &&
    (!hasTrend || (p.beta >= SMALL && p.beta <= p.alpha)) &&
    (!seasonal || (p.gamma >= SMALL && p.gamma <= 1 - p.alpha)) &&
    (!damped || (p.phi >= PHI_MIN && p.phi <= PHI_MAX));
  const objective = (x: Float64Array) => {
    const p = decode(x);
    if (!admissible(p)) return Infinity;
    scratch.set(states);
    return runRecursion(y, spec, m, p, scratch).lik;
  };
  const init = Float64Array.from(x0);
  // A multiplicative-error model whose starting forecasts are not positive cannot be fitted.
  if (!Number.isFinite(objective(init))) return undefined;
  const opt = nelderMead(objective, init, { maxEvaluations: 200 * x0.length + 200, valueTolerance: 1e-8, steps });
  if (!Number.isFinite(opt.value)) return undefined;
  const p = decode(opt.x);
  const season = Float64Array.from(states);
  const fitted = new Float64Array(n);
  const r = runRecursion(y, spec, m, p, season, fitted);
  const k = np + 1;
  const aicc = r.lik + 2 * k + (2 * k * (k + 1)) / (n - k - 1);
  return {
    spec, m, alpha: p.alpha, beta: p.beta, gamma: p.gamma, phi: p.phi,
    sigma2: r.sse / Math.max(n - np, 1), aicc, fitted,
    level: r.level, slope: r.slope, season, n,
  };
}

/**
 * Point forecasts and Gaussian standard deviations h steps ahead. The variance is the model's own
 * (Hyndman et al. 2008, ch. 6): the closed form of the linear class-1 models (additive error and
 * components), the exact recursion of class 2 (multiplicative error, no multiplicative season) and,
 * for class 3 (multiplicative season), the spread of simulated sample paths, for which no exact
 * formula exists. The multiplicative models' spread grows with the level and compounds over the
 * horizon; the additive formula scaled by the forecast, used before, understated it.
 */
export function etsForecast(model: EtsModel, h: number): PointForecast {
  const { spec, m } = model;
  const phi = spec.trend === 'Ad' ? model.phi : 1;
  const hasTrend = spec.trend !== 'N';
  const mean = new Float64Array(h);
  let l = model.level;
  let b = hasTrend ? model.slope : 0;
  for (let k = 0; k < h; k++) {
    const q = l + phi * b;
    const s = spec.season === 'N' ? 0 : model.season[(model.n + k) % m];
    mean[k] = spec.season === 'M' ? q * s : q + s;
    l = q;
    b = phi * b;
  }
  const sd = spec.season === 'M' || (spec.error === 'M' && spec.season === 'A')
    ? simulatedSd(model, h)
    : spec.error === 'M' ? class2Sd(model, mean) : class1Sd(model, h);
  return { mean, sd, fitted: model.fitted };
}

/** c_j of the linear models: the weight of an error j steps back in the forecast (Hyndman et al. 2008, Table 6.1). */
function errorWeights(model: EtsModel, h: number): Float64Array {
  const { spec, m, alpha, beta, gamma } = model;
  const phi = spec.trend === 'Ad' ? model.phi : 1;
  const c = new Float64Array(h);
  let phiSum = 0;
  for (let j = 1; j < h; j++) {
    phiSum += Math.pow(phi, j);
    c[j] = alpha + (spec.trend !== 'N' ? beta * phiSum : 0) + (spec.season !== 'N' && j % m === 0 ? gamma : 0);
  }
  return c;
}

/** Class 1: v_h = σ²(1 + Σ_{j<h} c_j²). */
function class1Sd(model: EtsModel, h: number): Float64Array {
  const c = errorWeights(model, h);
  const sd = new Float64Array(h);
  let cum = 1;
  for (let k = 0; k < h; k++) {
    if (k > 0) cum += c[k] * c[k];
    sd[k] = Math.sqrt(model.sigma2 * cum);
  }
  return sd;
}

/** Class 2: θ_1 = μ_1², θ_h = μ_h² + σ² Σ_{j<h} c_j² θ_{h−j}, v_h = (1 + σ²) θ_h − μ_h². */
function class2Sd(model: EtsModel, mu: Float64Array): Float64Array {
  const h = mu.length;
  const c = errorWeights(model, h);
  const s2 = model.sigma2;
  const theta = new Float64Array(h);
  const sd = new Float64Array(h);
  for (let k = 0; k < h; k++) {
    let acc = 0;
    for (let j = 1; j <= k; j++) acc += c[j] * c[j] * theta[k - j];
    theta[k] = mu[k] * mu[k] + s2 * acc;
    sd[k] = Math.sqrt(Math.max((1 + s2) * theta[k] - mu[k] * mu[k], 0));
  }
  return sd;
}

/** Sample paths for class 3; a fixed seed keeps forecasts deterministic. */
const SIMULATED_PATHS = 2000;
const SIMULATION_SEED = 20080101;

/** Standard deviation of simulated paths of the state recursion (the updates of runRecursion, errors drawn). */
function simulatedSd(model: EtsModel, h: number): Float64Array {
  const { spec, m, alpha, beta, gamma } = model;
  const phi = spec.trend === 'Ad' ? model.phi : 1;
  const hasTrend = spec.trend !== 'N';
  const multSeason = spec.season === 'M';
  const sigma = Math.sqrt(model.sigma2);
  const rng = new SeededRandom(SIMULATION_SEED);
  const sum = new Float64Array(h);
  const sumSq = new Float64Array(h);
  const season = new Float64Array(m);
  for (let path = 0; path < SIMULATED_PATHS; path++) {
    let l = model.level;
    let b = hasTrend ? model.slope : 0;
    season.set(model.season.subarray(0, m));
    for (let k = 0; k < h; k++) {
      const j = (model.n + k) % m;
      const s = season[j];
      const q = l + phi * b;
      const yhat = multSeason ? q * s : q + s;
      const e = sigma * rng.normal();
      const y = spec.error === 'M' ? yhat * (1 + e) : yhat + e;
      sum[k] += y;
      sumSq[k] += y * y;
      const adjusted = multSeason ? (Math.abs(s) < 1e-10 ? 1e10 : y / s) : y - s;
      const oldl = l;
      l = q + alpha * (adjusted - q);
      if (hasTrend) b = phi * b + (beta / alpha) * (l - oldl - phi * b);
      const target = multSeason ? (Math.abs(q) < 1e-10 ? 1e10 : y / q) : y - q;
      season[j] = s + gamma * (target - s);
    }
  }
  return sum.map((v, k) => {
    const mu = v / SIMULATED_PATHS;
    return Math.sqrt(Math.max(sumSq[k] / SIMULATED_PATHS - mu * mu, 0));
  });
}

/** The model space searched by auto-selection (R's default: no multiplicative trend, restricted). */
export function etsModelSpace(m: number, positive: boolean, trends: EtsTrend[] = ['N', 'A', 'Ad']): EtsSpec[] {
  const specs: EtsSpec[] = [];
  const seasons: EtsSeason[] = m > 1 ? ['N', 'A', 'M'] : ['N'];
  for (const error of ['A', 'M'] as EtsError[]) {
    if (error === 'M' && !positive) continue;
    for (const trend of trends) {
      for (const season of seasons) {
        if (season === 'M' && (!positive || error === 'A')) continue;
        specs.push({ error, trend, season });
      }
    }
  }
  return specs;
}

/**
 * Fits every model of the space on y and keeps the lowest AICc. The series is scaled by its mean
 * absolute value first (ETS is scale-equivariant), and the forecast is scaled back.
 */
export function autoEts(y: Float64Array, m: number, trends?: EtsTrend[]): { model: EtsModel; scale: number } | undefined {
  let scale = 0;
  for (let i = 0; i < y.length; i++) scale += Math.abs(y[i]);
  scale = scale / y.length || 1;
  const ys = y.map((v) => v / scale);
  let positive = true;
  for (let i = 0; i < ys.length; i++) if (!(ys[i] > 0)) positive = false;
  let best: EtsModel | undefined;
  for (const spec of etsModelSpace(m, positive, trends)) {
    const fit = fitEts(ys, m, spec);
    if (fit && (!best || fit.aicc < best.aicc)) best = fit;
  }
  return best ? { model: best, scale } : undefined;
}

/** Forecast of the AICc-best ETS model in original units. */
export function autoEtsForecast(y: Float64Array, m: number, h: number, trends?: EtsTrend[]): (PointForecast & { name: string }) | undefined {
  const r = autoEts(y, m, trends);
  if (!r) return undefined;
  const f = etsForecast(r.model, h);
  const s = r.scale;
  return {
    name: etsName(r.model.spec),
    mean: f.mean.map((v) => v * s),
    sd: f.sd.map((v) => v * s),
    fitted: r.model.fitted.map((v) => v * s),
  };
}
