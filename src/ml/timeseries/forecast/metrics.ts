/** Accuracy measures of the M3/M4 competitions. */

/** sMAPE in percent (M3 definition); a point with y = f = 0 contributes 0. */
export function smape(actual: ArrayLike<number>, fc: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i]) + Math.abs(fc[i]);
    s += d === 0 ? 0 : (200 * Math.abs(actual[i] - fc[i])) / d;
  }
  return s / actual.length;
}

export function mae(actual: ArrayLike<number>, fc: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < actual.length; i++) s += Math.abs(actual[i] - fc[i]);
  return s / actual.length;
}

/** In-sample mean absolute seasonal difference (lag 1 when m = 1 or the series is no longer than m). */
export function maseScale(train: ArrayLike<number>, m: number): number {
  const lag = m > 1 && train.length > m ? m : 1;
  let s = 0;
  for (let t = lag; t < train.length; t++) s += Math.abs(train[t] - train[t - lag]);
  return train.length > lag ? s / (train.length - lag) : NaN;
}

/** MASE; NaN when the in-sample scale is 0 (undefined). */
export function mase(train: ArrayLike<number>, actual: ArrayLike<number>, fc: ArrayLike<number>, m: number): number {
  const scale = maseScale(train, m);
  return scale > 0 ? mae(actual, fc) / scale : NaN;
}
