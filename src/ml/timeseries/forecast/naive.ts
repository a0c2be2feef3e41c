/** Naive and seasonal naive benchmarks, with the random-walk forecast variance. */
import type { PointForecast } from './types.js';

export function seasonalNaiveForecast(y: Float64Array, m: number, h: number): PointForecast {
  const n = y.length;
  const lag = m > 1 && n >= m ? m : 1;
  let sse = 0;
  let count = 0;
  const fitted = new Float64Array(n).fill(NaN);
  for (let t = lag; t < n; t++) {
    fitted[t] = y[t - lag];
    sse += (y[t] - y[t - lag]) ** 2;
    count++;
  }
  const sigma = count > 0 ? Math.sqrt(sse / count) : 0;
  const mean = new Float64Array(h);
  const sd = new Float64Array(h);
  for (let k = 0; k < h; k++) {
    mean[k] = y[n - lag + (k % lag)];
    sd[k] = sigma * Math.sqrt(Math.floor(k / lag) + 1);
  }
  return { mean, sd, fitted };
}
