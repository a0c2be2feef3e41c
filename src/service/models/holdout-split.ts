/**
 * The 80/20 train/test split of a model session (compat-notes §6). Classification splits each
 * class separately so the test set keeps the class mix; the seed comes from the session id, so a
 * session that runs again gets the same split.
 */
import { stratifiedHoldout } from '../../ml/core/holdout.js';
import { SeededRandom } from '../../ml/core/random.js';

export const TEST_SHARE = 0.2;

export interface Split {
  train: Int32Array;
  test: Int32Array;
}

/** `groups[i]` = stratum of row i (class index), or undefined for a plain shuffled split of n rows. */
export function holdoutSplit(n: number, seed: number, groups?: ArrayLike<number>): Split {
  // The session split's stream starts at the seed itself and its strata go in order of first
  // appearance, as before the shared PRNG: a session run again gets the split it had.
  const { kept, heldOut } = stratifiedHoldout(n, SeededRandom.fromState(seed), { share: TEST_SHARE, groups, bothSides: true, strataOrder: 'first-seen' });
  return { train: kept, test: heldOut };
}
