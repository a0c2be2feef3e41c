/**
 * The forest's view of a Frame: a dense column-major matrix without missing values.
 * Numeric: missing → training median. Categorical: the level's code used as a number (levels are
 * sorted, so a split separates alphabetical ranges), missing or unseen → -1, a value of its own.
 */
import { medianOfSorted } from '../../core/statistics.js';
import type { Frame } from '../../frame.js';

export type FeatureInput =
  | { kind: 'numeric'; name: string; median: number }
  | { kind: 'categorical'; name: string; levels: string[] };

export function fitFeatureInputs(frame: Frame): FeatureInput[] {
  return frame.columns.map((col) => {
    if (col.kind === 'categorical') return { kind: 'categorical', name: col.name, levels: col.levels };
    const present = col.values.filter((v) => !Number.isNaN(v)).sort();
    const m = present.length;
    const median = m === 0 ? 0 : medianOfSorted(present);
    return { kind: 'numeric', name: col.name, median };
  });
}

/** Column-major n × d matrix; columns matched by name, an absent column counts as missing. */
export function featureMatrix(inputs: FeatureInput[], frame: Frame): Float64Array {
  const n = frame.nRows;
  const x = new Float64Array(n * inputs.length);
  const byName = new Map(frame.columns.map((c) => [c.name, c]));
  inputs.forEach((input, j) => {
    const col = byName.get(input.name);
    const out = x.subarray(j * n, (j + 1) * n);
    if (input.kind === 'numeric') {
      const values = col?.kind === 'numeric' ? col.values : undefined;
      for (let i = 0; i < n; i++) {
        const v = values ? values[i] : NaN;
        out[i] = Number.isNaN(v) ? input.median : v;
      }
      return;
    }
    if (col?.kind !== 'categorical') {
      out.fill(-1);
      return;
    }
    // Re-map through level names so a frame encoded with other level lists still lines up.
    const trainingIndex = new Map(input.levels.map((l, k) => [l, k]));
    const code = col.levels.map((l) => trainingIndex.get(l) ?? -1);
    for (let i = 0; i < n; i++) out[i] = col.codes[i] < 0 ? -1 : code[col.codes[i]];
  });
  return x;
}
