/**
 * The shape of forecast errors pooled across many series. A series' backtest calibrates the scale of
 * its bands, but its few windows cannot tell how heavy the tails of its errors are; many series
 * together can. Measured on pseudo-holdouts (the last h points of each training series, forecast by
 * the whole procedure from the points before them), errors standardised by the calibrated spread are
 * a scale mixture: peaked in the centre, heavy in the tails. A Gaussian (or a t with the backtest's
 * degrees of freedom alone) whose scale fits the 90–95 % tails is then too wide at 50–80 %.
 *
 * The pooled model: (y − μ)/σ ~ s · t(ν), where σ is the backtest-calibrated spread of the series
 * and ν combines the pooled ν₀ with the series' own degrees of freedom d (the uncertainty of its
 * variance factor) by adding their excess-kurtosis terms, 1/ν = 1/ν₀ + λ/d: the first-order term of
 * the t quantile's expansion around the normal, z(z² + 1)/(4ν), is additive in 1/ν for independent
 * scale mixtures. λ = 1 takes d at its word, λ = 0 lets ν₀ replace it. s, ν₀ and λ are fitted by
 * maximum likelihood on the pooled pseudo-holdout errors (fitBestTailShape; bench/forecast-tail-shape.ts
 * runs the procedure). On M3 λ came out at 0.2: d, from one or two backtest windows, says little
 * about how heavy a series' tails are.
 */
import { logGamma } from '../../core/statistics.js';

export interface TailShape {
  /** Multiplier of the calibrated spread. */
  scale: number;
  /** Pooled degrees of freedom ν₀ (Infinity: no extra tail weight). */
  dof: number;
  /** Weight λ of each series' own degrees of freedom d in 1/ν = 1/ν₀ + λ/d (0: ν₀ replaces them). */
  seriesDofWeight: number;
}

/** One standardised pseudo-holdout error z = (y − μ)/σ and the series' own degrees of freedom d (Infinity when none). */
export interface ShapeSample {
  z: number;
  dof: number;
  /** Weight of the error in the likelihood (1 when absent). */
  weight?: number;
}

/** Degrees of freedom below this are taken as this, as in the quantiles (quantiles.ts). */
const MIN_DOF = 2;

/** The degrees of freedom of the combined scale mixture: 1/ν = 1/ν₀ + λ/d. */
export function combinedDof(pooled: number, own: number | undefined, weight = 1): number {
  const inverse = 1 / pooled + (own === undefined || weight === 0 ? 0 : weight / own);
  return inverse > 0 ? Math.max(1 / inverse, MIN_DOF) : Infinity;
}

/** log density of Student's t with ν degrees of freedom (the standard normal for ν = ∞). */
export function studentTLogDensity(x: number, dof: number): number {
  if (!Number.isFinite(dof)) return -0.5 * x * x - 0.5 * Math.log(2 * Math.PI);
  return logGamma((dof + 1) / 2) - logGamma(dof / 2) - 0.5 * Math.log(dof * Math.PI) - ((dof + 1) / 2) * Math.log1p((x * x) / dof);
}

function logLikelihood(samples: readonly ShapeSample[], logScale: number, inverseDof: number, weight: number): number {
  const s = Math.exp(logScale);
  const pooled = inverseDof > 0 ? 1 / inverseDof : Infinity;
  // The normalising constant depends on ν alone; series share few distinct ν.
  const constants = new Map<number, number>();
  let sum = 0;
  for (const { z, dof, weight: w = 1 } of samples) {
    const v = combinedDof(pooled, dof, weight);
    const x = z / s;
    if (!Number.isFinite(v)) { sum += w * (-0.5 * x * x - 0.5 * Math.log(2 * Math.PI) - logScale); continue; }
    let c = constants.get(v);
    if (c === undefined) { c = studentTLogDensity(0, v); constants.set(v, c); }
    sum += w * (c - ((v + 1) / 2) * Math.log1p((x * x) / v) - logScale);
  }
  return sum;
}

