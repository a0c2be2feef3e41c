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
    // COPY … FROM '/dev/blob' is PGlite's fast path (~150k rows/s into json/text columns).
    // The caller holds the only connection, so this runs inside its transaction.
    const csv = rowsToCsv(rows);
    const cols = columns.map((c) => quoteIdent(c.name)).join(', ');
    await this.pg.query(`COPY ${table} (${cols}) FROM '/dev/blob' WITH (FORMAT csv)`, [], { blob: new Blob([csv]) });
  }

  async end(): Promise<void> {
    await this.queue;
    await this.pg.close();
  }
}

function quoteIdent(s: string): string {
  return '"' + s.replace(/"/g, '""') + '"';
}

/** CSV for COPY: NULL is an unquoted empty field, every other value is quoted. */
function rowsToCsv(rows: readonly (string | null)[][]): string {
  const parts: string[] = [];
  for (const row of rows) {
    let line = '';
    for (let j = 0; j < row.length; j++) {
      if (j) line += ',';
      const v = row[j];
      if (v !== null && v !== undefined) line += '"' + v.replace(/"/g, '""') + '"';
    }
    parts.push(line);
  }
  return parts.join('\n') + '\n';
}
