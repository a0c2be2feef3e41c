import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { copyFromSql, type ConnectPriority, type CopyFormat, type QueryOptions, type SqlClient, type SqlPool, type SqlResult } from './sql-pool.js';

pg.types.setTypeParser(20, (v: string) => Number(v)); // bigint ids and epoch-ms fit in a double

/** A pooled connection; the pg client stays reachable for COPY. */
class PostgresClient implements SqlClient {
  /**
   * A connection lost while checked out (PostgreSQL restarted, a network cut) emits 'error' on the
   * client, which the pool only listens for on idle clients: unheard, it would crash the process.
   * Here it is noted (the query in flight fails by itself) and the client is destroyed on release.
   */
  private lost: Error | undefined;
  private readonly onError = (e: Error) => { this.lost = e; };

  constructor(readonly raw: pg.PoolClient) {
    raw.on('error', this.onError);
  }

  async query<R>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<SqlResult<R>> {
    // Once the connection has failed, node-postgres may leave a new query pending forever.
    if (this.lost) throw this.lost;
    if (!opts?.timeoutMs) {
      const r = await this.raw.query(sql, params as unknown[] | undefined);
      return { rows: r.rows as R[], rowCount: r.rowCount, command: r.command };
    }
    try {
      const r = await this.raw.query({ text: sql, values: params as unknown[] | undefined, query_timeout: opts.timeoutMs } as pg.QueryConfig);
      return { rows: r.rows as R[], rowCount: r.rowCount, command: r.command };
    } catch (e) {
      // The answer may still arrive on this connection: it must not serve another query.
      if ((e as Error).message === 'Query read timeout') this.lost ??= e as Error;
      throw e;
    }
  }

  release(): void {
    this.raw.off('error', this.onError);
    this.raw.release(this.lost);
  }
}

const CONNECT_TIMEOUT_MS = 30_000;

/** Real PostgreSQL (DATABASE_URL): many processes, many connections. */
export class PostgresPool implements SqlPool {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;

  constructor(connectionString: string, max = 10) {
    this.pool = new pg.Pool({
      connectionString, max,
      // A server that is away (restarting, unreachable) fails a connection attempt within this
      // rather than leaving it to the operating system's connect timeout.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A peer that vanished without closing the connection (a host or network gone) is noticed.
      keepAlive: true, keepAliveInitialDelayMillis: 10_000,
    });
    // An idle client losing its connection must not crash the process.
    this.pool.on('error', () => {});
    // Nor any client at any moment: pg-pool listens only while a client is idle, and the wrapper
    // below only while it is checked out through it, so a FATAL (server shutdown,
    // pg_terminate_backend) arriving in between was an unhandled 'error' event that killed the
    // worker process (test/cluster/backend-loss.cluster.test.ts). The client is then unqueryable;
    // its next query fails and the pool drops it on release.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  async connect(_priority?: ConnectPriority): Promise<SqlClient> {
    return new PostgresClient(await this.pool.connect());
  }

  async copyIn(client: SqlClient, table: string, columns: readonly string[], data: Uint8Array | string, format: CopyFormat = 'text'): Promise<void> {
    if (data.length === 0) return;
    const raw = (client as PostgresClient).raw;
    const stream = raw.query(copyFrom(copyFromSql(table, columns, 'STDIN', format)));
    await pipeline(Readable.from([typeof data === 'string' ? Buffer.from(data) : data]), stream);
  }

  private ended: Promise<void> | undefined;

  /** Idempotent: pg's Pool throws when ended twice. */
  end(): Promise<void> {
    return (this.ended ??= this.pool.end());
  }
}
