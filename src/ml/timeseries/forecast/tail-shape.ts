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
 * maximum likelihood on the pooled pseudo-holdout errors (fitBestTailShape in bench/lib/tail-shape-fit.ts;
 * bench/forecast-tail-shape.ts runs the procedure). On M3 λ came out at 0.2: d, from one or two
 * backtest windows, says little about how heavy a series' tails are.
 *
 * Forecasts apply the one pooled shape (withTailShape, from forecast.ts). A shape by seasonal period
 * and horizon band was fitted too and not adopted: it lives with the benchmarks (bench/lib/tail-shape-table.ts,
 * bench/lib/m3-period-band-table.ts says why).
 */
import type { PointForecast } from './types.js';

export interface TailShape {
  /** Multiplier of the calibrated spread. */
  scale: number;
  /** Pooled degrees of freedom ν₀ (Infinity: no extra tail weight). */
  dof: number;
  /** Weight λ of each series' own degrees of freedom d in 1/ν = 1/ν₀ + λ/d (0: ν₀ replaces them). */
  seriesDofWeight: number;
}

/** Degrees of freedom below this are taken as this, as in the quantiles (quantiles.ts). */
export const MIN_DOF = 2;

/** The degrees of freedom of the combined scale mixture: 1/ν = 1/ν₀ + λ/d. */
export function combinedDof(pooled: number, own: number | undefined, weight = 1): number {
  const inverse = 1 / pooled + (own === undefined || weight === 0 ? 0 : weight / own);
  return inverse > 0 ? Math.max(1 / inverse, MIN_DOF) : Infinity;
}

/** The forecast whose quantiles follow the shape: every step's spread times s, its degrees of freedom combined with ν₀. */
export function withTailShape(f: PointForecast, shape: TailShape): PointForecast {
  return { ...f, sd: f.sd.map((v) => v * shape.scale), dof: combinedDof(shape.dof, f.dof, shape.seriesDofWeight) };
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
