/** Table types for the typed query builder (Kysely). Keep in step with migrations.ts. */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T extends object | null> = JSONColumnType<T, string, string>;

export interface AccountsTable {
  id: string;
  email: string | null;
  plan: Generated<string>;
  created_at: Timestamp;
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
}

export interface StoredColumn {
  dataType: string;
  role: string | null;
  imputation?: string | null;
  aggregation?: string | null;
}

export interface DatasetRowsTable {
  dataset_id: number;
  seq: Generated<number>;
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

export interface Schema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  datasets: DatasetsTable;
  dataset_rows: DatasetRowsTable;
  imports: ImportsTable;
}
