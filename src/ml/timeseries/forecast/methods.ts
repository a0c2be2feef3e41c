/**
 * The candidate methods. Each maps (y, h) to a Gaussian forecast, taking care of seasonality:
 * a single period is modelled inside the method (ETS and ARIMA up to 24, Theta any); several
 * periods, or a longer one, are removed by decomposition first and added back (seasonal ETS and
 * ARIMA with long periods are slow and fragile).
 */
import { autoArimaForecast } from './arima.js';
import { autoEtsForecast, type EtsTrend } from './ets.js';
import { seasonalNaiveForecast } from './naive.js';
import { decomposeSeasonal, reseasonalise, usablePeriods } from './seasonalDecomposition.js';
import { thetaForecast } from './theta.js';
import type { PointForecast } from './types.js';
import { atForecastLevel, weightedCombination } from './uncertainty.js';

/** Longest period handled inside a seasonal ETS model (R's ets ignores seasonality beyond 24). */
const MAX_ETS_PERIOD = 24;

export interface MethodContext {
  period: number;
  extraPeriods: number[];
}

export type Method = (y: Float64Array, h: number, ctx: MethodContext) => PointForecast | undefined;

/** Forecasts y with `inner` after removing every usable seasonality unless a single short one can stay in the model. */
function withSeasonality(y: Float64Array, ctx: MethodContext, maxInModel: number, inner: (x: Float64Array, m: number) => PointForecast | undefined): PointForecast | undefined {
  const periods = usablePeriods([ctx.period, ...ctx.extraPeriods], y.length);
  if (periods.length === 0) return inner(y, 1);
  if (periods.length === 1 && periods[0] <= maxInModel) return inner(y, periods[0]);
  const parts = decomposeSeasonal(y, periods);
  const f = inner(parts.adjusted, 1);
  return f && reseasonalise(f, parts, y.length);
}

/** Additive-error spreads follow the forecast's level (atForecastLevel); a multiplicative-error ETS model's already do. */
const ets = (trends?: EtsTrend[]): Method => (y, h, ctx) =>
  withSeasonality(y, ctx, MAX_ETS_PERIOD, (x, m) => {
    const f = autoEtsForecast(x, m, h, trends);
    return f && f.name.startsWith('ETS(A') ? atForecastLevel(x, f) : f;
  });

export const BASE_METHODS: Record<string, Method> = {
  naive: (y, h) => atForecastLevel(y, seasonalNaiveForecast(y, 1, h)),
  snaive: (y, h, ctx) => (ctx.period > 1 && y.length >= ctx.period ? atForecastLevel(y, seasonalNaiveForecast(y, ctx.period, h)) : undefined),
  ets: ets(),
  damped: ets(['Ad']),
  theta: (y, h, ctx) => withSeasonality(y, ctx, Infinity, (x, m) => thetaForecast(x, m, h)),
  arima: (y, h, ctx) => withSeasonality(y, ctx, MAX_ETS_PERIOD, (x, m) => {
    const f = autoArimaForecast(x, m, h);
    return f && atForecastLevel(x, f);
  }),
};

/**
 * The combination (the M3 "comb" family): an equal-weight mean over method families — exponential
 * smoothing (mean of the AICc-chosen ETS and the damped-trend ETS, two views of one family, so one
 * vote), Theta and, without seasonality, ARIMA. Weighting families rather than members beat the
 * plain mean of ETS, damped and Theta on M3 (12.69 vs 12.74 sMAPE). Our seasonal ARIMA (fitted by
 * conditional sum of squares) is the weakest member on M3 seasonal series, where it dragged the
 * mean down, and costs more than everything else together; without seasonality it is cheap and
 * adds a different view of the trend.
 */
export function combFamilies(ctx: MethodContext): string[][] {
  const seasonal = ctx.period > 1 || ctx.extraPeriods.length > 0;
  const families = [['ets', 'damped'], ['theta']];
  if (!seasonal) families.push(['arima']);
  return families;
}

/** Combines the available members: equal weight per family, split equally inside a family (see weightedCombination for the spread). */
export function combine(y: Float64Array, families: string[][], forecasts: Map<string, PointForecast>): PointForecast | undefined {
  const members: PointForecast[] = [];
  const weights: number[] = [];
  for (const family of families) {
    const present = family.filter((m) => forecasts.has(m));
    for (const m of present) {
      members.push(forecasts.get(m)!);
      weights.push(1 / present.length);
    }
  }
  return members.length ? weightedCombination(y, members, weights) : undefined;
}
