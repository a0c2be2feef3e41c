import type { Db } from './db.js';
import type { Page, PageOf } from './paging.js';

export interface VocabularyWordRow {
  text: string;
  type: 'word' | 'stopWord';
  rank?: number;
}

export interface VocabularyRecord {
  id: string;
  accountId: string;
  dataSourceName: string;
  dataSourceType: string;
  columnName: string;
  sessionId: string | null;
  createdAt: Date;
}

export interface VocabularyFilter {
  dataSourceName?: string;
  sessionId?: string;
}

type Row = { id: string; account_id: string; data_source_name: string; data_source_type: string; column_name: string; session_id: string | null; created_at: Date | string };

const toRecord = (r: Row): VocabularyRecord => ({
  id: r.id, accountId: r.account_id, dataSourceName: r.data_source_name, dataSourceType: r.data_source_type,
  columnName: r.column_name, sessionId: r.session_id, createdAt: new Date(r.created_at),
});

/** SQL of the vocabularies table (migration 9). */
export class VocabulariesStore {
  constructor(private readonly db: Db) {}

  async insert(r: Omit<VocabularyRecord, 'createdAt'>, words: VocabularyWordRow[]): Promise<void> {
    await this.db.query(
      `INSERT INTO vocabularies (id, account_id, data_source_name, data_source_type, column_name, session_id, words)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
      [r.id, r.accountId, r.dataSourceName, r.dataSourceType, r.columnName, r.sessionId, JSON.stringify(words)]);
  }

  async list(accountId: string, f: VocabularyFilter, page: Page): Promise<PageOf<VocabularyRecord>> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (f.dataSourceName !== undefined) { params.push(f.dataSourceName); where.push(`data_source_name = $${params.length}`); }
    if (f.sessionId !== undefined) { params.push(f.sessionId); where.push(`session_id = $${params.length}`); }
    const w = where.join(' AND ');
    const [count] = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM vocabularies WHERE ${w}`, params);
    const rows = await this.db.query<Row>(
      `SELECT id, account_id, data_source_name, data_source_type, column_name, session_id, created_at FROM vocabularies
       WHERE ${w} ORDER BY created_at, column_name, id LIMIT ${page.size} OFFSET ${page.page * page.size}`, params);
    return { items: rows.map(toRecord), totalCount: Number(count?.n ?? 0) };
  }

  async get(accountId: string, id: string): Promise<{ record: VocabularyRecord; words: VocabularyWordRow[] } | undefined> {
    const [r] = await this.db.query<Row & { words: unknown }>('SELECT * FROM vocabularies WHERE account_id = $1 AND id = $2', [accountId, id]);
    if (!r) return undefined;
    const words = (typeof r.words === 'string' ? JSON.parse(r.words) : r.words) as VocabularyWordRow[];
    return { record: toRecord(r), words };
  }

  /** Deletes matching vocabularies (one by id, or by data source and/or session); returns how many. */
  async delete(accountId: string, f: VocabularyFilter & { id?: string }): Promise<number> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (f.id !== undefined) { params.push(f.id); where.push(`id = $${params.length}`); }
    if (f.dataSourceName !== undefined) { params.push(f.dataSourceName); where.push(`data_source_name = $${params.length}`); }
    if (f.sessionId !== undefined) { params.push(f.sessionId); where.push(`session_id = $${params.length}`); }
    const rows = await this.db.query(`DELETE FROM vocabularies WHERE ${where.join(' AND ')} RETURNING id`, params);
    return rows.length;
  }
}
