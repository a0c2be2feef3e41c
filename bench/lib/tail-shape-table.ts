/**
 * The tail shape of forecast errors by seasonal period and horizon band, shrunk towards the pooled
 * shape (src/ml/timeseries/forecast/tail-shape.ts). One pooled shape for every series was too narrow
 * for yearly series (their pseudo-holdout errors grow faster along the horizon than the
 * backtest-calibrated spread says) and too wide for seasonal monthly ones; the period and the position along the horizon are all a forecast
 * knows in advance about which of these it is.
 *
 * Levels: pooled (all errors) → period (1, 4, 12, … as the forecast is asked for) → horizon band (the
 * first, middle and last third of the h steps; the calibration factor is an average over the requested
 * horizon, so the position is measured as a share of h). A period has its own ν₀ and scale, a band its
 * own scale at the period's ν₀; λ (the weight of each series' own degrees of freedom) stays the pooled
 * one. Each level's maximum-likelihood estimate is shrunk towards its parent's as if the parent were
 * `priorErrors` more errors (shrink, below): a level with few errors stays near its parent, one with
 * many follows its data. `priorErrors` is chosen by leave-series-out cross-validated
 * likelihood (crossValidatedPrior), so the amount of shrinkage is fitted too, not set by hand.
 *
 * Not in use: forecasts apply the single pooled shape (src/ml/timeseries/forecast/tail-shape.ts,
 * withTailShape), the fitted M3 table held the yearly bands but lost MSIS (m3-period-band-table.ts).
 * Kept for the benchmarks: bench/forecast-tail-shape.ts fits and scores tables, bench/forecast.ts
 * rescores kept forecasts under one (bandedForecast).
 */
import { combinedDof, type TailShape } from '../../src/ml/timeseries/forecast/tail-shape.js';
import type { ForecastResult, PointForecast } from '../../src/ml/timeseries/forecast/types.js';
import { forecastOfSpread, type PredictiveDistribution } from '../../src/ml/timeseries/forecast/forecast.js';
import { fitTailShape, studentTLogDensity, type ShapeSample } from './tail-shape-fit.js';

/** Number of horizon bands (thirds of h). */
export const HORIZON_BANDS = 3;

/** The shape at one level: ν₀ and λ for the degrees of freedom, a scale per horizon band. */
export interface BandedTailShape {
  dof: number;
  seriesDofWeight: number;
  bandScales: number[];
}

export interface TailShapeTable {
  /** For periods the table has no entry for. */
  pooled: BandedTailShape;
  /** By seasonal period (1 for non-seasonal series). */
  byPeriod: Record<string, BandedTailShape>;
  /** Prior weight, in errors, of each level's parent (chosen by crossValidatedPrior). */
  priorErrors: number;
}

/** A pseudo-holdout error with where it came from: the series' period, its horizon step (1-based) of h, and the series. */
export interface HorizonSample extends ShapeSample {
  m: number;
  step: number;
  h: number;
  series: string;
}

/** Band (0-based) of horizon step `step` (1-based) of h; a horizon shorter than the bands has only the middle one (its whole average). */
export function horizonBand(step: number, h: number): number {
  if (h < HORIZON_BANDS) return Math.floor(HORIZON_BANDS / 2);
  return Math.min(HORIZON_BANDS - 1, Math.floor((HORIZON_BANDS * (step - 1)) / h));
}

/** Parameters of one level on the scales they are shrunk on. */
interface LevelFit { logScale: number; inverseDof: number; n: number }

const toFit = (t: TailShape, n: number): LevelFit => ({ logScale: Math.log(t.scale), inverseDof: Number.isFinite(t.dof) ? 1 / t.dof : 0, n });
const dofOf = (inverseDof: number) => (inverseDof > 1e-6 ? 1 / inverseDof : Infinity);

/**
 * A level's estimate shrunk towards its parent's: each of its n errors and each of the parent's
 * `priorErrors` pseudo-errors counts the same, (n·own + N₀·parent)/(n + N₀). This is the maximiser of
 * the level's likelihood plus the parent's scaled to N₀ errors (a power prior) when both are
 * quadratic with the same information per error; it needs the level's own fit alone, so the
 * cross-validation over N₀ refits nothing.
 */
function shrink(own: number, n: number, parent: number, priorErrors: number): number {
  if (!Number.isFinite(priorErrors)) return parent;
  return (n * own + priorErrors * parent) / (n + priorErrors);
}

/** The unshrunk maximum-likelihood fits of the levels (λ given): pooled, and each period with enough errors. */
interface RawFits { lambda: number; pooled: LevelFit; periods: Map<number, LevelFit> }

/** Number of errors a level counts as: the sum of their weights. */
function totalWeight(samples: readonly ShapeSample[]): number {
  return samples.reduce((a, s) => a + (s.weight ?? 1), 0);
}

/** Periods with at least this many errors get their own entry; others use the pooled one. */
const MIN_PERIOD_ERRORS = 200;

function rawFits(samples: readonly HorizonSample[], lambda: number): RawFits {
  const pooled = toFit(fitTailShape(samples, lambda), totalWeight(samples));
  const periods = new Map<number, LevelFit>();
  for (const m of [...new Set(samples.map((s) => s.m))].sort((a, b) => a - b)) {
    const level = samples.filter((s) => s.m === m);
    if (level.length >= MIN_PERIOD_ERRORS) periods.set(m, toFit(fitTailShape(level, lambda), totalWeight(level)));
  }
  return { lambda, pooled, periods };
}

