/**
 * The feature columns a tree model was trained on, and their values in a prediction frame as numbers:
 * matched by name (an absent column is all missing) and, for categoricals, by level name, so a frame
 * encoded with other level lists still reaches the codes the trees were trained on.
 */
import type { Frame } from '../../frame.js';
import { numericValues } from './binning.js';

export interface InputColumn {
  name: string;
  kind: 'numeric' | 'categorical';
  levels?: string[];
}

export function describeColumns(frame: Frame): InputColumn[] {
  return frame.columns.map((c) =>
    c.kind === 'numeric' ? { name: c.name, kind: 'numeric' } : { name: c.name, kind: 'categorical', levels: [...c.levels] },
  );
}

export function alignedValues(inputs: InputColumn[], frame: Frame): Float64Array[] {
  const byName = new Map(frame.columns.map((c) => [c.name, c]));
  return inputs.map((input) => {
    const col = byName.get(input.name);
    if (!col) return new Float64Array(frame.nRows).fill(NaN);
    if (col.kind === 'numeric' || input.kind === 'numeric' || sameLevels(col.levels, input.levels!)) {
      return numericValues(col);
    }
    const trainedCode = new Map(input.levels!.map((l, i) => [l, i]));
    const remap = col.levels.map((l) => trainedCode.get(l) ?? NaN);
    return Float64Array.from(col.codes, (code) => (code < 0 ? NaN : remap[code]));
  });
}

function sameLevels(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((l, i) => l === b[i]);
}