/** Maximiser of a unimodal function on [a, b] by golden-section search. */
function goldenMax(f: (x: number) => number, a: number, b: number, steps = 30): number {
  const r = (Math.sqrt(5) - 1) / 2;
  let c = b - r * (b - a), d = a + r * (b - a);
  let fc = f(c), fd = f(d);
  for (let i = 0; i < steps; i++) {
    if (fc >= fd) { b = d; d = c; fd = fc; c = b - r * (b - a); fc = f(c); }
    else { a = c; c = d; fc = fd; d = a + r * (b - a); fd = f(d); }
  }
  return (a + b) / 2;
}

/** Grid of 1/ν₀ searched first (ν₀ from ∞ down to MIN_DOF), then refined around the best point. */
const INVERSE_DOF_GRID = 50;
const LOG_SCALE_RANGE: [number, number] = [Math.log(0.2), Math.log(5)];

/**
 * Maximum-likelihood s and ν₀ of the pooled model above (s alone at a given ν₀ with `fixedDof`). The profile likelihood in log s is
 * maximised by golden section for each 1/ν₀ on a grid over [0, 1/MIN_DOF], then 1/ν₀ by golden
 * section between the grid neighbours of the best point. Deterministic; the errors of one series are
 * correlated along its horizon, so this is a composite likelihood: right estimates, not their precision.
 */
export function fitTailShape(samples: readonly ShapeSample[], seriesDofWeight = 1, fixedDof?: number): TailShape & { logLikelihood: number } {
  if (samples.length === 0) throw new RangeError('no samples to fit a tail shape to');
  const profile = (inverseDof: number) => {
    const logScale = goldenMax((ls) => logLikelihood(samples, ls, inverseDof, seriesDofWeight), ...LOG_SCALE_RANGE);
    return { logScale, value: logLikelihood(samples, logScale, inverseDof, seriesDofWeight) };
  };
  if (fixedDof !== undefined) {
    const at = profile(Number.isFinite(fixedDof) ? 1 / fixedDof : 0);
    return { scale: Math.exp(at.logScale), dof: fixedDof, seriesDofWeight, logLikelihood: at.value };
  }
  const step = 1 / MIN_DOF / INVERSE_DOF_GRID;
  let best = 0, bestValue = -Infinity;
  for (let i = 0; i <= INVERSE_DOF_GRID; i++) {
    const v = profile(i * step).value;
    if (v > bestValue) { best = i * step; bestValue = v; }
  }
  const inverseDof = goldenMax((x) => profile(x).value, Math.max(0, best - step), Math.min(1 / MIN_DOF, best + step), 20);
  const at = profile(inverseDof);
  return { scale: Math.exp(at.logScale), dof: inverseDof > 1e-6 ? 1 / inverseDof : Infinity, seriesDofWeight, logLikelihood: at.value };
}

/** Weights λ of the series' own degrees of freedom tried by fitBestTailShape. */
const SERIES_DOF_WEIGHTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** Maximum-likelihood s, ν₀ and λ: fitTailShape at each λ of a grid over [0, 1], the likeliest kept. */
export function fitBestTailShape(samples: readonly ShapeSample[]): TailShape & { logLikelihood: number } {
  let best: (TailShape & { logLikelihood: number }) | undefined;
  for (const weight of SERIES_DOF_WEIGHTS) {
    const fit = fitTailShape(samples, weight);
    if (!best || fit.logLikelihood > best.logLikelihood) best = fit;
  }
  return best!;
}

