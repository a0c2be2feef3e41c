/** Seeded split of rows into training and early-stopping validation parts (stratified by class). */
import { stratifiedHoldout } from '../../core/holdout.js';
import { Rng } from './rng.js';

export interface Holdout {
  train: Int32Array;
  valid: Int32Array;
}

/** `classes` = number of classes (target = class index), or 0 for regression (plain random split). */
export function holdoutSplit(target: Float64Array, classes: number, fraction: number, seed: number): Holdout {
  const { kept, heldOut } = stratifiedHoldout(target.length, new Rng(seed), { share: fraction, groups: classes > 0 ? target : undefined });
  return { train: kept, valid: heldOut };
}
