/** The API's resources as the dashboard reads them (a subset of each; see the OpenAPI document at /docs). */

export interface Column { dataType: string; role: string | null; imputation?: string | null; aggregation?: string | null }
export type Columns = Record<string, Column>;

export interface Paged { pageNumber: number; totalPages: number; pageSize: number; totalCount: number }

export interface DataSetSummary {
  dataSetName: string; dataSetSize: number; isTimeSeries: boolean; columns: Columns;
  rowCount: number; columnCount: number; dateCreated: string; lastModified: string;
  /** The data set's own markers for a missing value, when it has any. */
  missingValues?: string[];
  /** What the upload's reading of the values wants the sender to know: a PUT's answer, and on GET /v1/data/<name> the latest upload's. */
  messages?: { severity: string; message: string }[];
}
export interface DataSetPage extends DataSetSummary, Paged { data: Record<string, string>[] }

/** One column's statistics over all rows (`GET /v1/data/<name>/stats`; src/domain/column-stats.ts). */
export interface ColumnStats {
  totalCount: number; missingCount: number; errorCount: number; distinctCount: number; suggestedType: string;
  min: number | string | null; max: number | string | null; mean: number | null; median: number | string | null;
  mode: string | null; stddev: number | null; variance: number | null;
  /** Ten equal ranges of a numeric column; the twenty most frequent values of any other. */
  distribution: ({ min: number; max: number; count: number } | { value: string; count: number })[];
}
export interface DataSetStats { dataSetName: string; columns: Record<string, ColumnStats> }

export interface ImportItem {
  importId: string; status: string; dataSetName: string; parameters: { url?: string };
  requestedDate: string; messages: { message: string; severity: string }[];
}

export type SessionStatus = 'requested' | 'started' | 'completed' | 'failed' | 'cancelled' | string;

export interface Session {
  sessionId: string; type: 'model' | 'forecast' | 'impact'; status: SessionStatus; predictionDomain: string;
  name: string | null; dataSourceName: string; targetColumn: string | null; requestedDate: string;
  statusHistory: { date: string; status: string }[]; messages: { message: string; severity: string }[];
  startDate: string | null; endDate: string | null; resultInterval: string | null; modelId?: string;
  columns: Columns; availablePredictionIntervals: string[]; extraParameters: Record<string, unknown>;
  algorithm?: { key: string; name: string; description: string }; eventName?: string;
  supportsFeatureImportance?: boolean;
}

export interface SessionResults extends Session, Paged {
  metrics: Record<string, number | string>;
  data: Record<string, string>[];
  [extra: string]: unknown;
}

export interface Contestant {
  id: string; algorithm: { name: string; description: string; key: string };
  metrics: Record<string, number>; dataSourceProperties?: string[];
}

export interface Model {
  modelId: string; sessionId: string; predictionDomain: string; dataSourceName: string; createdDate: string;
  algorithm: { key: string; name: string; description: string }; metrics: Record<string, number>; columns: Columns;
  lastUsedDate?: string | null;
}

export interface AccountInfo {
  accountId: string; email: string | null; emailVerified: boolean; hasPassword: boolean; createdDate: string;
  settings: { notifySessionEmail: boolean };
}

export interface AccountPage extends Omit<AccountInfo, 'plan'> {
  plan: { name: string; dataSets: number; sessionsPerMonth: number; predictionsPerDay: number; uploadBytes: number };
  usage: { dataSets: number; sessionsThisMonth: number; predictionsToday: number };
  mailEnabled: boolean;
}

export interface ApiKey { keyId: string; prefix: string; label: string | null; createdDate: string; revokedDate: string | null }

export const FINISHED = new Set(['completed', 'failed', 'cancelled']);
