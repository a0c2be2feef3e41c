import { sql } from 'kysely';
import type { Db } from './db.js';
import type { Message, StoredColumn } from './schema.js';
import type { Page, PageOf } from './paging.js';
import type { ViewRecord } from './views-store.js';
import { RETIRED_GRACE_MS } from './dataset-rows-store.js';
import { ISO } from './messages-store.js';
import { undatedMessages } from './dated-messages.js';

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
  /** Set when this record is a view read as a data source: its name and columns are the view's. */
  view?: ViewRecord;
  /** For a view with a calendar: whether its rows go on past the data with calendar-only rows (time-series readers). */
  viewCalendarAhead?: boolean;
  /** Texts that mean "no value" in its cells (domain/missing-values.ts); empty when none were set. */
  missingValues: string[];
  /** What the latest upload that sent rows said about them (empty from `list`, which does not read them). */
  uploadMessages: Message[];
  /** Set by `list` when it left the columns out (`columns` is then empty): how many there are. */
  columnsOmitted?: { count: number };
}


export type DatasetSort = 'dataSetName' | 'dataSetSize' | 'rowCount' | 'dateCreated' | 'lastModified';
const SORT_COLUMN = { dataSetName: 'name', dataSetSize: 'data_bytes', rowCount: 'row_count', dateCreated: 'created_at', lastModified: 'updated_at' } as const;


export class DatasetsStore {
  constructor(private readonly db: Db) {}

  /** A published data set (one being created by its first upload is not there yet). */
  async find(accountId: string, name: string): Promise<DatasetRecord | undefined> {
    const r = await this.db.kysely.selectFrom('datasets').selectAll().where('account_id', '=', accountId).where('name', '=', name)
      .where('published', '=', true).executeTakeFirst();
    return r && toRecord(r);
  }

  /**
   * A page of data sets. Their columns come along only while the page's total stays within
   * `columnBudget` (in page order, skipping a data set that would pass it): a page of wide data
   * sets would otherwise be read and sent whole, e.g. 1,000 of 5,000 columns each.
   */
  async list(accountId: string, q: { partialName?: string; page: Page; sortBy?: DatasetSort; desc?: boolean; columnBudget?: number }): Promise<PageOf<DatasetRecord>> {
    let base = this.db.kysely.selectFrom('datasets').where('account_id', '=', accountId).where('published', '=', true);
    if (q.partialName) base = base.where(sql<boolean>`position(lower(${q.partialName}) in lower(name)) > 0`);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const col = SORT_COLUMN[q.sortBy ?? 'dataSetName'];
    const rows = await base
      .select(['id', 'account_id', 'name', 'identity_kind', 'identity_column', 'row_count', 'data_bytes', 'created_at', 'updated_at', 'missing_values'])
      .select(sql<string>`(SELECT count(*) FROM json_object_keys(columns))`.as('column_count'))
      .orderBy(col, q.desc ? 'desc' : 'asc').orderBy('id')
      .limit(q.page.size).offset(q.page.page * q.page.size).execute();
    let budget = q.columnBudget ?? Infinity;
    const within = new Set<number>();
    for (const r of rows) {
      const n = Number(r.column_count);
      if (n <= budget) { budget -= n; within.add(Number(r.id)); }
    }
    const columns = new Map<number, Record<string, StoredColumn>>();
    if (within.size > 0) {
      const found = await this.db.kysely.selectFrom('datasets').select(['id', 'columns']).where('id', 'in', [...within]).execute();
      for (const r of found) columns.set(Number(r.id), r.columns as Record<string, StoredColumn>);
    }
    return {
      items: rows.map((r) => {
        const kept = columns.get(Number(r.id));
        const record = toRecord({ ...r, columns: kept ?? {} });
        return kept ? record : { ...record, columnsOmitted: { count: Number(r.column_count) } };
      }),
      totalCount: Number(total.n),
    };
  }

