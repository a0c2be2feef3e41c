/** Table types for the typed query builder (Kysely). Keep in step with migrations.ts. */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T extends object | null> = JSONColumnType<T, string, string>;

export interface AccountsTable {
  id: string;
  email: string | null;
  plan: Generated<string>;
  created_at: Timestamp;
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  email_verified_at: NullableTime;
  notify_session_email: Generated<boolean>;
}

export interface WebSessionsTable {
  token_hash: string;
  account_id: string;
  csrf_token: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface AccountTokensTable {
  token_hash: string;
  account_id: string;
  purpose: string;
  email: string | null;
  expires_at: Timestamp;
  used_at: NullableTime;
}

export interface AuthAttemptsTable {
  id: Generated<number>;
  bucket: string;
  at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  label: string | null;
  created_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface DatasetsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  columns: Json<Record<string, StoredColumn>>;
  identity_kind: Generated<'none' | 'key' | 'timestamp'>;
  identity_column: string | null;
  row_count: Generated<number>;
  data_bytes: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** False until the first upload publishes: readers never see a data set being created. */
  published: Generated<boolean>;
  /** The upload that holds the data set's writer lock, and until when. */
  writer: string | null;
  writer_expires_at: Timestamp | null;
  /** Texts that mean "no value" in this data set's cells (domain/missing-values.ts). */
  missing_values: JSONColumnType<string[], string | undefined, string>;
  /** The messages of the latest upload that sent rows (ingest.ts), said again by GET /v1/data/<name>. */
  upload_messages: JSONColumnType<Message[], string | undefined, string>;
}

export interface DatasetSegmentsTable {
  id: Generated<number>;
  dataset_id: number;
  /** building (an upload writing, seen by nobody) → live (part of the data set) → retired (kept for readers, then collected). */
  state: 'building' | 'live' | 'retired';
  /** Order of a data set's live segments. */
  position: Generated<number>;
  row_count: Generated<number>;
  data_bytes: Generated<number>;
  /** building: the upload writing it; its lease is the data set's writer lease. */
  writer: string | null;
  /** retired: collected after this. */
  expires_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface StoredColumn {
  dataType: string;
  role: string | null;
  imputation?: string | null;
  aggregation?: string | null;
}

export interface DatasetRowsTable {
  segment_id: number;
  /** Order within the data set (set by the writer). */
  seq: number;
  ident: string | null;
  ts: number | null;
  /** JSON text of the record. */
  data: string;
}

export interface StatusEntry { date: string; status: string }
export interface Message { severity: string; message: string }

export interface ImportsTable {
  id: string;
  account_id: string;
  type: string;
  dataset_name: string;
  status: string;
  parameters: Json<Record<string, unknown>>;
  secret: Json<Record<string, unknown>> | null;
  content_type: string | null;
  columns: Json<Record<string, unknown>>;
  status_history: Json<StatusEntry[]>;
  messages: Json<Message[]>;
  requested_at: Timestamp;
  updated_at: Timestamp;
  lease_owner: string | null;
  lease_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  attempts: Generated<number>;
}

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface SessionsTable {
  id: string;
  account_id: string;
  type: string;
  status: string;
  prediction_domain: string | null;
  dataset_name: string;
  target_column: string | null;
  name: string | null;
  request: Json<Record<string, unknown>>;
  columns: Json<Record<string, StoredColumn>>;
  status_history: Json<StatusEntry[]>;
  messages: Json<Message[]>;
  callback_url: string | null;
  webhook_token: string | null;
  model_id: string | null;
  algorithm: Json<Record<string, unknown>> | null;
  requested_at: Timestamp;
  updated_at: Timestamp;
  lease_owner: string | null;
  lease_expires_at: NullableTime;
  attempts: Generated<number>;
}

export interface SessionResultsTable {
  session_id: string;
  metrics: Json<Record<string, unknown>>;
  /** JSON text: '[]' since migration 7 (the rows are in session_result_pages). */
  data: string;
  /** JSON text: kind-specific extras kept whole (confusion matrix, contest, calibration…); per-row parts are paged. */
  extra: string;
  /** The session_result_pages generation this result reads. */
  generation: string | null;
  /** JSON: PartsManifest (result-pages.ts). */
  parts: unknown;
}

/** One page of a paged result part (result-pages.ts): a JSON array of RESULT_PAGE_ROWS rows at most. */
export interface SessionResultPagesTable {
  session_id: string;
  generation: string;
  part: string;
  page: number;
  rows: string;
}

export interface ModelsTable {
  id: string;
  account_id: string;
  session_id: string;
  prediction_domain: string;
  dataset_name: string;
  target_column: string | null;
  columns: Json<Record<string, StoredColumn>>;
  algorithm: Json<Record<string, unknown>>;
  metrics: Json<Record<string, unknown>>;
  /** JSON text of the serialised model (encoder + learner). */
  artifact: string;
  created_at: Timestamp;
  last_used_at: NullableTime;
}

export interface OutboxTable {
  id: Generated<number>;
  account_id: string;
  kind: string;
  session_id: string | null;
  target: string;
  payload: string;
  headers: Json<Record<string, string>>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  delivered_at: NullableTime;
  failed_at: NullableTime;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: NullableTime;
  created_at: Timestamp;
}

export interface UsageCountersTable {
  account_id: string;
  month: string;
  sessions: Generated<number>;
  predictions: Generated<number>;
}

export interface ViewsTable {
  account_id: string;
  name: string;
  dataset_name: string;
  definition: unknown;
  calendar_events: unknown | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Schema {
  views: ViewsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  datasets: DatasetsTable;
  dataset_rows: DatasetRowsTable;
  dataset_segments: DatasetSegmentsTable;
  upload_staging: DatasetRowsTable;
  imports: ImportsTable;
  sessions: SessionsTable;
  session_results: SessionResultsTable;
  session_result_pages: SessionResultPagesTable;
  models: ModelsTable;
  outbox: OutboxTable;
  usage_counters: UsageCountersTable;
  web_sessions: WebSessionsTable;
  account_tokens: AccountTokensTable;
  auth_attempts: AuthAttemptsTable;
}
