/**
 * Seeded cross-validation fold assignment. Stratified: each class's rows are shuffled and dealt
 * round-robin, continuing where the previous class stopped, so fold sizes stay even and a class
 * with fewer rows than folds simply appears in fewer folds.
 */
import { SeededRandom } from '../../core/random.js';

/** Fold number (0..folds−1) per row. */
export function stratifiedFolds(yIdx: Int32Array, nClasses: number, folds: number, seed: number): Int32Array {
  const rng = new SeededRandom(seed);
  const byClass: number[][] = Array.from({ length: nClasses }, () => []);
  for (let i = 0; i < yIdx.length; i++) byClass[yIdx[i]].push(i);
  const fold = new Int32Array(yIdx.length);
  let next = 0;
  for (const rows of byClass) {
    const order = Int32Array.from(rows);
    rng.shuffle(order);
    for (const r of order) {
      fold[r] = next;
      next = (next + 1) % folds;
    }
  }
  return fold;
}

export function shuffledFolds(n: number, folds: number, seed: number): Int32Array {
  const order = Int32Array.from({ length: n }, (_, i) => i);
  new SeededRandom(seed).shuffle(order);
  const fold = new Int32Array(n);
  order.forEach((r, j) => (fold[r] = j % folds));
  return fold;
}

/** Training and held-out rows of one fold. */
export function foldRows(fold: Int32Array, k: number): { train: Int32Array; test: Int32Array } {
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < fold.length; i++) (fold[i] === k ? test : train).push(i);
  return { train: Int32Array.from(train), test: Int32Array.from(test) };
}