  async count(accountId: string): Promise<number> {
    const r = await this.db.kysely.selectFrom('datasets').where('account_id', '=', accountId).where('published', '=', true)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  // ---- the writer lock and publishing (see dataset-rows-store.ts) ----

  /**
   * Takes the data set's writer lock for `writer` until now + leaseMs, creating the data set
   * (unpublished: nobody sees it) if it does not exist. 'busy' while another writer's lease runs.
   */
  async claimWriter(accountId: string, name: string, writer: string, leaseMs: number): Promise<{ dataset: DatasetRecord; created: boolean } | 'busy'> {
    return this.db.tx(async (tx) => {
      await tx.query(
        `INSERT INTO datasets (account_id, name, columns, published, writer, writer_expires_at)
         VALUES ($1, $2, '{}', false, NULL, NULL) ON CONFLICT (account_id, name) DO NOTHING`, [accountId, name]);
      const [r] = await tx.query<DatasetRow & { writer: string | null; free: boolean }>(
        `SELECT *, (writer IS NULL OR writer_expires_at < now()) AS free FROM datasets WHERE account_id = $1 AND name = $2 FOR UPDATE`, [accountId, name]);
      if (!r!.free) return 'busy' as const;
      await tx.query(`UPDATE datasets SET writer = $2, writer_expires_at = now() + make_interval(secs => $3::float8 / 1000) WHERE id = $1`, [r!.id, writer, leaseMs]);
      return { dataset: toRecord(r!), created: !r!.published };
    });
  }

  /** Extends the writer's lease; false when it was lost (expired and taken by another writer). */
  async renewWriter(id: number, writer: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE datasets SET writer_expires_at = now() + make_interval(secs => $3::float8 / 1000) WHERE id = $1 AND writer = $2 RETURNING id`, [id, writer, leaseMs]);
    return rows.length === 1;
  }

  /** Gives the lock back without publishing; a data set this writer created (never published) goes. */
  async releaseWriter(id: number, writer: string): Promise<void> {
    await this.db.tx(async (tx) => {
      await tx.query(`DELETE FROM datasets WHERE id = $1 AND writer = $2 AND NOT published`, [id, writer]);
      await tx.query(`UPDATE datasets SET writer = NULL, writer_expires_at = NULL WHERE id = $1 AND writer = $2`, [id, writer]);
      await tx.query(`UPDATE dataset_segments SET state = 'retired', expires_at = now() WHERE dataset_id = $1 AND writer = $2 AND state = 'building'`, [id, writer]);
    });
  }

  /**
   * Makes a built segment part of the data set in one short transaction, with the metadata worked
   * out from its rows: `append` adds it after the live segments, `replace` retires them (readers
   * that started before keep them for RETIRED_GRACE_MS). Throws WriterLost if the lock was lost.
   */
  async publish(id: number, writer: string, p: {
    /** undefined: the metadata changes, the rows do not. */
    segment: number | undefined; mode: 'append' | 'replace'; rowCount: number; dataBytes: number;
    columns: Record<string, StoredColumn>; identityKind: IdentityKind; identityColumn: string | null;
    /** undefined: unchanged. */
    missingValues?: string[];
    /** The upload's messages, replacing those stored; undefined: unchanged. */
    uploadMessages?: Message[];
  }): Promise<DatasetRecord> {
    return this.db.tx(async (tx) => {
      const [held] = await tx.query(`SELECT id FROM datasets WHERE id = $1 AND writer = $2 FOR UPDATE`, [id, writer]);
      if (!held) throw new WriterLost();
      if (p.segment !== undefined && p.mode === 'replace') {
        await tx.query(
          `UPDATE dataset_segments SET state = 'retired', expires_at = now() + make_interval(secs => $2::float8 / 1000)
           WHERE dataset_id = $1 AND state = 'live'`, [id, RETIRED_GRACE_MS]);
      }
      if (p.segment !== undefined) await tx.query(
        `UPDATE dataset_segments SET state = 'live', writer = NULL, row_count = $2, data_bytes = $3,
           position = (SELECT COALESCE(max(position), 0) + 1 FROM dataset_segments WHERE dataset_id = $4 AND state = 'live')
         WHERE id = $1`, [p.segment, p.rowCount, p.dataBytes, id]);
      const [r] = await tx.query<DatasetRow>(
        `UPDATE datasets SET columns = $2, identity_kind = $3, identity_column = $4, published = true, writer = NULL, writer_expires_at = NULL,
           missing_values = COALESCE($5::jsonb, missing_values), upload_messages = ${STAMPED_UPLOAD_MESSAGES},
           row_count = (SELECT COALESCE(sum(row_count), 0) FROM dataset_segments WHERE dataset_id = $1 AND state = 'live'),
           data_bytes = (SELECT COALESCE(sum(data_bytes), 0) FROM dataset_segments WHERE dataset_id = $1 AND state = 'live'),
           updated_at = now()
         WHERE id = $1 RETURNING *`, [id, JSON.stringify(p.columns), p.identityKind, p.identityColumn, p.missingValues === undefined ? null : JSON.stringify(p.missingValues),
           p.uploadMessages === undefined ? null : JSON.stringify(p.uploadMessages)]);
      return toRecord(r!);
    });
  }

  /** Deletes a data set whose writer lock `writer` holds; its rows are collected later. */
  async deleteHeld(id: number, writer: string): Promise<void> {
    await this.db.tx(async (tx) => {
      const [held] = await tx.query(`DELETE FROM datasets WHERE id = $1 AND writer = $2 RETURNING id`, [id, writer]);
      if (!held) throw new WriterLost();
      await tx.query(
        `UPDATE dataset_segments SET state = 'retired', expires_at = now() + make_interval(secs => $2::float8 / 1000)
         WHERE dataset_id = $1 AND state IN ('live', 'building')`, [id, RETIRED_GRACE_MS]);
    });
  }
}

/**
 * The upload's messages ($6), each with the time it publishes them (`date`, the text GET /v1/messages
 * sorts by, the same instant as the data set's updated_at), so a later change of the metadata alone
 * does not move them; no messages given ($6 null): those stored stay.
 */
const STAMPED_UPLOAD_MESSAGES = `CASE WHEN $6::jsonb IS NULL THEN upload_messages ELSE COALESCE(
  (SELECT jsonb_agg(m || jsonb_build_object('date', ${ISO('now()')}) ORDER BY o) FROM jsonb_array_elements($6::jsonb) WITH ORDINALITY AS x(m, o)),
  '[]'::jsonb) END`;

/** The writer lock expired and another writer took it: this upload cannot publish. */
export class WriterLost extends Error {
  constructor() {
    super('the upload took too long between steps and lost its lock on the data set');
  }
}

type DatasetRow = Parameters<typeof toRecord>[0] & { published: boolean };

function toRecord(r: {
  id: number; account_id: string; name: string; columns: Record<string, StoredColumn>; identity_kind: IdentityKind;
  identity_column: string | null; row_count: number; data_bytes: number; created_at: Date; updated_at: Date; missing_values?: string[] | null;
  upload_messages?: Message[] | null;
}): DatasetRecord {
  return {
    id: Number(r.id), accountId: r.account_id, name: r.name, columns: r.columns, identityKind: r.identity_kind,
    identityColumn: r.identity_column, rowCount: Number(r.row_count), dataBytes: Number(r.data_bytes), createdAt: r.created_at, updatedAt: r.updated_at,
    // Their publishing time is for GET /v1/messages; a data set shows them as the upload said them.
    missingValues: r.missing_values ?? [], uploadMessages: undatedMessages(r.upload_messages),
  };
}
