import { SeededRandom } from '../../../src/ml/core/random.js';
/** Seeded synthetic series for the forecasting tests. */

/** Mulberry32: small, fast, deterministic PRNG. */
export function rng(seed: number): () => number {
  // The stream of ml/core's PRNG started at `seed` exactly (mulberry32).
  const r = SeededRandom.fromState(seed);
  return () => r.next();
}

/** Standard normal draws (Box–Muller). */
export function gaussian(seed: number): () => number {
  const u = rng(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** The weekly profile used by the daily test series (Monday…Sunday offsets). */
export const WEEKLY = [12, 10, 9, 11, 14, -22, -34];

/** Daily series: level 200, slight trend, weekly profile, optional additive effects, Gaussian noise (sd). */
export function dailySeries(n: number, sd: number, seed: number, effect?: (t: number) => number): { y: Float64Array; truth: (t: number) => number } {
  const noise = gaussian(seed);
  const truth = (t: number) => 200 + 0.05 * t + WEEKLY[t % 7] + (effect ? effect(t) : 0);
  const y = new Float64Array(n);
  for (let t = 0; t < n; t++) y[t] = truth(t) + sd * noise();
  return { y, truth };
}
