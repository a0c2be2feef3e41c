import type { FeatureColumn, Frame } from '../../frame.js';

/** The given rows of a frame (and of a per-row array), in that order. */
export function selectRows(frame: Frame, rows: Int32Array): Frame {
  const columns: FeatureColumn[] = frame.columns.map((c) =>
    c.kind === 'numeric'
      ? { kind: 'numeric', name: c.name, values: pick(c.values, rows) }
      : { kind: 'categorical', name: c.name, levels: c.levels, codes: pick(c.codes, rows) },
  );
  return { nRows: rows.length, columns };
}

export function pick<T extends Float64Array | Int32Array>(a: T, rows: Int32Array): T {
  const out = new (a.constructor as { new (n: number): T })(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = a[rows[i]];
  return out;
}
