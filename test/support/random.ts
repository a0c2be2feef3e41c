import { SeededRandom } from '../../src/ml/core/random.js';

/** Uniform [0, 1) numbers from seed: the stream of ml/core's PRNG (mulberry32) started at `seed` exactly. */
export function mulberry32(seed: number): () => number {
  const r = SeededRandom.fromState(seed);
  return () => r.next();
}
