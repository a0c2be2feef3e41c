/**
 * The one seeded holdout splitter: a session's 80/20 train/test split and the GBDT's early-stopping
 * validation rows both come from here. Classification splits each class separately so both parts
 * keep the class mix.
 */
import type { SeededRandom } from './random.js';

export interface Holdout {
  /** Rows kept for fitting, ascending. */
  kept: Int32Array;
  /** Rows held out, ascending. */
  heldOut: Int32Array;
}

export interface HoldoutOptions {
  /** Share of each stratum held out (rounded). */
  share: number;
  /** `groups[i]` = stratum (class index) of row i; undefined = one stratum. */
  groups?: ArrayLike<number>;
  /** Every stratum of 2+ rows keeps at least one row on each side (a class must be both trained and tested). */
  bothSides?: boolean;
  /**
   * Order in which strata draw from the stream: ascending group (default) or order of first
   * appearance. Each caller keeps the order its stored splits were made with.
   */
  strataOrder?: 'ascending' | 'first-seen';
}

export function stratifiedHoldout(n: number, random: SeededRandom, { share, groups, bothSides = false, strataOrder = 'ascending' }: HoldoutOptions): Holdout {
  const strata = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = groups ? groups[i] : 0;
    let rows = strata.get(g);
    if (!rows) strata.set(g, (rows = []));
    rows.push(i);
  }
  const kept: number[] = [];
  const heldOut: number[] = [];
  const order = [...strata.keys()];
  if (strataOrder === 'ascending') order.sort((a, b) => a - b);
  for (const g of order) {
    const rows = strata.get(g)!;
    random.shuffle(rows);
    let nHeld = Math.round(rows.length * share);
    if (bothSides) nHeld = rows.length < 2 ? 0 : Math.min(rows.length - 1, Math.max(1, nHeld));
    for (let i = 0; i < rows.length; i++) (i < nHeld ? heldOut : kept).push(rows[i]);
  }
  return { kept: Int32Array.from(kept).sort(), heldOut: Int32Array.from(heldOut).sort() };
}
