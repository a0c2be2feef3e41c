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

/** The rows of `a` followed by those of `b`: two frames of the same columns (one encoder's). */
export function concatRows(a: Frame, b: Frame): Frame {
  const columns: FeatureColumn[] = a.columns.map((c, j) => {
    const other = b.columns[j];
    if (other.name !== c.name || other.kind !== c.kind) throw new Error(`column ${j} differs: ${c.name} and ${other.name}`);
    return c.kind === 'numeric'
      ? { kind: 'numeric', name: c.name, values: concat(c.values, (other as typeof c).values) }
      : { kind: 'categorical', name: c.name, levels: c.levels, codes: concat(c.codes, (other as typeof c).codes) };
  });
  return { nRows: a.nRows + b.nRows, columns };
}

export function concat<T extends Float64Array | Int32Array>(a: T, b: T): T {
  const out = new (a.constructor as { new (n: number): T })(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
