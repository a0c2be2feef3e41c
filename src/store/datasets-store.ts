import { sql } from 'kysely';
import type { Db } from './db.js';
import type { StoredColumn } from './schema.js';
import type { Page, PageOf } from '../service/paging.js';

export type IdentityKind = 'none' | 'key' | 'timestamp';

export interface DatasetRecord {
  id: number;
  accountId: string;
  name: string;
  columns: Record<string, StoredColumn>;
  identityKind: IdentityKind;
  identityColumn: string | null;
  rowCount: number;
  dataBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A row as stored: identity (key value, or epoch-ms text for timestamps) and the record as JSON text. */
export interface StoredRow {
  ident: string | null;
  ts: number | null;
  data: string;
}

export type DatasetSort = 'dataSetName' | 'dataSetSize' | 'rowCount' | 'dateCreated' | 'lastModified';
const SORT_COLUMN = { dataSetName: 'name', dataSetSize: 'data_bytes', rowCount: 'row_count', dateCreated: 'created_at', lastModified: 'updated_at' } as const;

const ROW_COLUMNS = [
  { name: 'dataset_id', type: 'bigint' },
  { name: 'ident', type: 'text' },
  { name: 'ts', type: 'bigint' },
  { name: 'data', type: 'text' },
];

export class DatasetsStore {
  constructor(private readonly db: Db) {}

  async find(accountId: string, name: string, opts: { forUpdate?: boolean } = {}): Promise<DatasetRecord | undefined> {
    let q = this.db.kysely.selectFrom('datasets').selectAll().where('account_id', '=', accountId).where('name', '=', name);
    if (opts.forUpdate) q = q.forUpdate();
    const r = await q.executeTakeFirst();
    return r && toRecord(r);
  }

