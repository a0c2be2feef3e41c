import { datedMessagesJson, undatedMessages } from './dated-messages.js';
import type { Db } from './db.js';
import { claimLeased, releaseLeased, renewLeased } from './leases.js';
import type { Message, StatusEntry } from './schema.js';
import type { Page, PageOf } from './paging.js';

export interface ImportRecord {
  id: string;
  accountId: string;
  type: string;
  datasetName: string;
  status: string;
  parameters: Record<string, unknown>;
  secret: Record<string, unknown> | null;
  contentType: string | null;
  columns: Record<string, unknown>;
  statusHistory: StatusEntry[];
  messages: Message[];
  requestedAt: Date;
  updatedAt: Date;
}

export type ImportSort = 'id' | 'dataSetName' | 'requestedDate' | 'currentStatusDate';
const SORT = { id: 'id', dataSetName: 'dataset_name', requestedDate: 'requested_at', currentStatusDate: 'updated_at' } as const;

export class ImportsStore {
  constructor(private readonly db: Db) {}

  async insert(r: Omit<ImportRecord, 'updatedAt' | 'requestedAt'> & { requestedAt: Date }): Promise<void> {
    await this.db.kysely.insertInto('imports').values({
      id: r.id, account_id: r.accountId, type: r.type, dataset_name: r.datasetName, status: r.status,
      parameters: JSON.stringify(r.parameters), secret: r.secret ? JSON.stringify(r.secret) : null, content_type: r.contentType,
      columns: JSON.stringify(r.columns), status_history: JSON.stringify(r.statusHistory), messages: datedMessagesJson(r.messages, r.requestedAt),
      requested_at: r.requestedAt, updated_at: r.requestedAt,
    }).execute();
  }

  /**
   * Inserts an import already held by `owner` (a cloud import run by the process that received it):
   * no job loop claims it while the lease lasts. Logged in lease_claims like any claim.
   */
  async insertHeld(r: Omit<ImportRecord, 'updatedAt' | 'requestedAt'> & { requestedAt: Date }, owner: string, leaseMs: number): Promise<void> {
    await this.db.tx(async (tx) => {
      await new ImportsStore(tx).insert(r);
      await tx.query(
        `WITH held AS (UPDATE imports SET lease_owner = $2, lease_expires_at = now() + ($3::int * interval '1 millisecond'), attempts = attempts + 1 WHERE id = $1 RETURNING id, lease_expires_at)
         INSERT INTO lease_claims (job_table, job_id, owner, claimed_at, expires_at) SELECT 'imports', id::text, $2, now(), lease_expires_at FROM held`,
        [r.id, owner, leaseMs]);
    });
  }

  async get(accountId: string, id: string): Promise<ImportRecord | undefined> {
    const r = await this.db.kysely.selectFrom('imports').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r && toRecord(r);
  }

  async list(accountId: string, q: { dataSetName?: string; after?: number; before?: number; page: Page; sortBy?: ImportSort; desc?: boolean }): Promise<PageOf<ImportRecord>> {
    let base = this.db.kysely.selectFrom('imports').where('account_id', '=', accountId);
    if (q.dataSetName) base = base.where('dataset_name', '=', q.dataSetName);
    if (q.after !== undefined) base = base.where('requested_at', '>=', new Date(q.after));
    if (q.before !== undefined) base = base.where('requested_at', '<=', new Date(q.before));
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy(SORT[q.sortBy ?? 'requestedDate'], q.desc ? 'desc' : 'asc').orderBy('id')
      .limit(q.page.size).offset(q.page.page * q.page.size).execute();
    return { items: rows.map(toRecord), totalCount: Number(total.n) };
  }

  /** Claims the oldest requested import, or a started one whose worker died (see store/leases.ts). */
  async claim(owner: string, leaseMs: number): Promise<ImportRecord | undefined> {
    const r = await claimLeased(this.db, 'imports', owner, leaseMs);
    return r ? toRecord(r as never) : undefined;
  }

  renewLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return renewLeased(this.db, 'imports', id, owner, leaseMs);
  }

  /** Gives back every unfinished import this owner holds (a worker shutting down), or only the one with this id. */
  release(owner: string, id?: string): Promise<number> {
    return releaseLeased(this.db, 'imports', owner, id);
  }

  /** Moves to a status, appending to the history, only while this owner holds the lease. */
  async setStatus(id: string, owner: string | null, status: string, messages: Message[] = [], clearSecret = false): Promise<boolean> {
    const date = new Date().toISOString();
    const entry = JSON.stringify([{ date, status }]);
    const rows = await this.db.query(
      `UPDATE imports SET status = $2,
         status_history = status_history || $3::jsonb,
         messages = messages || $4::jsonb,
         updated_at = now(),
         secret = CASE WHEN $5 THEN NULL ELSE secret END,
         lease_owner = CASE WHEN $2 IN ('completed','failed') THEN NULL ELSE lease_owner END
       WHERE id = $1 AND ($6::text IS NULL OR lease_owner = $6) RETURNING id`,
      [id, status, entry, datedMessagesJson(messages, date), clearSecret, owner]);
    return rows.length > 0;
  }
}

function toRecord(r: {
  id: string; account_id: string; type: string; dataset_name: string; status: string; parameters: unknown; secret: unknown;
  content_type: string | null; columns: unknown; status_history: unknown; messages: unknown; requested_at: Date | string; updated_at: Date | string;
}): ImportRecord {
  const j = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    id: r.id, accountId: r.account_id, type: r.type, datasetName: r.dataset_name, status: r.status,
    parameters: j(r.parameters), secret: j(r.secret), contentType: r.content_type, columns: j(r.columns),
    statusHistory: j(r.status_history), messages: undatedMessages(j(r.messages)), requestedAt: new Date(r.requested_at), updatedAt: new Date(r.updated_at),
  };
}
