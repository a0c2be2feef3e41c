import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded store (PGlite) is a directory that only one process may open. The owner writes
 * its pid here; another process (a CLI call while the server runs) is told plainly who holds it.
 */
export class EmbeddedStoreBusy extends Error {}

/** `dataDir` exists already (data-dir.ts makes it). */
export function lockEmbeddedStore(dataDir: string): () => void {
  const file = join(dataDir, 'sibyl.pid');
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid && pid !== process.pid && alive(pid)) {
      throw new EmbeddedStoreBusy(
        `The embedded store in ${dataDir} is in use by process ${pid} (a running Sibyl server). ` +
        'Stop it first, or run Sibyl on PostgreSQL (DATABASE_URL), where the CLI works alongside running servers.');
    }
  } catch (e) {
    if (e instanceof EmbeddedStoreBusy) throw e;
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
    } catch { /* already gone */ }
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
