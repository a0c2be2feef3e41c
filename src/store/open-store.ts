import { join } from 'node:path';
import type { Config } from '../config.js';
import { openDb, type Db } from './db.js';
import { lockEmbeddedStore } from './embedded-lock.js';
import { seedFromTemplate } from './embedded-template.js';
import { makeDataDir } from './data-dir.js';

/** DATABASE_URL names a server that cannot be reached or a database that cannot be entered. */
export class DatabaseUnreachable extends Error {
  constructor(databaseUrl: string, cause: Error & { code?: string }) {
    super(`cannot open the PostgreSQL database of DATABASE_URL (${where(databaseUrl)}): ${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ''}`);
    this.name = 'DatabaseUnreachable';
  }
}

/**
 * Failures of reaching the server or entering the database, as opposed to failures once in: network
 * errors, and PostgreSQL's invalid authorization (class 28), unknown database (3D000) and a server
 * not yet accepting connections (57P03).
 */
const UNREACHABLE = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|28...|3D000|57P03)$/;

/** Host, port and database of a connection URL, never its password. */
function where(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || 'local socket'}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'unparsable URL';
  }
}

/** Opens the configured store: PostgreSQL when DATABASE_URL is set, else PGlite under SIBYL_DATA_DIR (locked to this process). */
export async function openStore(config: Config): Promise<{ db: Db; close: () => Promise<void> }> {
  if (config.databaseUrl) {
    const databaseUrl = config.databaseUrl;
    const db = await openDb({ databaseUrl }).catch((e: Error & { code?: string }) => {
      throw e instanceof Error && UNREACHABLE.test(e.code ?? '') ? new DatabaseUnreachable(databaseUrl, e) : e;
    });
    return { db, close: () => db.close() };
  }
  makeDataDir(config.dataDir);
  const unlock = lockEmbeddedStore(config.dataDir);
  try {
    const pgDir = join(config.dataDir, 'pg');
    if (config.embeddedTemplate) seedFromTemplate(pgDir, config.embeddedTemplate);
    const db = await openDb({ dataDir: pgDir });
    return { db, close: async () => { await db.close(); unlock(); } };
  } catch (e) {
    unlock();
    throw e;
  }
}
