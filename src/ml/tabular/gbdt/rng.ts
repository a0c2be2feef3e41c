import { SeededRandom } from '../../core/random.js';

/** The GBDT's own stream of the shared PRNG: the only randomness in training, so a seed fixes the model. */
export class Rng extends SeededRandom {
  constructor(seed: number) {
    super(seed, 0x5bd1e995);
  }
}
