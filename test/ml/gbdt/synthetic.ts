/** Small seeded synthetic frames for behaviour tests whose correct answer is known by construction. */
import type { CategoricalColumn, Frame, NumericColumn } from '../../../src/ml/frame.js';

export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export function numeric(name: string, values: ArrayLike<number>): NumericColumn {
  return { kind: 'numeric', name, values: Float64Array.from(values) };
}

export function categorical(name: string, levels: string[], codes: ArrayLike<number>): CategoricalColumn {
  return { kind: 'categorical', name, levels, codes: Int32Array.from(codes) };
}

export function frame(...columns: (NumericColumn | CategoricalColumn)[]): Frame {
  return { nRows: columns[0].kind === 'numeric' ? columns[0].values.length : columns[0].codes.length, columns };
}

/** Column-wise row subset (same levels). */
export function rowsOf(f: Frame, rows: number[]): Frame {
  return {
    nRows: rows.length,
    columns: f.columns.map((c) =>
      c.kind === 'numeric'
        ? numeric(c.name, rows.map((r) => c.values[r]))
        : categorical(c.name, c.levels, rows.map((r) => c.codes[r])),
    ),
  };
}
