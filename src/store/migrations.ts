/**
 * Schema migrations, applied in order at start by every process (under an advisory lock, so
 * several API/worker processes starting together against one PostgreSQL apply each exactly once).
 * One schema and one SQL dialect serve PGlite and PostgreSQL.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'accounts, keys, data sets, rows, imports',
    sql: `
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text UNIQUE,
  plan text NOT NULL DEFAULT 'community',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  prefix text NOT NULL,
  hash text NOT NULL,
  label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_prefix ON api_keys(prefix);

CREATE TABLE datasets (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  columns jsonb NOT NULL DEFAULT '{}',
  identity_kind text NOT NULL DEFAULT 'none',
  identity_column text,
  row_count bigint NOT NULL DEFAULT 0,
  data_bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, name)
);

-- One row per record. ident = key value or epoch-ms of the timestamp (NULL when rows only append);
-- data = the record as uploaded (a JSON object, values as strings), kept as text: COPY into text is
-- ~2x faster than into json and 4x faster than jsonb, and only the service writes it.
-- No foreign key: the per-row FK check halves bulk-load speed; rows are deleted explicitly with their data set.
CREATE TABLE dataset_rows (
  dataset_id bigint NOT NULL,
  seq bigserial NOT NULL,
  ident text,
  ts bigint,
  data text NOT NULL,
  PRIMARY KEY (dataset_id, seq)
);
CREATE UNIQUE INDEX dataset_rows_ident ON dataset_rows(dataset_id, ident) WHERE ident IS NOT NULL;
CREATE INDEX dataset_rows_ts ON dataset_rows(dataset_id, ts) WHERE ts IS NOT NULL;

CREATE TABLE imports (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  type text NOT NULL,
  dataset_name text NOT NULL,
  status text NOT NULL,
  parameters jsonb NOT NULL,
  secret jsonb,
  content_type text,
  columns jsonb NOT NULL DEFAULT '{}',
  status_history jsonb NOT NULL DEFAULT '[]',
  messages jsonb NOT NULL DEFAULT '[]',
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  lease_expires_at timestamptz,
  attempts int NOT NULL DEFAULT 0
);
CREATE INDEX imports_account ON imports(account_id, requested_at);
CREATE INDEX imports_claim ON imports(status, requested_at);
`,
  },
  {
    version: 2,
    name: 'sessions, results, models, outbox',
    sql: `
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  type text NOT NULL,
  status text NOT NULL,
  prediction_domain text,
  dataset_name text NOT NULL,
  target_column text,
  name text,
  request jsonb NOT NULL DEFAULT '{}',
  columns jsonb NOT NULL DEFAULT '{}',
  status_history jsonb NOT NULL DEFAULT '[]',
  messages jsonb NOT NULL DEFAULT '[]',
  callback_url text,
  webhook_token text,
  model_id uuid,
  algorithm jsonb,
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  lease_expires_at timestamptz,
  attempts int NOT NULL DEFAULT 0
);
CREATE INDEX sessions_account ON sessions(account_id, requested_at);
CREATE INDEX sessions_claim ON sessions(status, requested_at);

-- Results are written once, when a session completes; large row sets are kept as JSON text.
CREATE TABLE session_results (
  session_id uuid PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  metrics jsonb NOT NULL DEFAULT '{}',
  data text NOT NULL DEFAULT '[]',
  extra text NOT NULL DEFAULT '{}'
);

CREATE TABLE models (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  session_id uuid NOT NULL,
  prediction_domain text NOT NULL,
  dataset_name text NOT NULL,
  target_column text,
  columns jsonb NOT NULL,
  algorithm jsonb NOT NULL,
  metrics jsonb NOT NULL DEFAULT '{}',
  artifact text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX models_account ON models(account_id, created_at);

-- Notifications (status callbacks, e-mail) are written in the same transaction as the status
-- change that causes them, then delivered with retries: none is lost, none blocks a session.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL,
  kind text NOT NULL,
  session_id uuid,
  target text NOT NULL,
  payload text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}',
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_pending ON outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;

-- Monthly counters behind the quota headers.
CREATE TABLE usage_counters (
  account_id uuid NOT NULL,
  month text NOT NULL,
  sessions bigint NOT NULL DEFAULT 0,
  predictions bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, month)
);
`,
  },
  {
    version: 3,
    name: 'column metadata keeps its column order',
    // jsonb sorts object keys; column maps must come back in the order the data had (CSV output, GET).
    sql: `
ALTER TABLE datasets ALTER COLUMN columns TYPE json USING columns::json;
ALTER TABLE datasets ALTER COLUMN columns SET DEFAULT '{}';
ALTER TABLE imports ALTER COLUMN columns TYPE json USING columns::json;
ALTER TABLE imports ALTER COLUMN columns SET DEFAULT '{}';
ALTER TABLE sessions ALTER COLUMN columns TYPE json USING columns::json;
ALTER TABLE sessions ALTER COLUMN columns SET DEFAULT '{}';
ALTER TABLE models ALTER COLUMN columns TYPE json USING columns::json;
`,
  },
  {
    version: 4,
    name: 'dashboard accounts: passwords, browser sessions, one-time links, attempts, settings',
    sql: `
ALTER TABLE accounts ADD COLUMN password_hash text;
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;
ALTER TABLE accounts ADD COLUMN notify_session_email boolean NOT NULL DEFAULT true;
CREATE UNIQUE INDEX accounts_email_lower ON accounts (lower(email));

-- A signed-in browser: the cookie holds a random token, only its hash is kept; the CSRF token
-- must come back in a header on every state-changing request made with the cookie.
CREATE TABLE web_sessions (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_account ON web_sessions(account_id);

-- One-time links sent by e-mail (address verification, password reset): hashed, expiring, used once.
CREATE TABLE account_tokens (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  email text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Sign-in, sign-up and reset attempts per bucket (e-mail or client address), for rate limiting
-- that holds across every API process sharing the database.
CREATE TABLE auth_attempts (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_attempts_bucket ON auth_attempts(bucket, at);

-- Sessions started count against the monthly quota even when deleted later; this month so far:
INSERT INTO usage_counters (account_id, month, sessions)
  SELECT account_id, to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM'), count(*) FROM sessions
  WHERE requested_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  GROUP BY 1, 2
  ON CONFLICT (account_id, month) DO UPDATE SET sessions = EXCLUDED.sessions;
`,
  },
  {
    version: 5,
    name: 'staged uploads: rows in segments, published in one step',
    // An upload writes its rows into a new segment in short transactions, then publishes it in one
    // (whole or unchanged, even after kill -9: an unpublished segment is never read and is collected).
    // Rows with an identity are merged into a fresh copy of the data set (copy-on-write), so readers
    // of the previous version keep reading it until they finish. seq is set by the writer (no sequence).
    sql: `
CREATE TABLE dataset_segments (
  id bigserial PRIMARY KEY,
  dataset_id bigint NOT NULL,
  state text NOT NULL,
  position int NOT NULL DEFAULT 0,
  row_count bigint NOT NULL DEFAULT 0,
  data_bytes bigint NOT NULL DEFAULT 0,
  writer text,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dataset_segments_dataset ON dataset_segments(dataset_id, state, position);
INSERT INTO dataset_segments (id, dataset_id, state, row_count, data_bytes) SELECT id, id, 'live', row_count, data_bytes FROM datasets;
SELECT setval(pg_get_serial_sequence('dataset_segments', 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM datasets), false);
ALTER TABLE dataset_rows RENAME COLUMN dataset_id TO segment_id;
ALTER TABLE dataset_rows ALTER COLUMN seq DROP DEFAULT;
DROP SEQUENCE IF EXISTS dataset_rows_seq_seq;
ALTER TABLE datasets ADD COLUMN published boolean NOT NULL DEFAULT true;
ALTER TABLE datasets ADD COLUMN writer text;
ALTER TABLE datasets ADD COLUMN writer_expires_at timestamptz;
-- An identity upload's rows as sent (duplicates and all), merged into the new segment before publishing.
CREATE TABLE upload_staging (
  segment_id bigint NOT NULL,
  seq bigint NOT NULL,
  ident text,
  ts bigint,
  data text NOT NULL
);
CREATE INDEX upload_staging_ident ON upload_staging(segment_id, ident, seq);
`,
  },
  {
    version: 6,
    name: 'lease claims: who held which session or import, and until when',
    // One row per claim; renewals move expires_at, a shutting-down worker's release sets released_at.
    // A holder's time is [claimed_at, min(expires_at, released_at)]; two holders of one job never overlap.
    sql: `
CREATE TABLE lease_claims (
  id bigserial PRIMARY KEY,
  job_table text NOT NULL,
  job_id text NOT NULL,
  owner text NOT NULL,
  claimed_at timestamptz NOT NULL,
  expires_at timestamptz,
  released_at timestamptz
);
CREATE INDEX lease_claims_job ON lease_claims(job_table, job_id, owner);
`,
  },
  {
    version: 7,
    name: 'paged session results',
    // A result's per-row parts (result rows, class and anomaly scores, outliers, each forecast
    // interval level's rows) are kept in pages of 1,000 rows (store/result-pages.ts), written in
    // short statements under a generation that the completing transaction names in session_results.
    // Results stored before are converted here, keeping their row and key order (json, not jsonb).
    sql: `
CREATE TABLE session_result_pages (
  session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  generation text NOT NULL,
  part text NOT NULL,
  page int NOT NULL,
  rows text NOT NULL,
  PRIMARY KEY (session_id, generation, part, page)
);
ALTER TABLE session_results ADD COLUMN generation text;
ALTER TABLE session_results ADD COLUMN parts json;
INSERT INTO session_result_pages (session_id, generation, part, page, rows)
SELECT session_id, 'migrated', part, ((ord - 1) / 1000)::int, json_agg(elem ORDER BY ord)::text
FROM (
  SELECT r.session_id, 'data' AS part, e.elem, e.ord
    FROM session_results r,
      json_array_elements(CASE WHEN json_typeof(r.data::json) = 'array' THEN r.data::json ELSE '[]'::json END) WITH ORDINALITY AS e(elem, ord)
  UNION ALL
  SELECT r.session_id, k.key, e.elem, e.ord
    FROM session_results r, json_each(r.extra::json) AS k(key, value),
      json_array_elements(CASE WHEN k.key IN ('classScores', 'anomalyScores', 'outliers') AND json_typeof(k.value) = 'array' THEN k.value ELSE '[]'::json END) WITH ORDINALITY AS e(elem, ord)
  UNION ALL
  SELECT r.session_id, 'intervals:' || l.key, e.elem, e.ord
    FROM session_results r, json_each(r.extra::json) AS k(key, value),
      json_each(CASE WHEN k.key = 'intervals' AND json_typeof(k.value) = 'object' THEN k.value ELSE '{}'::json END) AS l(key, value),
      json_array_elements(CASE WHEN json_typeof(l.value) = 'array' THEN l.value ELSE '[]'::json END) WITH ORDINALITY AS e(elem, ord)
) x
GROUP BY session_id, part, ((ord - 1) / 1000)::int;
UPDATE session_results r SET
  generation = 'migrated',
  parts = json_build_object('pageRows', 1000, 'rows', (
    SELECT COALESCE(json_object_agg(p.part, p.n ORDER BY p.o1, p.o2), '{}'::json) FROM (
      SELECT 'data' AS part, json_array_length(CASE WHEN json_typeof(r.data::json) = 'array' THEN r.data::json ELSE '[]'::json END) AS n, 0::bigint AS o1, 0::bigint AS o2
      UNION ALL
      SELECT k.key, json_array_length(CASE WHEN json_typeof(k.value) = 'array' THEN k.value ELSE '[]'::json END), k.ord, 0::bigint
        FROM json_each(r.extra::json) WITH ORDINALITY AS k(key, value, ord)
        WHERE k.key IN ('classScores', 'anomalyScores', 'outliers') AND json_typeof(k.value) = 'array'
      UNION ALL
      SELECT 'intervals:' || l.key, json_array_length(CASE WHEN json_typeof(l.value) = 'array' THEN l.value ELSE '[]'::json END), k.ord, l.ord
        FROM json_each(r.extra::json) WITH ORDINALITY AS k(key, value, ord),
          json_each(CASE WHEN k.key = 'intervals' AND json_typeof(k.value) = 'object' THEN k.value ELSE '{}'::json END) WITH ORDINALITY AS l(key, value, ord)
    ) p)),
  extra = COALESCE((
    SELECT json_object_agg(k.key, k.value ORDER BY k.ord)::text
      FROM json_each(r.extra::json) WITH ORDINALITY AS k(key, value, ord)
      WHERE NOT (k.key IN ('classScores', 'anomalyScores', 'outliers') AND json_typeof(k.value) = 'array')
        AND NOT (k.key = 'intervals' AND json_typeof(k.value) = 'object')), '{}'),
  data = '[]'
WHERE r.parts IS NULL;
`,
  },
  {
    version: 8,
    name: 'views: a data set joined with other data sets or calendars',
    // definition = { joins, columns } as the client sent them (normalised); calendar_events caches the
    // events of URL calendars once fetched, so a view reads the same calendar every time.
    sql: `
CREATE TABLE views (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  dataset_name text NOT NULL,
  definition jsonb NOT NULL,
  calendar_events jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, name)
);
`,
  },
  {
    version: 9,
    name: 'vocabularies: the words of text columns that model sessions chose',
    // One row per text column of a completed model session; its words (kept terms with their rank,
    // stop words met) are one small JSON document, read and paged whole.
    sql: `
CREATE TABLE vocabularies (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  data_source_name text NOT NULL,
  data_source_type text NOT NULL DEFAULT 'dataSet',
  column_name text NOT NULL,
  session_id uuid,
  words jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vocabularies_account ON vocabularies(account_id, created_at);
`,
  },
  {
    version: 10,
    name: "datasets: the data set's own markers for a missing value",
    // The dashboard-era missingValues (domain/missing-values.ts): applied when rows are read, never
    // written into them, so markers set later apply to every row.
    sql: `ALTER TABLE datasets ADD COLUMN missing_values jsonb NOT NULL DEFAULT '[]';`,
  },
  {
    version: 11,
    name: "datasets: the messages of the latest upload that sent rows",
    // Kept so GET /v1/data/<name> says them to whoever comes back later: a later upload with rows
    // replaces them (they say how that upload's rows were read), a change of metadata only keeps them.
    sql: `ALTER TABLE datasets ADD COLUMN upload_messages jsonb NOT NULL DEFAULT '[]';`,
  },
  {
    version: 12,
    name: 'api_keys: a chosen key is listed by a fingerprint of its hash, not its first characters',
    // The first account's key may be SIBYL_API_KEY, whose first 8 characters were stored in clear as
    // its prefix. Which first keys were chosen cannot be told from the row, so every first key gets
    // the fingerprint (service/accounts.ts: '~' and 7 hex digits of the SHA-256 hash); the lookup
    // tries both forms. Keys made since by the CLI or the dashboard are generated, their prefix random.
    sql: `UPDATE api_keys SET prefix = '~' || substr(hash, 1, 7) WHERE label = 'bootstrap';`,
  },
];
