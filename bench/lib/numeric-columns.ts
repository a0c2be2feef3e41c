/**
 * Every numeric column of every CSV file under a folder, as read for the check of codes for missing
 * values (src/domain/missing-codes.ts): a column counts when all its cells but the empty ones and NA
 * or ? are numbers, and at least 12 are. Used by bench:missing-codes and by its test on the fixtures.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from './csv.js';

export interface NumericColumn {
  file: string;
  name: string;
  values: number[];
}

function csvFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? csvFiles(p) : p.endsWith('.csv') ? [p] : [];
  });
}

export function numericColumns(dir: string): NumericColumn[] {
  return csvFiles(dir).flatMap((file) => {
    const table = parseCsv(readFileSync(file, 'utf8'));
    return table.header.flatMap((name, j) => {
      const cells = table.rows.map((r) => r[j] ?? '').filter((c) => c !== '' && c !== 'NA' && c !== '?');
      const values = cells.map(Number);
      return values.length >= 12 && values.every((x) => Number.isFinite(x)) ? [{ file, name, values }] : [];
    });
  });
}
