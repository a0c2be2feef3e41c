/**
 * A folder laid out like the shared benchmark data (classification/, regression/, folds/, reference/ …):
 * the shared copy that benchmarks read (bench/lib/benchdata.ts) or the small cut in test/fixtures/ that
 * tests read (test/support/fixtures.ts). Loaders of the protocol's tables take one of these.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv, type CsvTable } from './csv.js';

export interface DataRoot {
  dir: string;
  path(...parts: string[]): string;
  read(...parts: string[]): CsvTable;
}

export function dataRoot(dir: string): DataRoot {
  const path = (...parts: string[]) => resolve(dir, ...parts);
  return { dir, path, read: (...parts) => parseCsv(readFileSync(path(...parts), 'utf8')) };
}

/** The repository's root: the nearest folder above this module with a package.json (source or dist/). */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}
