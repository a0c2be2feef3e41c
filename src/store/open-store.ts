import { join } from 'node:path';
import type { Config } from '../config.js';
import { openDb, type Db } from './db.js';
import { lockEmbeddedStore } from './embedded-lock.js';
import { seedFromTemplate } from './embedded-template.js';

/** Opens the configured store: PostgreSQL when DATABASE_URL is set, else PGlite under SIBYL_DATA_DIR (locked to this process). */
export async function openStore(config: Config): Promise<{ db: Db; close: () => Promise<void> }> {
  if (config.databaseUrl) {
    const db = await openDb({ databaseUrl: config.databaseUrl });
    return { db, close: () => db.close() };
  }
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
