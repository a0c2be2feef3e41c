/**
 * LightGBM beside our GBDT in the speed benchmarks (bench/gbdt-speed.ts, bench/gbdt-threads.ts): the
 * Python that has it, and a case's rows as the CSV its scripts read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Case } from './gbdt-cases.js';
import { pythonWith } from './python.js';

export const LIGHTGBM_MODULES = ['lightgbm', 'pandas'];

/** The benches' Python (bench/lib/python.ts) when it imports lightgbm and pandas; else undefined. */
export function pythonWithLightgbm(): string | undefined {
  return pythonWith(LIGHTGBM_MODULES);
}

/** The case's rows and target (column __target__) as CSV; categorical levels prefixed so that pandas keeps them text. */
export function caseCsv(c: Case): string {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const header = [...c.frame.columns.map((col) => quote(col.name)), '__target__'].join(',');
  const lines = [header];
  for (let r = 0; r < c.frame.nRows; r++) {
    const cells = c.frame.columns.map((col) => {
      if (col.kind === 'numeric') return Number.isNaN(col.values[r]) ? '' : String(col.values[r]);
      const code = col.codes[r];
      // A letter prefix keeps pandas from reading numeric-looking levels as numbers.
      return code < 0 ? '' : quote(`L_${col.levels[code]}`);
    });
    lines.push([...cells, String(c.y[r])].join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * The Python preamble of a LightGBM script: reads the CSV at sys.argv[1] into df (categorical columns as
 * pandas categories) and y, and sets Model to the classifier or regressor for sys.argv[2].
 */
export const LIGHTGBM_PREAMBLE = `
import json, sys, time
import pandas as pd, lightgbm as lgb
path, task = sys.argv[1], sys.argv[2]
df = pd.read_csv(path, keep_default_na=False, na_values=[''])
y = df.pop('__target__')
for c in df.columns:
    if not pd.api.types.is_numeric_dtype(df[c]):
        df[c] = df[c].astype('category')
Model = lgb.LGBMClassifier if task == 'classification' else lgb.LGBMRegressor
`;

/** Runs `script` (after LIGHTGBM_PREAMBLE) on the case's CSV in dir with the extra arguments; its output parsed as JSON. */
export function runLightgbm<T>(python: string, c: Case, dir: string, script: string, args: string[]): T {
  const csv = join(dir, `${c.name}.csv`);
  if (!existsSync(csv)) writeFileSync(csv, caseCsv(c));
  const file = join(dir, 'lightgbm_script.py');
  writeFileSync(file, LIGHTGBM_PREAMBLE + script);
  const out = execFileSync(python, [file, csv, c.task.kind, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out) as T;
}
