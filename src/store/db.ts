import { Kysely, PostgresDialect } from 'kysely';
import type { Schema } from './schema.js';
import type { ConnectPriority, CopyFormat, QueryOptions, SqlClient, SqlPool } from './sql-pool.js';
import { PgLitePool } from './pglite-pool.js';
import { PostgresPool } from './postgres-pool.js';
import { migrate } from './migrate.js';
import { rowsToCopyText } from './copy-text.js';

/**
 * The database handle every store module receives: Kysely for typed queries, the raw pool for
 * bulk loads. `tx` runs a function in one transaction on one connection; everything it does
 * (typed queries and bulk loads alike) commits or rolls back together.
 */
export class Db {
  readonly kysely: Kysely<Schema>;

  constructor(readonly pool: SqlPool, client?: SqlClient, private readonly priority: ConnectPriority = 'interactive') {
    const source = client
      ? { connect: async () => ({ query: client.query.bind(client), release: () => {} }), end: async () => {} }
      // The pool is ended by close(), not by Kysely: Kysely only ends a driver it has used.
      : { connect: () => pool.connect(priority), end: async () => {} };
    this.kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: source as never }) });
    this.client = client;
  }

  private readonly client: SqlClient | undefined;

  get kind(): SqlPool['kind'] {
    return this.pool.kind;
  }

  /**
   * The same database for bulk work (an upload's steps, a session's reads, collecting garbage):
   * where connections are scarce (the embedded store has one) it goes after interactive requests.
   */
  bulk(): Db {
    return this.client || this.priority === 'bulk' ? this : new Db(this.pool, undefined, 'bulk');
  }

  /** Runs fn in a transaction. Nested calls join the outer transaction. */
  async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.client) return fn(this);
    const client = await this.pool.connect(this.priority);
    const txDb = new Db(this.pool, client);
    try {
      await client.query('BEGIN');
      const result = await fn(txDb);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /**
   * Bulk-loads rows in COPY text format (copy-text.ts), or binary (copy-binary.ts) when `format`
   * says so; inside `tx` it joins that transaction. Outside, the COPY is its own transaction (one
   * statement is atomic): one round trip to the database instead of BEGIN, COPY, COMMIT.
   */
  async copyIn(table: string, columns: readonly string[], data: Uint8Array | string, format: CopyFormat = 'text'): Promise<void> {
    if (this.client) return this.pool.copyIn(this.client, table, columns, data, format);
    const c = await this.pool.connect(this.priority);
    try {
      await this.pool.copyIn(c, table, columns, data, format);
    } finally {
      c.release();
    }
  }

  /** Bulk-loads rows given as values (null = SQL NULL). */
  copyRows(table: string, columns: readonly string[], rows: readonly (readonly (string | null)[])[]): Promise<void> {
    return rows.length === 0 ? Promise.resolve() : this.copyIn(table, columns, rowsToCopyText(rows));
  }

  /** Raw SQL for the few statements the query builder cannot express well (bulk upserts). */
  async query<R = Record<string, unknown>>(sql: string, params: readonly unknown[] = [], opts?: QueryOptions): Promise<R[]> {
    if (this.client) return (await this.client.query<R>(sql, params, opts)).rows;
    const c = await this.pool.connect(this.priority);
    try {
      return (await c.query<R>(sql, params, opts)).rows;
    } finally {
      c.release();
    }
  }

  async close(): Promise<void> {
    if (this.client || this.priority === 'bulk') return;
    await this.kysely.destroy();
    await this.pool.end();
  }
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
}

/** PostgreSQL when a URL is given, otherwise embedded PGlite under dataDir (in memory when dataDir is undefined). */
export async function openDb(opts: OpenOptions): Promise<Db> {
  const pool = opts.databaseUrl ? new PostgresPool(opts.databaseUrl) : await PgLitePool.open(opts.dataDir);
  await migrate(pool);
  return new Db(pool);
}