  async create(accountId: string, name: string): Promise<DatasetRecord> {
    const now = new Date();
    const r = await this.db.kysely.insertInto('datasets')
      .values({ account_id: accountId, name, columns: '{}', identity_column: null, created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    return toRecord(r);
  }

  async updateMeta(id: number, m: { columns: Record<string, StoredColumn>; identityKind: IdentityKind; identityColumn: string | null }): Promise<void> {
    await this.db.kysely.updateTable('datasets')
      .set({ columns: JSON.stringify(m.columns), identity_kind: m.identityKind, identity_column: m.identityColumn, updated_at: new Date() })
      .where('id', '=', id).execute();
  }

  /** Recounts rows and bytes after a change (one scan; exact, whatever upserts replaced). */
  async refreshCounts(id: number): Promise<{ rowCount: number; dataBytes: number }> {
    const [r] = await this.db.query<{ n: number; bytes: number | null }>(
      'SELECT count(*)::bigint AS n, sum(octet_length(data))::bigint AS bytes FROM dataset_rows WHERE dataset_id = $1', [id]);
    const rowCount = Number(r?.n ?? 0);
    const dataBytes = Number(r?.bytes ?? 0);
    await this.db.kysely.updateTable('datasets').set({ row_count: rowCount, data_bytes: dataBytes, updated_at: new Date() }).where('id', '=', id).execute();
    return { rowCount, dataBytes };
  }

  async list(accountId: string, q: { partialName?: string; page: Page; sortBy?: DatasetSort; desc?: boolean }): Promise<PageOf<DatasetRecord>> {
    let base = this.db.kysely.selectFrom('datasets').where('account_id', '=', accountId);
    if (q.partialName) base = base.where(sql<boolean>`position(lower(${q.partialName}) in lower(name)) > 0`);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const col = SORT_COLUMN[q.sortBy ?? 'dataSetName'];
    const rows = await base.selectAll().orderBy(col, q.desc ? 'desc' : 'asc').orderBy('id')
      .limit(q.page.size).offset(q.page.page * q.page.size).execute();
    return { items: rows.map(toRecord), totalCount: Number(total.n) };
  }

  async count(accountId: string): Promise<number> {
    const r = await this.db.kysely.selectFrom('datasets').where('account_id', '=', accountId)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('dataset_rows').where('dataset_id', '=', id).execute();
    await this.db.kysely.deleteFrom('datasets').where('id', '=', id).execute();
  }

  // ---- rows ----

  /** Appends rows that need no identity check. */
  async appendRows(datasetId: number, rows: StoredRow[]): Promise<void> {
    const id = String(datasetId);
    await this.db.copyRows('dataset_rows', ROW_COLUMNS, rows.map((r) => [id, r.ident, r.ts === null ? null : String(r.ts), r.data]));
  }

  /** Staging table for one upsert upload; dropped when the transaction ends. */
  async beginStaging(): Promise<void> {
    await this.db.query('CREATE TEMP TABLE IF NOT EXISTS upload_staging (ord bigserial, ident text NOT NULL, ts bigint, data text NOT NULL) ON COMMIT DROP');
  }

  async stageRows(rows: StoredRow[]): Promise<void> {
    await this.db.copyRows('upload_staging', ROW_COLUMNS.slice(1), rows.map((r) => [r.ident, r.ts === null ? null : String(r.ts), r.data]));
  }

  /**
   * Upserts the staged rows in one statement: the last occurrence of an identity in the upload wins,
   * and a matching stored row is overwritten field by field (fields the upload lacks are kept, so a
   * PUT of feature values for known dates does not erase the target).
   */
  async mergeStaged(datasetId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO dataset_rows (dataset_id, ident, ts, data)
       SELECT $1, s.ident, s.ts, s.data FROM (
         SELECT DISTINCT ON (ident) ident, ts, data FROM upload_staging ORDER BY ident, ord DESC
       ) s
       ON CONFLICT (dataset_id, ident) WHERE ident IS NOT NULL
       DO UPDATE SET ts = EXCLUDED.ts, data = (dataset_rows.data::jsonb || EXCLUDED.data::jsonb)::text`,
      [datasetId]);
    await this.db.query('TRUNCATE upload_staging');
  }

  /** After a first upload whose timestamp column was only inferred: give its rows their identity. */
  async setIdentities(datasetId: number, column: string, parse: (v: string) => number | null): Promise<void> {
    const rows = await this.db.query<{ seq: number; v: string | null }>(
      'SELECT seq, data::json ->> $2 AS v FROM dataset_rows WHERE dataset_id = $1', [datasetId, column]);
    const seqs: string[] = [];
    const tss: (string | null)[] = [];
    for (const r of rows) {
      const ms = r.v === null ? null : parse(r.v);
      seqs.push(String(r.seq));
      tss.push(ms === null ? null : String(ms));
    }
    if (seqs.length === 0) return;
    await this.db.query(
      `UPDATE dataset_rows d SET ts = u.ts::bigint, ident = u.ts
       FROM unnest($2::text[], $3::text[]) AS u(seq, ts)
       WHERE d.dataset_id = $1 AND d.seq = u.seq::bigint`, [datasetId, seqs, tss]);
  }

  async readRows(datasetId: number, q: { from?: number; to?: number; byTime: boolean; offset: number; limit: number }): Promise<{ rows: Record<string, string>[]; total: number }> {
    const where: string[] = ['dataset_id = $1'];
    const params: unknown[] = [datasetId];
    if (q.from !== undefined) { params.push(q.from); where.push(`ts >= $${params.length}`); }
    if (q.to !== undefined) { params.push(q.to); where.push(`ts <= $${params.length}`); }
    const cond = where.join(' AND ');
    const [t] = await this.db.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM dataset_rows WHERE ${cond}`, params);
    params.push(q.limit, q.offset);
    const rows = await this.db.query<{ data: string }>(
      `SELECT data FROM dataset_rows WHERE ${cond} ORDER BY ${q.byTime ? 'ts, seq' : 'seq'} LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
    return { rows: rows.map((r) => JSON.parse(r.data) as Record<string, string>), total: Number(t?.n ?? 0) };
  }

  /** Every row in storage order (time order for time series), in batches, for sessions and exports. */
  async *iterateRows(datasetId: number, byTime: boolean, batch = 20000): AsyncGenerator<Record<string, string>[]> {
    let offset = 0;
    for (;;) {
      const { rows } = await this.readRows(datasetId, { byTime, offset, limit: batch });
      if (rows.length === 0) return;
      yield rows;
      offset += rows.length;
      if (rows.length < batch) return;
    }
  }

  async deleteRows(datasetId: number, q: { from?: number; to?: number; keys?: string[]; startKey?: string; endKey?: string }): Promise<number> {
    let d = this.db.kysely.deleteFrom('dataset_rows').where('dataset_id', '=', datasetId);
    if (q.from !== undefined) d = d.where('ts', '>=', q.from);
    if (q.to !== undefined) d = d.where('ts', '<=', q.to);
    if (q.keys?.length) d = d.where('ident', 'in', q.keys);
    if (q.startKey !== undefined) d = d.where('ident', '>=', q.startKey);
    if (q.endKey !== undefined) d = d.where('ident', '<=', q.endKey);
    const r = await d.executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

function toRecord(r: {
  id: number; account_id: string; name: string; columns: Record<string, StoredColumn>; identity_kind: IdentityKind;
  identity_column: string | null; row_count: number; data_bytes: number; created_at: Date; updated_at: Date;
}): DatasetRecord {
  return {
    id: Number(r.id), accountId: r.account_id, name: r.name, columns: r.columns, identityKind: r.identity_kind,
    identityColumn: r.identity_column, rowCount: Number(r.row_count), dataBytes: Number(r.data_bytes), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}
