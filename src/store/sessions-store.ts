import { datedMessagesJson, undatedMessages } from './dated-messages.js';
import type { Db } from './db.js';
import { claimLeased, releaseLeased, renewLeased } from './leases.js';
import type { Message, StatusEntry, StoredColumn } from './schema.js';
import type { Page, PageOf } from './paging.js';
import { manifestOf, pageSpan, type PagedResults, type PartsManifest } from './result-pages.js';

export type SessionType = 'model' | 'forecast' | 'impact';
export type SessionStatus = 'requested' | 'started' | 'completed' | 'failed' | 'cancelled';

export interface SessionRecord {
  id: string;
  accountId: string;
  type: SessionType;
  status: SessionStatus;
  predictionDomain: string | null;
  datasetName: string;
  targetColumn: string | null;
  name: string | null;
  /** The request's parameters as echoed back (balance, extraParameters, startDate, endDate, resultInterval, eventName…). */
  request: Record<string, unknown>;
  columns: Record<string, StoredColumn>;
  statusHistory: StatusEntry[];
  messages: Message[];
  callbackUrl: string | null;
  webhookToken: string | null;
  modelId: string | null;
  algorithm: Record<string, unknown> | null;
  requestedAt: Date;
  updatedAt: Date;
}

/**
 * A stored result: the small parts whole, the per-row parts (result-pages.ts) read by row range.
 * `parts` gives each paged part's row count, in stored order ('data', 'classScores',
 * 'anomalyScores', 'outliers', 'intervals:<level>').
 */
export interface SessionResults {
  metrics: Record<string, unknown>;
  extra: Record<string, unknown>;
  parts: Record<string, number>;
  /** Rows [start, end) of a part (an unknown part has none). */
  rows<T = Record<string, string>>(part: string, start: number, end: number): Promise<T[]>;
}

/** Results as a runner hands them over for storing: paged where they were computed. */
export type SessionResultsToSave = PagedResults;

/** Pages per COPY when results are written: a few MB per short statement. */
const PAGES_PER_WRITE = 8;

export interface SessionFilter {
  dataSourceName?: string;
  type?: SessionType;
  eventName?: string;
  modelId?: string;
  requestedAfter?: number;
  requestedBefore?: number;
}

export type SessionSort = 'id' | 'name' | 'type' | 'status' | 'dataSourceName' | 'requestedDate';
const SORT = { id: 'id', name: 'name', type: 'type', status: 'status', dataSourceName: 'dataset_name', requestedDate: 'requested_at' } as const;

export class SessionsStore {
  constructor(private readonly db: Db) {}

  async insert(s: SessionRecord): Promise<void> {
    await this.db.kysely.insertInto('sessions').values({
      id: s.id, account_id: s.accountId, type: s.type, status: s.status, prediction_domain: s.predictionDomain,
      dataset_name: s.datasetName, target_column: s.targetColumn, name: s.name, request: JSON.stringify(s.request),
      columns: JSON.stringify(s.columns), status_history: JSON.stringify(s.statusHistory), messages: datedMessagesJson(s.messages, s.requestedAt),
      callback_url: s.callbackUrl, webhook_token: s.webhookToken, model_id: null, algorithm: null,
      requested_at: s.requestedAt, updated_at: s.requestedAt,
    }).execute();
  }

  async get(accountId: string, id: string): Promise<SessionRecord | undefined> {
    const r = await this.db.kysely.selectFrom('sessions').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r && toRecord(r);
  }

  async getById(id: string): Promise<SessionRecord | undefined> {
    const r = await this.db.kysely.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toRecord(r);
  }

  private filtered(accountId: string, f: SessionFilter) {
    let q = this.db.kysely.selectFrom('sessions').where('account_id', '=', accountId);
    if (f.dataSourceName) q = q.where('dataset_name', '=', f.dataSourceName);
    if (f.type) q = q.where('type', '=', f.type);
    if (f.modelId) q = q.where('model_id', '=', f.modelId);
    if (f.eventName) q = q.where((eb) => eb(eb.ref('request', '->>').key('eventName' as never), '=', f.eventName!));
    if (f.requestedAfter !== undefined) q = q.where('requested_at', '>=', new Date(f.requestedAfter));
    if (f.requestedBefore !== undefined) q = q.where('requested_at', '<=', new Date(f.requestedBefore));
    return q;
  }

