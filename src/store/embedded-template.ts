import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A new embedded store runs PostgreSQL's initdb inside WebAssembly, about 8–10 CPU seconds, while
 * opening an existing cluster takes about one. Test runners start hundreds of fresh stores, so they
 * keep one empty, initialised cluster (SIBYL_EMBEDDED_TEMPLATE) and each new store starts as a copy
 * of it. Migrations still run on the copy as on any new store: the template holds no schema.
 */

/** PostgreSQL writes PG_VERSION at the top of every initialised cluster. */
export function isCluster(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/** What is wrong with a template directory, or undefined when it can be copied from. */
export function templateProblem(dir: string): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return 'is not a directory';
  if (!isCluster(dir)) return 'holds no initialised embedded cluster (no PG_VERSION file)';
  return undefined;
}

/** Copies the template into pgDir when pgDir holds no cluster yet and nothing else. */
export function seedFromTemplate(pgDir: string, template: string): void {
  if (isCluster(pgDir)) return;
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) return; // not ours to fill: PGlite says what is wrong with it
  cpSync(template, pgDir, { recursive: true });
}
