import type { Db } from './db.js';
import type { StoredColumn } from './schema.js';
import type { Page, PageOf } from './paging.js';

export interface ModelRecord {
  id: string;
  accountId: string;
  sessionId: string;
  predictionDomain: string;
  datasetName: string;
  targetColumn: string | null;
  columns: Record<string, StoredColumn>;
  algorithm: Record<string, unknown>;
  metrics: Record<string, unknown>;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface ModelFilter {
  dataSourceName?: string;
  createdAfter?: number;
  createdBefore?: number;
}

export class ModelsStore {
  constructor(private readonly db: Db) {}

  async insert(m: ModelRecord, artifact: string): Promise<void> {
    await this.db.kysely.insertInto('models').values({
      id: m.id, account_id: m.accountId, session_id: m.sessionId, prediction_domain: m.predictionDomain, dataset_name: m.datasetName,
      target_column: m.targetColumn, columns: JSON.stringify(m.columns), algorithm: JSON.stringify(m.algorithm), metrics: JSON.stringify(m.metrics),
      artifact, created_at: m.createdAt,
    }).execute();
  }

  async get(accountId: string, id: string): Promise<ModelRecord | undefined> {
    const r = await this.db.kysely.selectFrom('models').select(META).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r && toRecord(r);
  }

  /** Whether the account still has the model (a cache's check that no other process deleted it). */
  async exists(accountId: string, id: string): Promise<boolean> {
    const r = await this.db.kysely.selectFrom('models').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r !== undefined;
  }

  /** The model with its serialised artifact (JSON text), for prediction. */
  async getWithArtifact(accountId: string, id: string): Promise<{ model: ModelRecord; artifact: string } | undefined> {
    const r = await this.db.kysely.selectFrom('models').select([...META, 'artifact']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r && { model: toRecord(r), artifact: r.artifact };
  }

  private filtered(accountId: string, f: ModelFilter) {
    let q = this.db.kysely.selectFrom('models').where('account_id', '=', accountId);
    if (f.dataSourceName) q = q.where('dataset_name', '=', f.dataSourceName);
    if (f.createdAfter !== undefined) q = q.where('created_at', '>=', new Date(f.createdAfter));
    if (f.createdBefore !== undefined) q = q.where('created_at', '<=', new Date(f.createdBefore));
    return q;
  }

  async list(accountId: string, f: ModelFilter, page: Page, sort: { by?: ModelSort; desc?: boolean } = {}): Promise<PageOf<ModelRecord>> {
    const q = this.filtered(accountId, f);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const dir = sort.desc ? 'desc' : 'asc';
    const rows = await q.select(META).orderBy(MODEL_SORT_COLUMN[sort.by ?? 'createdDate'], dir).orderBy('id', dir).limit(page.size).offset(page.page * page.size).execute();
    return { items: rows.map(toRecord), totalCount: Number(total.n) };
  }

  async ids(accountId: string, f: ModelFilter): Promise<string[]> {
    return (await this.filtered(accountId, f).select('id').execute()).map((r) => r.id);
  }

  async delete(accountId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db.kysely.deleteFrom('models').where('account_id', '=', accountId).where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Adds to the account's prediction count of a month ('YYYY-MM'). */
  async addPredictions(accountId: string, month: string, count: number): Promise<void> {
    await this.db.query(
      `INSERT INTO usage_counters (account_id, month, predictions) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, month) DO UPDATE SET predictions = usage_counters.predictions + EXCLUDED.predictions`,
      [accountId, month, count]);
  }

  async predictions(accountId: string, month: string): Promise<number> {
    const r = await this.db.kysely.selectFrom('usage_counters').select('predictions').where('account_id', '=', accountId).where('month', '=', month).executeTakeFirst();
    return Number(r?.predictions ?? 0);
  }
}

/** What a model list may be sorted by (the model resource's field names), and the column of each. */
export const MODEL_SORTS = ['id', 'dataSourceName', 'predictionDomain', 'createdDate', 'lastUsedDate'] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];
const MODEL_SORT_COLUMN = { id: 'id', dataSourceName: 'dataset_name', predictionDomain: 'prediction_domain', createdDate: 'created_at', lastUsedDate: 'last_used_at' } as const;

const META = ['id', 'account_id', 'session_id', 'prediction_domain', 'dataset_name', 'target_column', 'columns', 'algorithm', 'metrics', 'created_at', 'last_used_at'] as const;

function toRecord(r: {
  id: string; account_id: string; session_id: string; prediction_domain: string; dataset_name: string; target_column: string | null;
  columns: unknown; algorithm: unknown; metrics: unknown; created_at: Date | string; last_used_at: Date | string | null;
}): ModelRecord {
  const j = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    id: r.id, accountId: r.account_id, sessionId: r.session_id, predictionDomain: r.prediction_domain, datasetName: r.dataset_name,
    targetColumn: r.target_column, columns: j(r.columns), algorithm: j(r.algorithm), metrics: j(r.metrics),
    createdAt: new Date(r.created_at), lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
  };
}
