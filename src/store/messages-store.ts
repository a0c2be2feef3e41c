/**
 * An account's messages, read from where they are kept: each status a session or an import entered
 * (its status history) and the messages stored on it. Nothing is written here; no table of its own.
 */
import type { Db } from './db.js';
import { offsetOf, type Page, type PageOf } from './paging.js';

export type RelatedTo = 'session' | 'import';

export interface AccountMessage {
  relatedTo: RelatedTo;
  relatedId: string;
  /** Where it comes from: a status entry, or a message stored on the session or import. */
  source: 'status' | 'message';
  /** 1-based position in that list; the lists are only appended to, so it stays the message's place. */
  ordinal: number;
  severity: string;
  /** The status entered (source 'status') or the message's text. */
  text: string;
  createdAt: Date;
}

export interface MessageFilter {
  relatedId?: string;
  severities?: string[];
}

/**
 * One row per message. Stored messages have no time of their own: they are written when their
 * session or import is created and when it ends, so they take the time of its last change.
 */
const MESSAGES = (table: 'sessions' | 'imports', relatedTo: RelatedTo) => `
  SELECT '${relatedTo}' AS related_to, t.id::text AS related_id, 'status' AS source, e.ordinal, 'status' AS severity,
         e.value->>'status' AS text, (e.value->>'date')::timestamptz AS created_at
    FROM ${table} t, jsonb_array_elements(t.status_history) WITH ORDINALITY AS e(value, ordinal)
   WHERE t.account_id = $1 AND ($2::text IS NULL OR t.id::text = $2)
  UNION ALL
  SELECT '${relatedTo}', t.id::text, 'message', e.ordinal, e.value->>'severity', e.value->>'message', t.updated_at
    FROM ${table} t, jsonb_array_elements(t.messages) WITH ORDINALITY AS e(value, ordinal)
   WHERE t.account_id = $1 AND ($2::text IS NULL OR t.id::text = $2)`;

const ACCOUNT_MESSAGES = `
  WITH m AS (${MESSAGES('sessions', 'session')} UNION ALL ${MESSAGES('imports', 'import')})
  SELECT * FROM m WHERE $3::text[] IS NULL OR severity = ANY($3::text[])`;

type Row = { related_to: RelatedTo; related_id: string; source: 'status' | 'message'; ordinal: number | string; severity: string; text: string; created_at: Date | string };

export class MessagesStore {
  constructor(private readonly db: Db) {}

  /** Newest first; messages of the same instant in a fixed order, so pages do not overlap. */
  async list(accountId: string, filter: MessageFilter, page: Page): Promise<PageOf<AccountMessage>> {
    const params = [accountId, filter.relatedId ?? null, filter.severities ?? null];
    const [rows, count] = await Promise.all([
      this.db.query<Row>(`${ACCOUNT_MESSAGES} ORDER BY created_at DESC, related_id, source, ordinal DESC LIMIT $4 OFFSET $5`, [...params, page.size, offsetOf(page)]),
      this.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM (${ACCOUNT_MESSAGES}) counted`, params),
    ]);
    return {
      totalCount: Number(count[0]?.n ?? 0),
      items: rows.map((r) => ({
        relatedTo: r.related_to, relatedId: r.related_id, source: r.source, ordinal: Number(r.ordinal),
        severity: r.severity, text: r.text, createdAt: new Date(r.created_at),
      })),
    };
  }
}
