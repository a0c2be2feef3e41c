import pg from 'pg';
import type { ColumnSpec, SqlClient, SqlPool, SqlResult } from './sql-pool.js';

pg.types.setTypeParser(20, (v: string) => Number(v)); // bigint ids and epoch-ms fit in a double

/** Real PostgreSQL (DATABASE_URL): many processes, many connections. */
export class PostgresPool implements SqlPool {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;

  constructor(connectionString: string, max = 10) {
    this.pool = new pg.Pool({ connectionString, max });
    // An idle client losing its connection must not crash the process.
    this.pool.on('error', () => {});
  }

  async connect(): Promise<SqlClient> {
    const c = await this.pool.connect();
    return {
      async query<R>(sql: string, params?: readonly unknown[]): Promise<SqlResult<R>> {
        const r = await c.query(sql, params as unknown[] | undefined);
        return { rows: r.rows as R[], rowCount: r.rowCount, command: r.command };
      },
      release: () => c.release(),
    };
  }

  async copyRows(client: SqlClient, table: string, columns: readonly ColumnSpec[], rows: readonly (string | null)[][]): Promise<void> {
    if (rows.length === 0) return;
    // One INSERT … SELECT FROM unnest(text arrays) per batch: no extra dependency for COPY FROM STDIN,
    // and a few thousand rows per round trip is already bound by PostgreSQL, not the protocol.
    const arrays = columns.map((_, j) => rows.map((r) => r[j] ?? null));
    const cols = columns.map((c) => `"${c.name}"`).join(', ');
    const sel = columns.map((c, j) => `u.c${j}::${c.type}`).join(', ');
    const un = columns.map((_, j) => `$${j + 1}::text[]`).join(', ');
    const names = columns.map((_, j) => `c${j}`).join(', ');
    await client.query(`INSERT INTO ${table} (${cols}) SELECT ${sel} FROM unnest(${un}) AS u(${names})`, arrays);
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
