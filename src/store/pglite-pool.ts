import { PGlite } from '@electric-sql/pglite';
import type { ColumnSpec, SqlClient, SqlPool, SqlResult } from './sql-pool.js';

/**
 * PGlite is one connection in this process. Handing it out as a pool of one (callers queue)
 * keeps transactions isolated: nothing else runs on the connection between BEGIN and COMMIT.
 */
export class PgLitePool implements SqlPool {
  readonly kind = 'pglite' as const;
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly pg: PGlite) {}

  static async open(dataDir: string | undefined): Promise<PgLitePool> {
    const pg = new PGlite(dataDir, { parsers: { 20: (v: string) => Number(v) } });
    await pg.waitReady;
    return new PgLitePool(pg);
  }

  connect(): Promise<SqlClient> {
    let release!: () => void;
    const turn = new Promise<void>((r) => (release = r));
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    return previous.then(() => {
      let released = false;
      const pg = this.pg;
      return {
        async query<R>(sql: string, params?: readonly unknown[]): Promise<SqlResult<R>> {
          const r = await pg.query<R>(sql, params as unknown[] | undefined);
          return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, command: sql.trimStart().split(/\s/, 1)[0]!.toUpperCase() };
        },
        release() {
          if (!released) { released = true; release(); }
        },
      };
    });
  }

  async copyRows(_client: SqlClient, table: string, columns: readonly ColumnSpec[], rows: readonly (string | null)[][]): Promise<void> {
    if (rows.length === 0) return;
    // COPY … FROM '/dev/blob' is PGlite's fast path. Text format, because JSON row text is full of
    // quotes that CSV format would double and PostgreSQL would undo (about 3x slower to load).
    // The caller holds the only connection, so this runs inside its transaction.
    const text = rowsToCopyText(rows);
    const cols = columns.map((c) => quoteIdent(c.name)).join(', ');
    await this.pg.query(`COPY ${table} (${cols}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
  }

  async end(): Promise<void> {
    await this.queue;
    await this.pg.close();
  }
}

function quoteIdent(s: string): string {
  return '"' + s.replace(/"/g, '""') + '"';
}

/** COPY text format: tab-separated, NULL is \N, and backslash, tab, LF and CR are backslash-escaped. */
function rowsToCopyText(rows: readonly (string | null)[][]): string {
  // One growing string (a rope V8 flattens once, when the Blob encodes it) beats lines + join.
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    for (let j = 0; j < row.length; j++) {
      const v = row[j];
      text += (j ? '\t' : '') + (v === null || v === undefined ? '\\N' : COPY_SPECIAL.test(v) ? v.replace(COPY_SPECIALS, escapeCopyChar) : v);
    }
    text += '\n';
  }
  return text;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeCopyChar = (c: string) => COPY_ESCAPES[c]!;
