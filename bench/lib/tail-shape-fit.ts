/**
 * Maximum-likelihood fit of the pooled tail shape of forecast errors (the model in
 * src/ml/timeseries/forecast/tail-shape.ts, whose POOLED_TAIL_SHAPE forecasts apply): s and ν₀ at a
 * given λ (fitTailShape), and λ too (fitBestTailShape), from standardised pseudo-holdout errors.
 * Forecasts only apply the fitted constant; bench/forecast-tail-shape.ts, bench/forecast-band-shape.ts
 * and the period/horizon-band table (tail-shape-table.ts) fit it.
 */
import { logGamma } from '../../src/ml/core/statistics.js';
import { combinedDof, MIN_DOF, type TailShape } from '../../src/ml/timeseries/forecast/tail-shape.js';

/** One standardised pseudo-holdout error z = (y − μ)/σ and the series' own degrees of freedom d (Infinity when none). */
export interface ShapeSample {
  z: number;
  dof: number;
  /** Weight of the error in the likelihood (1 when absent). */
  weight?: number;
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