  async list(accountId: string, f: SessionFilter, page: Page, sort?: { by?: SessionSort; desc?: boolean }): Promise<PageOf<SessionRecord>> {
    const q = this.filtered(accountId, f);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy(SORT[sort?.by ?? 'requestedDate'], sort?.desc ? 'desc' : 'asc').orderBy('id')
      .limit(page.size).offset(page.page * page.size).execute();
    return { items: rows.map(toRecord), totalCount: Number(total.n) };
  }

  /** Ids matching a filter (bulk delete). */
  async ids(accountId: string, f: SessionFilter): Promise<string[]> {
    return (await this.filtered(accountId, f).select('id').execute()).map((r) => r.id);
  }

  async delete(accountId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    await this.db.kysely.deleteFrom('session_result_pages').where('session_id', 'in', ids).execute();
    await this.db.kysely.deleteFrom('session_results').where('session_id', 'in', ids).execute();
    const r = await this.db.kysely.deleteFrom('sessions').where('account_id', '=', accountId).where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async countSince(accountId: string, since: Date): Promise<number> {
    const r = await this.db.kysely.selectFrom('sessions').where('account_id', '=', accountId).where('requested_at', '>=', since)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Claims the oldest requested session, or a started one whose worker died (see store/leases.ts). */
  async claim(owner: string, leaseMs: number): Promise<SessionRecord | undefined> {
    const r = await claimLeased(this.db, 'sessions', owner, leaseMs);
    return r ? toRecord(r as never) : undefined;
  }

  renewLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return renewLeased(this.db, 'sessions', id, owner, leaseMs, true);
  }

  /** Gives back every unfinished session this owner holds (a worker shutting down), or only the one with this id. */
  release(owner: string, id?: string): Promise<number> {
    return releaseLeased(this.db, 'sessions', owner, id);
  }

  /**
   * Enters a status (one history entry), only while `owner` holds the lease (null: no lease check).
   * Returns the updated session, or undefined when the lease was lost (another worker owns it now).
   */
  async transition(id: string, owner: string | null, status: SessionStatus, opts: { messages?: Message[]; modelId?: string; algorithm?: Record<string, unknown> } = {}): Promise<SessionRecord | undefined> {
    const date = new Date().toISOString();
    const entry = JSON.stringify([{ date, status }]);
    const rows = await this.db.query<Record<string, unknown>>(
      `UPDATE sessions SET status = $2,
         status_history = status_history || $3::jsonb,
         messages = messages || $4::jsonb,
         model_id = COALESCE($5::uuid, model_id),
         algorithm = COALESCE($6::jsonb, algorithm),
         updated_at = now(),
         lease_owner = CASE WHEN $2 IN ('completed', 'failed', 'cancelled') THEN NULL ELSE lease_owner END
       WHERE id = $1 AND ($7::text IS NULL OR lease_owner = $7) RETURNING *`,
      [id, status, entry, datedMessagesJson(opts.messages ?? [], date), opts.modelId ?? null, opts.algorithm ? JSON.stringify(opts.algorithm) : null, owner]);
    return rows[0] ? toRecord(rows[0] as never) : undefined;
  }

  async addMessages(id: string, messages: Message[]): Promise<void> {
    await this.db.query('UPDATE sessions SET messages = messages || $2::jsonb WHERE id = $1', [id, datedMessagesJson(messages, new Date())]);
  }

  /**
   * Writes a result's pages under `generation`, in short statements outside any transaction: no
   * reader sees them until saveResultsHeader names the generation (in the completing transaction).
   */
  async saveResultPages(id: string, generation: string, r: PagedResults): Promise<void> {
    const bulk = this.db.bulk();
    for (const part of r.parts) {
      for (let first = 0; first < part.pages.length; first += PAGES_PER_WRITE) {
        const rows = part.pages.slice(first, first + PAGES_PER_WRITE).map((text, k) => [id, generation, part.name, String(first + k), text]);
        await bulk.copyRows('session_result_pages', ['session_id', 'generation', 'part', 'page', 'rows'], rows);
      }
    }
  }

  /** Publishes a result whose pages are written: metrics, the small parts and the manifest of the pages. */
  async saveResultsHeader(id: string, generation: string, r: PagedResults): Promise<void> {
    await this.db.query(
      `INSERT INTO session_results (session_id, metrics, data, extra, generation, parts) VALUES ($1, $2::jsonb, '[]', $3, $4, $5::json)
       ON CONFLICT (session_id) DO UPDATE SET metrics = EXCLUDED.metrics, data = EXCLUDED.data, extra = EXCLUDED.extra,
         generation = EXCLUDED.generation, parts = EXCLUDED.parts`,
      [id, JSON.stringify(r.metrics), r.extra, generation, JSON.stringify(manifestOf(r))]);
  }

  /** Drops the pages of one generation of a session's results ('this'), or of every other one ('others'). */
  async dropResultPages(id: string, generation: string, which: 'this' | 'others'): Promise<void> {
    await this.db.bulk().query(`DELETE FROM session_result_pages WHERE session_id = $1 AND generation ${which === 'this' ? '=' : '<>'} $2`, [id, generation]);
  }

  /** Only the metrics: a notification needs them, not the (possibly very large) result rows. */
  async metrics(id: string): Promise<SessionResults['metrics'] | undefined> {
    const r = await this.db.kysely.selectFrom('session_results').select('metrics').where('session_id', '=', id).executeTakeFirst();
    return r?.metrics;
  }

  async results(id: string): Promise<SessionResults | undefined> {
    const rows = await this.db.query<{ metrics: unknown; extra: string; generation: string | null; parts: unknown }>(
      'SELECT metrics, extra, generation, parts FROM session_results WHERE session_id = $1', [id]);
    const r = rows[0];
    if (!r) return undefined;
    const j = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
    const manifest = j<PartsManifest>(r.parts);
    const db = this.db;
    return {
      metrics: j(r.metrics),
      extra: JSON.parse(r.extra),
      parts: { ...manifest.rows },
      async rows<T>(part: string, start: number, end: number): Promise<T[]> {
        const count = manifest.rows[part] ?? 0;
        end = Math.min(end, count);
        if (start >= end) return [];
        const span = pageSpan(start, end, manifest.pageRows);
        const pages = await db.query<{ rows: string }>(
          'SELECT rows FROM session_result_pages WHERE session_id = $1 AND generation = $2 AND part = $3 AND page BETWEEN $4 AND $5 ORDER BY page',
          [id, r.generation, part, span.first, span.last]);
        const all = pages.flatMap((p) => JSON.parse(p.rows) as T[]);
        return all.slice(span.skip, span.skip + (end - start));
      },
    };
  }
}

function toRecord(r: {
  id: string; account_id: string; type: string; status: string; prediction_domain: string | null; dataset_name: string;
  target_column: string | null; name: string | null; request: unknown; columns: unknown; status_history: unknown; messages: unknown;
  callback_url: string | null; webhook_token: string | null; model_id: string | null; algorithm: unknown; requested_at: Date | string; updated_at: Date | string;
}): SessionRecord {
  const j = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    id: r.id, accountId: r.account_id, type: r.type as SessionType, status: r.status as SessionStatus, predictionDomain: r.prediction_domain,
    datasetName: r.dataset_name, targetColumn: r.target_column, name: r.name, request: j(r.request), columns: j(r.columns),
    statusHistory: j(r.status_history), messages: undatedMessages(j(r.messages)), callbackUrl: r.callback_url, webhookToken: r.webhook_token,
    modelId: r.model_id, algorithm: j(r.algorithm), requestedAt: new Date(r.requested_at), updatedAt: new Date(r.updated_at),
  };
}
