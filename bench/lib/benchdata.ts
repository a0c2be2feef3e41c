/**
 * Access to the shared benchmark data (real public data with fixed folds and reference results) that
 * benchmarks compare against: $SIBYL_BENCHDATA, else ../shared/benchdata beside the repository.
 * Tests do not use it; they read the small cut in test/fixtures/.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CsvTable } from './csv.js';
import { dataRoot, repositoryRoot, type DataRoot } from './data-root.js';

let root: DataRoot | undefined;

/** The benchmark data; when it is not there, says so and how to point at it, and ends the benchmark. */
export function benchdata(): DataRoot {
  if (root) return root;
  const configured = process.env.SIBYL_BENCHDATA;
  const dir = configured ? resolve(configured) : resolve(repositoryRoot(), '../shared/benchdata');
  if (!existsSync(resolve(dir, 'tabular_catalog.csv'))) {
    console.error([
      `The shared benchmark data is missing: no ${resolve(dir, 'tabular_catalog.csv')}`,
      configured ? `(looked in SIBYL_BENCHDATA=${configured}).` : '(looked in ../shared/benchdata beside the repository, the default).',
      'Benchmarks compare our figures with reference results on that data (public data sets, fixed folds, references).',
      'Point SIBYL_BENCHDATA at a copy, e.g. `SIBYL_BENCHDATA=/path/to/shared/benchdata npm run bench:tabular`.',
      'npm test does not need it: tests use the small fixtures in test/fixtures/.',
    ].join('\n'));
    process.exit(2);
  }
  root = dataRoot(dir);
  return root;
}

export function benchPath(...parts: string[]): string {
  return benchdata().path(...parts);
}

export function readCsv(...parts: string[]): CsvTable {
  return benchdata().read(...parts);
}

export { column, parseCsv, seriesValues, type CsvTable } from './csv.js';