/**
 * The pooled shape in use, refitted (s, ν₀ at λ = 0.2) with the calibration's prior weight
 * (forecast.ts CALIBRATION_PRIOR_WINDOWS = 16) on the pseudo-holdouts of every 2nd M3 training series
 * (18 302 errors; the competition holdouts unread) by `npm run bench:forecast-tail-shape -- --stride 2
 * --prior-weight`: s = 0.8941, ν₀ = 5.995. The previous fit (prior weight 1 window, all 3003 series,
 * 36 598 errors): log-likelihoods (s, ν₀ profiled out) by λ: 0 −56 911.7, 0.1 −56 867.4, 0.2 −56 855.2,
 * 0.3 −56 867.5, 0.5 −56 901.4, 1 −57 110.8; without a pooled shape −57 399.7; at λ = 0.2 s = 0.8983, ν₀ = 5.383.
 * M1 and tourism, not used here, are the confirmation. bench:forecast on the full collections,
 * coverage at 50/80/90/95 % and MSIS, without → with the shape (prior weight 1):
 *   M3      55.8/83.1/91.5/95.3, 4.76/7.73/10.26/13.26 → 52.1/80.7/90.6/95.2, 4.65/7.37/9.64/12.21
 *   M1      57.3/82.0/90.0/94.0, 5.76/9.58/13.10/17.52 → 53.6/79.7/88.7/93.8, 5.67/9.37/12.81/17.27
 *   tourism 60.4/86.0/93.0/96.3, 7.25/11.62/15.07/19.05 → 57.6/85.1/93.1/96.7, 7.08/11.15/14.40/17.97
 * Every 10th series, prior weight 1 → 16 (with this refit):
 *   M3      51.9/80.2/90.6/95.7, 4.59/7.23/9.35/11.65 → 51.8/80.5/90.9/95.8, 4.46/6.95/8.97/11.39
 *   M1      54.3/79.8/90.4/95.6, 5.66/8.52/10.94/14.21 → 50.1/77.0/87.2/94.0, 5.54/8.32/10.48/13.08
 *   tourism 57.1/84.9/93.3/96.7, 7.26/11.45/14.68/18.67 → 52.6/82.5/90.5/95.3, 6.84/10.36/13.16/16.02
 * Refitted after the additive-error spreads were moved to the forecast's level (uncertainty.ts
 * atForecastLevel), same procedure and series: s = 0.8876, ν₀ = 6.260 (was 0.8941, 5.995); log-likelihood
 * of the held-out values at prior weight 16 −28 089.9 → −27 740.7 (at 0.5, 1, 2, 4, 8, 12, 16, 24, 32:
 * −28 503.0, −28 218.1, −27 991.0, −27 845.6, −27 771.0, −27 749.6, −27 740.7, −27 733.9, −27 731.6; the
 * prior weight stays 16, the curve being flat beyond it). bench:forecast on the full collections, coverage
 * at 50/80/90/95 % and MSIS, before → after (yearly; all):
 *   M3      yearly 46.8/75.5/85.1/91.3, 8.94/14.06/18.66/24.17 → 51.3/80.1/89.1/94.1, 8.96/13.92/17.91/22.28;
 *           all 51.2/80.6/90.7/95.6, 4.48/6.86/8.85/11.17 → 51.2/81.2/91.2/95.8, 4.47/6.80/8.66/10.74
 *   M1      yearly 37.2/62.3/76.5/85.7, 12.72/22.09/31.92/46.35 → 42.8/69.0/82.1/89.2, 12.72/21.32/29.88/41.78;
 *           all 48.5/76.8/87.2/92.8, 5.49/8.89/12.14/16.46 → 50.4/78.7/88.6/93.6, 5.49/8.73/11.75/15.66
 *   tourism yearly 43.1/71.9/82.9/89.8, 9.19/14.17/18.20/22.66 → 49.9/79.0/88.3/93.1, 9.34/14.48/18.76/23.53;
 *           all 53.1/81.4/90.8/95.3, 6.74/10.25/13.01/16.00 → 58.8/86.0/93.3/96.6, 6.87/10.60/13.64/16.94
 * Tourism, a confirmation set, loses MSIS in every period: its competition holdouts are calmer than the
 * ends of its training series, on which (every 3rd series, pseudo-holdouts) these bands still cover too
 * little (monthly 48.9/74.9/83.7/90.3, quarterly 47.6/73.2/83.9/91.3, yearly 44.8/74.8/88.3/95.4).
 */
export const POOLED_TAIL_SHAPE: TailShape = { scale: 0.8876, dof: 6.26, seriesDofWeight: 0.2 };
