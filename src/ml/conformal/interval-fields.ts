/** How prediction intervals are named on records and scored. */

/** Levels a regression session's result rows carry. */
export const SESSION_INTERVAL_LEVELS = [0.8, 0.95];

/** `<target>:lower:<level>` / `<target>:upper:<level>`, the level as given (0.95 → "0.95"). */
export function intervalField(target: string, side: 'lower' | 'upper', level: number): string {
  return `${target}:${side}:${level}`;
}

/** Share of truths inside [lower, upper]. */
export function intervalCoverage(y: ArrayLike<number>, lower: ArrayLike<number>, upper: ArrayLike<number>): number {
  let inside = 0;
  for (let i = 0; i < y.length; i++) if (y[i] >= lower[i] && y[i] <= upper[i]) inside++;
  return y.length ? inside / y.length : NaN;
}

export function meanWidth(lower: ArrayLike<number>, upper: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < lower.length; i++) sum += upper[i] - lower[i];
  return lower.length ? sum / lower.length : NaN;
}

/**
 * Mean interval score of central intervals at `level` (Gneiting & Raftery 2007): width + 2/α × the
 * distance by which the truth falls outside; a proper score, lower is better.
 */
export function meanIntervalScore(y: ArrayLike<number>, lower: ArrayLike<number>, upper: ArrayLike<number>, level: number): number {
  let sum = 0;
  for (let i = 0; i < y.length; i++) sum += intervalScore(upper[i] - lower[i], Math.max(0, lower[i] - y[i]) + Math.max(0, y[i] - upper[i]), level);
  return y.length ? sum / y.length : NaN;
}

/** The interval score of one central interval at `level`: its width, and 2/α × how far the truth lies outside it. */
export function intervalScore(width: number, outside: number, level: number): number {
  return width + (2 / (1 - level)) * outside;
}
