// One empty, initialised embedded cluster per test run: every fresh embedded store the tests start
// (in-process servers, `sibyl` child processes, the CLI) is copied from it instead of running initdb
// (about 8–10 CPU s each; see src/store/embedded-template.ts). An already set SIBYL_EMBEDDED_TEMPLATE is kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Sets process.env.SIBYL_EMBEDDED_TEMPLATE (inherited by the test processes); returns the clean-up. */
export async function prepareEmbeddedTemplate() {
  if (process.env.SIBYL_EMBEDDED_TEMPLATE) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-embedded-template-'));
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite(dir);
  await pg.waitReady;
  await pg.close();
  process.env.SIBYL_EMBEDDED_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
