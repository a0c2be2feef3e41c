/**
 * Sampling for very large training sets. Choosing among candidates does not need every row: the
 * contest's cross-validation ranks them on a stratified sample, and the champion is then refitted
 * on all rows (bench/contest-sampling.ts shows the final holdout score stays within noise of a
 * contest on every row). The sample depends only on the data and the seed.
 */
import { SeededRandom } from '../../core/random.js';
import type { Task } from '../../frame.js';

/** Training rows above which the contest runs on a sample of this many. */
export const CONTEST_SAMPLE_ROWS = 100_000;

/**
 * Rows (ascending) of a sample of `size` rows; classification keeps each class's share (every
 * class keeps at least min(its count, 20) rows, so rare classes stay learnable). Undefined when
 * there are no more rows than `size`.
 */
export function contestSample(target: Float64Array, task: Task, size: number, seed: number): Int32Array | undefined {
  const n = target.length;
  if (n <= size) return undefined;
  const rng = new SeededRandom(seed ^ 0x5a3c9e1);
  const strata: number[][] = [];
  if (task.kind === 'classification') {
    for (let k = 0; k < task.classes.length; k++) strata.push([]);
    for (let i = 0; i < n; i++) strata[target[i]!]!.push(i);
  } else {
    strata.push(Array.from({ length: n }, (_, i) => i));
  }
  const picked: number[] = [];
  for (const rows of strata) {
    if (rows.length === 0) continue;
    const take = Math.min(rows.length, Math.max(Math.min(rows.length, 20), Math.round((rows.length * size) / n)));
    const order = Int32Array.from(rows);
    // A partial Fisher–Yates: the first `take` of a seeded shuffle.
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(rng.next() * (order.length - i));
      const t = order[i]!; order[i] = order[j]!; order[j] = t;
      picked.push(order[i]!);
    }
  }
  return Int32Array.from(picked.sort((a, b) => a - b));
}
