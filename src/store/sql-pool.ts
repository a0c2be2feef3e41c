/**
 * The one database abstraction below Kysely: a pool of connections that speak PostgreSQL.
 * pg.Pool already is one; PGlite (a single in-process connection) is wrapped as a pool of one.
 */
export interface SqlResult<R = Record<string, unknown>> {
  rows: R[];
  rowCount: number | null;
  command: string;
}

export interface SqlClient {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlResult<R>>;
  release(): void;
}

export interface SqlPool {
  readonly kind: 'pglite' | 'postgres';
  connect(): Promise<SqlClient>;
  end(): Promise<void>;
  /**
   * Bulk load rows into a table inside the client's current transaction.
   * Each row holds one value per column; null = SQL NULL.
   */
  copyRows(client: SqlClient, table: string, columns: readonly ColumnSpec[], rows: readonly (string | null)[][]): Promise<void>;
}

export interface ColumnSpec {
  name: string;
  /** SQL type used to cast the text value (e.g. 'text', 'bigint', 'json'). */
  type: string;
}
