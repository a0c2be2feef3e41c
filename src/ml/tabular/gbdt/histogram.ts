/**
 * Gradient histograms: per bin (sum grad, sum hess), interleaved as hist[2*slot], hist[2*slot+1], where
 * slot = binOffset[feature] + bin. Like LightGBM, no row counts are accumulated: a bin's count is
 * estimated as its hessian × (leaf rows / leaf hessian), exact whenever the hessian is constant.
 * Histograms are built by the wasm kernel (training-memory.ts); subtraction stays here.
 */
import type { FeatureLayout } from './binned-data.js';

export const HIST_STRIDE = 2;

/** parent -= child over the given features that may still split (splittable[f] = 1): the sibling's histogram without touching its rows. */
export function subtractHistogram(parent: Float64Array, child: Float64Array, layout: FeatureLayout, features: Int32Array, splittable: Uint8Array): void {
  const binOffset = layout.binOffset;
  for (let fi = 0; fi < features.length; fi++) {
    const f = features[fi];
    if (splittable[f] === 0) continue;
    const end = binOffset[f + 1] * HIST_STRIDE;
    for (let s = binOffset[f] * HIST_STRIDE; s < end; s++) parent[s] -= child[s];
  }
}
