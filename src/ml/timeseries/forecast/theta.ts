/**
 * The Theta method (Assimakopoulos & Nikolopoulos 2000, winner of M3) in the form of R's thetaf:
 * SES with drift equal to half the slope of the linear trend, on multiplicatively deseasonalised
 * data when the lag-m autocorrelation is significant at 90 %.
 */
import { isSeasonal, seasonalFigure } from './decompose.js';
import { etsForecast, fitEts } from './ets.js';
import { fitLine, isConstant } from './stats.js';
import type { PointForecast } from './types.js';
import { atForecastLevel } from './uncertainty.js';

/**
 * Multiplicative seasonal indices when y is seasonal at period m, else undefined. Zeros are allowed
 * (as in thetaf; tourism series have them), negative values and zero indices are not.
 */
export function thetaSeasonality(y: Float64Array, m: number): Float64Array | undefined {
  if (m <= 1 || y.length < 2 * m || isConstant(y) || !isSeasonal(y, m)) return undefined;
  for (let i = 0; i < y.length; i++) if (!(y[i] >= 0)) return undefined;
  const figure = seasonalFigure(y, m, 'multiplicative');
  return figure.every((v) => v > 1e-10 && Number.isFinite(v)) ? figure : undefined;
}

export function thetaForecast(y: Float64Array, m: number, h: number): PointForecast {
  const n = y.length;
  const figure = thetaSeasonality(y, m);
  const x = figure ? y.map((v, t) => v / figure[t % m]) : y;
  let scale = 0;
  for (let i = 0; i < n; i++) scale += Math.abs(x[i]);
  scale = scale / n || 1;
  const xs = x.map((v) => v / scale);
  const ses = fitEts(xs, 1, { error: 'A', trend: 'N', season: 'N' });
  const drift = fitLine(x)[1] / 2;
  const mean = new Float64Array(h);
  const sd = new Float64Array(h);
  const fitted = new Float64Array(n);
  if (!ses) {
    // Too short for SES: last value plus drift.
    for (let k = 0; k < h; k++) mean[k] = x[n - 1] + drift * (k + 1);
    fitted.fill(NaN);
  } else {
    const f = etsForecast(ses, h);
    const alpha = Math.max(1e-10, ses.alpha);
    const sigma = Math.sqrt(ses.sigma2) * scale;
    const offset = (1 - Math.pow(1 - alpha, n)) / alpha;
    for (let k = 0; k < h; k++) {
      mean[k] = f.mean[k] * scale + drift * (k + offset);
      sd[k] = sigma * Math.sqrt(k * alpha * alpha + 1);
    }
    for (let t = 0; t < n; t++) fitted[t] = ses.fitted[t] * scale;
    // The SES spread at the level of the (seasonally adjusted) forecast, before the seasonal indices scale it.
    sd.set(atForecastLevel(x, { mean, sd }).sd);
  }
  if (figure) {
    for (let k = 0; k < h; k++) {
      const s = figure[(n + k) % m];
      mean[k] *= s;
      sd[k] *= s;
    }
    for (let t = 0; t < n; t++) fitted[t] *= figure[t % m];
  }
  return { mean, sd, fitted };
}
