/**
 * Structural time-series models (Harvey) in state-space form, as statsmodels' UnobservedComponents
 * builds them: a local level (random walk), optionally with a slope — fixed (random walk with drift,
 * statsmodels 'rwdrift') or itself a random walk (local linear trend, 'lltrend') — and optionally a
 * stochastic dummy seasonal whose s−1 states sum with the current one to noise, and optionally a
 * stationary AR(1) component (statsmodels' `autoregressive=1`): deviations that persist for a while
 * and then die out, as daily demand or traffic does around its weekly pattern. Without it the only
 * persistence a model has is the random-walk level, whose forecast variance of a window's sum grows
 * with the cube of its length, so a mean-reverting series gets counterfactual bands many times too wide.
 *
 *   y_t = Z α_t + ε_t,            ε_t ~ N(0, irregular)
 *   α_{t+1} = T α_t + η_t,        η_t ~ N(0, diag(stateVariance))
 */

export type Slope = 'none' | 'fixed' | 'random';

export interface StructuralSpec {
  slope: Slope;
  /** Seasonal cycle length in periods; 1 = no seasonal component. */
  seasonalPeriod: number;
  /** A stationary AR(1) component (its coefficient is a fitted parameter besides the variances). */
  autoregressive?: boolean;
}

/** Variance parameters, in this order: irregular, level, then slope, seasonal and autoregressive when present. */
export function varianceNames(spec: StructuralSpec): string[] {
  const names = ['irregular', 'level'];
  if (spec.slope === 'random') names.push('slope');
  if (spec.seasonalPeriod > 1) names.push('seasonal');
  if (spec.autoregressive) names.push('autoregressive');
  return names;
}

const SLOPE_LABEL: Record<Slope, string> = { none: 'local_level', fixed: 'local_level_drift', random: 'local_linear_trend' };

/** Short label, e.g. "local_level", "local_linear_trend_seasonal_12", "local_level_ar1_seasonal_7". */
export function specLabel(spec: StructuralSpec): string {
  const base = SLOPE_LABEL[spec.slope] + (spec.autoregressive ? '_ar1' : '');
  return spec.seasonalPeriod > 1 ? `${base}_seasonal_${spec.seasonalPeriod}` : base;
}

/** Non-zero entries of a sparse matrix, as parallel arrays. */
export interface SparseMatrix {
  rows: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

export interface StateSpaceSystem {
  /** State dimension. */
  m: number;
  /** Observation loading (length m). */
  z: Float64Array;
  /** Non-zero entries of the transition matrix T. */
  transition: SparseMatrix;
  obsVariance: number;
  /** Diagonal of the state disturbance covariance (length m). */
  stateVariance: Float64Array;
}

export function stateDimension(spec: StructuralSpec): number {
  return 1 + (spec.slope === 'none' ? 0 : 1) + (spec.seasonalPeriod > 1 ? spec.seasonalPeriod - 1 : 0) + (spec.autoregressive ? 1 : 0);
}

/**
 * The system for `variances` given in `varianceNames(spec)` order and, for an autoregressive spec,
 * the AR(1) coefficient `ar` (|ar| < 1). The AR state starts diffuse like the others: the first
 * observations pin it down instead of its stationary variance, which costs one observation.
 */
export function structuralSystem(spec: StructuralSpec, variances: ArrayLike<number>, ar = 0): StateSpaceSystem {
  const m = stateDimension(spec);
  const z = new Float64Array(m);
  const stateVariance = new Float64Array(m);
  const entries: [number, number, number][] = [];
  let next = 1; // index into variances
  z[0] = 1;
  entries.push([0, 0, 1]);
  stateVariance[0] = variances[next++];
  let pos = 1;
  if (spec.slope !== 'none') {
    entries.push([0, pos, 1], [pos, pos, 1]);
    if (spec.slope === 'random') stateVariance[pos] = variances[next++];
    pos++;
  }
  if (spec.seasonalPeriod > 1) {
    const first = pos;
    const count = spec.seasonalPeriod - 1;
    z[first] = 1;
    for (let j = 0; j < count; j++) entries.push([first, first + j, -1]);
    for (let j = 1; j < count; j++) entries.push([first + j, first + j - 1, 1]);
    stateVariance[first] = variances[next++];
    pos += count;
  }
  if (spec.autoregressive) {
    z[pos] = 1;
    entries.push([pos, pos, ar]);
    stateVariance[pos] = variances[next++];
  }
  const transition = {
    rows: Int32Array.from(entries, (e) => e[0]),
    cols: Int32Array.from(entries, (e) => e[1]),
    values: Float64Array.from(entries, (e) => e[2]),
  };
  return { m, z, transition, obsVariance: variances[0], stateVariance };
}
