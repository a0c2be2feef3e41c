/** Seeded split of rows into training and early-stopping validation parts (stratified by class). */
import { Rng } from './rng.js';

export interface Holdout {
  train: Int32Array;
  valid: Int32Array;
}

/** `classes` = number of classes (target = class index), or 0 for regression (plain random split). */
export function holdoutSplit(target: Float64Array, classes: number, fraction: number, seed: number): Holdout {
  const rng = new Rng(seed);
  const groups: number[][] = classes > 0 ? Array.from({ length: classes }, () => []) : [[]];
  for (let i = 0; i < target.length; i++) groups[classes > 0 ? target[i] : 0].push(i);
  const train: number[] = [];
  const valid: number[] = [];
  for (const g of groups) {
    const rows = Int32Array.from(g);
    rng.shuffle(rows);
    const nValid = Math.round(rows.length * fraction);
    for (let i = 0; i < rows.length; i++) (i < nValid ? valid : train).push(rows[i]);
  }
  return { train: Int32Array.from(train).sort(), valid: Int32Array.from(valid).sort() };
}
