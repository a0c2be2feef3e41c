/**
 * The one database abstraction below Kysely: a pool of connections that speak PostgreSQL.
 * pg.Pool already is one; PGlite (a single connection, in its own thread) is wrapped as a pool of one.
 */
import { quoteIdent } from './copy-text.js';

export interface SqlResult<R = Record<string, unknown>> {
  rows: R[];
  rowCount: number | null;
  command: string;
}

export interface QueryOptions {
  /**
   * Fail with 'Query read timeout' when no answer came within this many ms (the connection is
   * then dropped, not reused). For the short coordination statements (claims, lease renewals):
   * one that hangs on a dead connection must not hold up the loop that issued it.
   */
  timeoutMs?: number;
}

export interface SqlClient {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<SqlResult<R>>;
  release(): void;
}

export type ConnectPriority = 'interactive' | 'bulk';

/** PostgreSQL's COPY formats that bulk loads use: text (tab-separated) or binary. */
export type CopyFormat = 'text' | 'binary';

/** The COPY statement of a bulk load into `table`'s `columns` from `source` (STDIN, or PGlite's '/dev/blob'). */
export function copyFromSql(table: string, columns: readonly string[], source: string, format: CopyFormat): string {
  return `COPY ${table} (${columns.map(quoteIdent).join(', ')}) FROM ${source}${format === 'binary' ? ' (FORMAT binary)' : ''}`;
}

export interface SqlPool {
  readonly kind: 'pglite' | 'postgres';
  /** `bulk` connections go after waiting `interactive` ones (only the embedded store, with its one connection, tells them apart). */
  connect(priority?: ConnectPriority): Promise<SqlClient>;
  end(): Promise<void>;
  /**
   * Bulk-loads rows given in COPY text format (see copy-text.ts) or binary format (copy-binary.ts)
   * into a table, inside the client's current transaction (or as its own, outside one).
   */
  copyIn(client: SqlClient, table: string, columns: readonly string[], data: Uint8Array | string, format?: CopyFormat): Promise<void>;
}
