/**
 * An account's messages, read from where they are kept: each status a session or an import entered
 * (its status history), the messages stored on it, and those of each data set's latest upload.
 * Nothing is written here; no table of its own.
 */
import type { Db } from './db.js';
import { offsetOf, type Page, type PageOf } from './paging.js';

export type RelatedTo = 'session' | 'import' | 'dataSet';

export interface AccountMessage {
  relatedTo: RelatedTo;
  /** A session's or import's id, a data set's name. */
  relatedId: string;
  /** What the message belongs to, never reused: a session's or import's id, a data set's row id. */
  ownerKey: string;
  /** Where it comes from: a status entry, or a message stored on the session, import or data set. */
  source: 'status' | 'message';
  /** 1-based position in that list; session and import lists are only appended to, so it stays the message's place. */
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
 * Times as text that sorts as time: status entries hold `Date.toISOString()` (always
 * YYYY-MM-DDTHH:MM:SS.sssZ), and an owner's last change is written the same way, so the rows of a
 * page are ordered without casting every status entry of the account to a timestamp.
 */
export const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One row per message. A session's or import's stored messages carry the time they were written
 * (dated-messages.ts); those stored before they did take the time of their owner's last change.
 */
const OWNED = (table: 'sessions' | 'imports', relatedTo: RelatedTo) => `
  SELECT '${relatedTo}' AS related_to, t.id::text AS related_id, t.id::text AS owner_key, 'status' AS source, e.ordinal,
         'status' AS severity, e.value->>'status' AS text, e.value->>'date' AS at
    FROM ${table} t, jsonb_array_elements(t.status_history) WITH ORDINALITY AS e(value, ordinal)
   WHERE t.account_id = $1 AND ($2::text IS NULL OR t.id::text = $2) AND ($3::text[] IS NULL OR 'status' = ANY($3::text[]))
  UNION ALL
  SELECT '${relatedTo}', t.id::text, t.id::text, 'message', e.ordinal, e.value->>'severity', e.value->>'message', COALESCE(e.value->>'date', ${ISO('t.updated_at')})
    FROM ${table} t, jsonb_array_elements(t.messages) WITH ORDINALITY AS e(value, ordinal)
   WHERE t.account_id = $1 AND ($2::text IS NULL OR t.id::text = $2) AND ($3::text[] IS NULL OR e.value->>'severity' = ANY($3::text[]))`;

/**
 * A data set is named by its name (its id in the API); one being created is seen by nobody. Its upload's
 * messages carry the time the upload published them (datasets-store.ts `publish`): a later change of
 * its metadata alone keeps them; those stored before they carried one take the data set's last change.
 */
const DATA_SETS = `
  SELECT 'dataSet', d.name, d.id::text, 'message', e.ordinal, e.value->>'severity', e.value->>'message', COALESCE(e.value->>'date', ${ISO('d.updated_at')})
    FROM datasets d, jsonb_array_elements(d.upload_messages) WITH ORDINALITY AS e(value, ordinal)
   WHERE d.account_id = $1 AND d.published AND ($2::text IS NULL OR d.name = $2) AND ($3::text[] IS NULL OR e.value->>'severity' = ANY($3::text[]))`;

const ACCOUNT_MESSAGES = `${OWNED('sessions', 'session')} UNION ALL ${OWNED('imports', 'import')} UNION ALL ${DATA_SETS}`;

/**
 * The count without unpacking the status histories: their lengths are enough, and stored messages
 * are few beside them.
 */
const COUNT_OWNED = (table: 'sessions' | 'imports') => `
  SELECT CASE WHEN $3::text[] IS NULL OR 'status' = ANY($3::text[]) THEN jsonb_array_length(t.status_history) ELSE 0 END
       + CASE WHEN $3::text[] IS NULL THEN jsonb_array_length(t.messages)
              ELSE (SELECT count(*) FROM jsonb_array_elements(t.messages) e WHERE e->>'severity' = ANY($3::text[])) END AS n
    FROM ${table} t WHERE t.account_id = $1 AND ($2::text IS NULL OR t.id::text = $2)`;

const COUNT_DATA_SETS = `
  SELECT CASE WHEN $3::text[] IS NULL THEN jsonb_array_length(d.upload_messages)
              ELSE (SELECT count(*) FROM jsonb_array_elements(d.upload_messages) e WHERE e->>'severity' = ANY($3::text[])) END
    FROM datasets d WHERE d.account_id = $1 AND d.published AND ($2::text IS NULL OR d.name = $2)`;

const COUNT = `SELECT COALESCE(sum(n), 0) AS n FROM (${COUNT_OWNED('sessions')} UNION ALL ${COUNT_OWNED('imports')} UNION ALL ${COUNT_DATA_SETS}) counted`;

type Row = { related_to: RelatedTo; related_id: string; owner_key: string; source: 'status' | 'message'; ordinal: number | string; severity: string; text: string; at: string };

export class MessagesStore {
  constructor(private readonly db: Db) {}

  /** Newest first; messages of the same instant in a fixed order, so pages do not overlap. */
  async list(accountId: string, filter: MessageFilter, page: Page): Promise<PageOf<AccountMessage>> {
    const params = [accountId, filter.relatedId ?? null, filter.severities ?? null];
    const [rows, count] = await Promise.all([
      this.db.query<Row>(`SELECT * FROM (${ACCOUNT_MESSAGES}) m ORDER BY at COLLATE "C" DESC, related_to, owner_key, source, ordinal DESC LIMIT $4 OFFSET $5`, [...params, page.size, offsetOf(page)]),
      this.db.query<{ n: number | string }>(COUNT, params),
    ]);
    return {
      totalCount: Number(count[0]?.n ?? 0),
      items: rows.map((r) => ({
        relatedTo: r.related_to, relatedId: r.related_id, ownerKey: r.owner_key, source: r.source, ordinal: Number(r.ordinal),
        severity: r.severity, text: r.text, createdAt: new Date(r.at),
      })),
    };
  }
}
