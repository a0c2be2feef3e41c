/** Service configuration, read once from the environment (every variable is documented in the README). */
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  apiKey: string | undefined;
  allowPrivateHosts: string;
  /** Largest JSON request body, bytes (JSON is parsed into memory, so it is bounded tighter than CSV). */
  maxJsonBytes: number;
  /** Largest CSV upload, bytes (streamed, never held whole). */
  maxCsvBytes: number;
  /** URL imports: largest (decompressed) download and longest transfer. */
  importMaxBytes: number;
  importTimeoutMs: number;
  /** Records per predict request. */
  maxPredictRecords: number;
  /** Session workers run in this process (embedded default) — how many at once. */
  workerConcurrency: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Public base URL used in links and Location headers; defaults to the request's own host. */
  publicUrl: string | undefined;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${v}"`);
  return Math.floor(n);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const str = (k: string) => (env[k] === undefined || env[k] === '' ? undefined : env[k]);
  return {
    port: int(env, 'PORT', 8080),
    host: str('HOST') ?? '127.0.0.1',
    dataDir: resolve(str('SIBYL_DATA_DIR') ?? './data'),
    databaseUrl: str('DATABASE_URL'),
    apiKey: str('SIBYL_API_KEY'),
    allowPrivateHosts: env.SIBYL_ALLOW_PRIVATE_HOSTS ?? '',
    maxJsonBytes: int(env, 'SIBYL_MAX_JSON_BYTES', 32 * 1024 * 1024),
    maxCsvBytes: int(env, 'SIBYL_MAX_CSV_BYTES', 1024 * 1024 * 1024),
    importMaxBytes: int(env, 'SIBYL_IMPORT_MAX_BYTES', 1024 * 1024 * 1024),
    importTimeoutMs: int(env, 'SIBYL_IMPORT_TIMEOUT_MS', 10 * 60 * 1000),
    maxPredictRecords: int(env, 'SIBYL_MAX_PREDICT_RECORDS', 10000),
    workerConcurrency: int(env, 'SIBYL_WORKERS', Math.max(1, availableParallelism() - 1)),
    smtpUrl: str('SIBYL_SMTP_URL'),
    mailFrom: str('SIBYL_MAIL_FROM') ?? 'sibyl@localhost',
    publicUrl: str('SIBYL_PUBLIC_URL'),
  };
}