/** Band scales of a level at its (shrunk) ν₀: each band's own scale at that ν₀, shrunk towards the level's. */
function bandScales(level: readonly HorizonSample[], logScale: number, dof: number, lambda: number, priorErrors: number): number[] {
  return Array.from({ length: HORIZON_BANDS }, (_, b) => {
    const band = level.filter((s) => horizonBand(s.step, s.h) === b);
    if (band.length === 0 || !Number.isFinite(priorErrors)) return Math.exp(logScale);
    const own = Math.log(fitTailShape(band, lambda, dof).scale);
    return Math.exp(shrink(own, totalWeight(band), logScale, priorErrors));
  });
}

function tableFrom(samples: readonly HorizonSample[], raw: RawFits, priorErrors: number): TailShapeTable {
  const { lambda, pooled } = raw;
  const pooledDof = dofOf(pooled.inverseDof);
  const byPeriod: Record<string, BandedTailShape> = {};
  for (const [m, fit] of raw.periods) {
    const logScale = shrink(fit.logScale, fit.n, pooled.logScale, priorErrors);
    const dof = dofOf(shrink(fit.inverseDof, fit.n, pooled.inverseDof, priorErrors));
    byPeriod[String(m)] = { dof, seriesDofWeight: lambda, bandScales: bandScales(samples.filter((s) => s.m === m), logScale, dof, lambda, priorErrors) };
  }
  return {
    pooled: { dof: pooledDof, seriesDofWeight: lambda, bandScales: bandScales(samples, pooled.logScale, pooledDof, lambda, priorErrors) },
    byPeriod,
    priorErrors,
  };
}

/** The table from pooled pseudo-holdout errors, λ given (the pooled fit's, fitBestTailShape). */
export function fitShapeTable(samples: readonly HorizonSample[], priorErrors: number, lambda: number): TailShapeTable {
  return tableFrom(samples, rawFits(samples, lambda), priorErrors);
}

/** The banded shape a forecast of this period uses. */
export function shapeForPeriod(table: TailShapeTable, period: number): BandedTailShape {
  return table.byPeriod[String(Math.round(period))] ?? table.pooled;
}

/** Log density of a standardised error under the table. */
export function tableLogDensity(table: TailShapeTable, s: HorizonSample): number {
  const shape = shapeForPeriod(table, s.m);
  const scale = shape.bandScales[horizonBand(s.step, s.h)];
  return studentTLogDensity(s.z / scale, combinedDof(shape.dof, s.dof, shape.seriesDofWeight)) - Math.log(scale);
}

/**
 * Leave-series-out cross-validated log-likelihood of each prior weight on the grid (the series split
 * into `folds` groups by their order; a series' errors are never both fitted and scored), and the best.
 */
export function crossValidatedPrior(samples: readonly HorizonSample[], grid: readonly number[], lambda: number, folds = 5): { priorErrors: number; scores: number[] } {
  const ids = [...new Set(samples.map((s) => s.series))];
  const fold = new Map(ids.map((id, i) => [id, i % folds]));
  const scores = grid.map(() => 0);
  for (let f = 0; f < folds; f++) {
    const train = samples.filter((s) => fold.get(s.series) !== f);
    const held = samples.filter((s) => fold.get(s.series) === f);
    const raw = rawFits(train, lambda);
    grid.forEach((priorErrors, i) => {
      const table = tableFrom(train, raw, priorErrors);
      for (const s of held) scores[i] += (s.weight ?? 1) * tableLogDensity(table, s);
    });
  }
  let best = 0;
  scores.forEach((v, i) => { if (v > scores[best]) best = i; });
  return { priorErrors: grid[best], scores };
}

/** One pooled shape as a table: the same scale in every band, no per-period entries (pooledTable(POOLED_TAIL_SHAPE) is what forecasts apply). */
export function pooledTable(shape: TailShape): TailShapeTable {
  return { pooled: { dof: shape.dof, seriesDofWeight: shape.seriesDofWeight, bandScales: Array(HORIZON_BANDS).fill(shape.scale) }, byPeriod: {}, priorErrors: Infinity };
}

/** The forecast from a predictive distribution whose calibrated spread takes the table's shape for `period` (shapedForecast, with this table for the pooled shape). */
export function bandedForecast(d: PredictiveDistribution, levels: number[], table: TailShapeTable, period: number): ForecastResult {
  return forecastOfSpread(d, d.calibrated ? withBandedShape(d.chosen, shapeForPeriod(table, period)) : d.chosen, levels);
}

/** The forecast whose quantiles follow the banded shape: each step's spread times its band's scale, degrees of freedom combined with ν₀. */
export function withBandedShape(f: PointForecast, shape: BandedTailShape): PointForecast {
  const h = f.sd.length;
  return {
    ...f,
    sd: f.sd.map((v, k) => v * shape.bandScales[horizonBand(k + 1, h)]),
    dof: combinedDof(shape.dof, f.dof, shape.seriesDofWeight),
  };
}
