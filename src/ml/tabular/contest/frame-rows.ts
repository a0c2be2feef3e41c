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

/** The rows of `a` followed by those of `b`: two frames of the same columns (one encoder's). */
export function concatRows(a: Frame, b: Frame): Frame {
  const columns: FeatureColumn[] = a.columns.map((c, j) => {
    const d = b.columns[j];
    if (d.name !== c.name || d.kind !== c.kind) throw new Error(`column ${j} differs: ${c.name} (${c.kind}) and ${d.name} (${d.kind})`);
    if (c.kind === 'numeric') return { kind: 'numeric', name: c.name, values: joined(c.values, (d as typeof c).values) };
    return { kind: 'categorical', name: c.name, levels: c.levels, codes: joined(c.codes, (d as typeof c).codes) };
  });
  return { nRows: a.nRows + b.nRows, columns };
}

export function joined<T extends Float64Array | Int32Array>(a: T, b: T): T {
  const out = new (a.constructor as { new (n: number): T })(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function pick<T extends Float64Array | Int32Array>(a: T, rows: Int32Array): T {
  const out = new (a.constructor as { new (n: number): T })(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = a[rows[i]];
  return out;
}
