/** The GBDT speed benchmarks' data (bench/gbdt-speed.ts, bench/gbdt-threads.ts): shared sets and a synthetic one. */
import { benchdata } from './benchdata.js';
import { loadBenchTable } from './tabular-table.js';
import { encodeTarget, fitFrameEncoder } from '../../src/ml/encode.js';
import type { Frame, Task } from '../../src/ml/frame.js';

export interface Case {
  name: string;
  frame: Frame;
  y: Float64Array;
  task: Task;
  rounds: number;
}

export function benchCase(name: string, kind: 'classification' | 'regression', rounds: number): Case {
  const table = loadBenchTable(benchdata(), kind, name);
  const n = table.targetValues.length;
  const frame = fitFrameEncoder(table.specs, table.columns).encode(table.columns, n);
  const { task, y } = encodeTarget(table.targetValues, kind, table.classes);
  return { name, frame, y, task, rounds };
}

/** The synthetic set's rows unless a bench says otherwise (--synthetic-rows): the size issue 10 measures. */
export const SYNTHETIC_ROWS = 40_000;

/**
 * n × 30 uniform features (default 40k); the label depends on 20 of them, partly non-linearly, with
 * noise.
 */
export function syntheticCase(n = SYNTHETIC_ROWS): Case {
  let s = 42;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const columns = Array.from({ length: 30 }, (_, j) => ({
    kind: 'numeric' as const,
    name: `x${j}`,
    values: Float64Array.from({ length: n }, () => 2 * rnd() - 1),
  }));
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = rnd() - 0.5;
    for (let j = 0; j < 10; j++) z += columns[j].values[i] * (j % 3 === 0 ? 1 : -0.5) + 0.5 * Math.sin(3 * columns[j + 10].values[i]);
    y[i] = z > 0 ? 1 : 0;
  }
  return { name: `synthetic_${syntheticSize(n)}_x_30`, frame: { nRows: n, columns }, y, task: { kind: 'classification', classes: ['0', '1'] }, rounds: 200 };
}


/** 40000 → "40k", 1500000 → "1500k", 1234 → "1234". */
function syntheticSize(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

/** The value of --synthetic-rows in argv (a positive integer), or the default. */
export function syntheticRowsArg(argv: string[]): number {
  const i = argv.indexOf('--synthetic-rows');
  if (i < 0) return SYNTHETIC_ROWS;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 100) throw new Error('--synthetic-rows takes a whole number of rows (at least 100)');
  return n;
}
