/**
 * Service configuration, read once from the environment (every variable is documented in the README).
 * Every setting is checked here: a wrong one stops the start with a message that names the variable,
 * what is wrong with its value and the rule, all problems at once.
 */
import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseAllowedHosts } from './outbound/allowed-hosts.js';
import { splitSender } from './notify/smtp-url.js';
import { MIN_KEY_LENGTH } from './service/accounts.js';
import { templateProblem } from './store/embedded-template.js';
import { DEFAULT_MAX_COLUMNS } from './service/datasets/column-limits.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** An empty initialised embedded cluster that a new embedded store is copied from instead of running initdb (test runners set it). */
  embeddedTemplate: string | undefined;
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
  /** Longest time a request may take to arrive, first byte to last (uploads of up to maxCsvBytes over a slow link). */
  requestTimeoutMs: number;
  /** Longest silence while a request's head or body is still arriving; also the longest keep-alive wait between requests (at most 72 s). */
  idleTimeoutMs: number;
  /** Connections one client address may hold open at once; 0: no limit. A reverse proxy is one address. */
  maxConnectionsPerAddress: number;
  /** Columns per data set (a column name's length is fixed: service/datasets/column-limits.ts). */
  maxColumns: number;
  /** Records per predict request. */
  maxPredictRecords: number;
  /** Threads that score prediction batches (0: the API thread scores them). */
  predictThreads: number;
  /** Session workers run in this process (embedded default) — how many at once. */
  workerConcurrency: number;
  /** How long a claimed session/import stays with its worker without a renewal. */
  leaseMs: number;
  /** An upload's lock on its data set outlives its last renewal by this (a killed upload blocks the next one at most this long). */
  writerLeaseMs: number;
  /** On SIGTERM, how long running sessions/imports may take to finish before their leases are given back. */
  shutdownGraceMs: number;
  logLevel: LogLevel;
  smtpUrl: string | undefined;
  /** Public base URL used in links and Location headers; defaults to the request's own host. */
  publicUrl: string | undefined;
  /** Anyone may create an account from the dashboard (SIBYL_SIGNUP=closed for private installs). */
  signupOpen: boolean;
  /** The first account's e-mail address (completion e-mails, sign-in to the dashboard). */
  adminEmail: string | undefined;
  /** Quotas of the free community plan, which every signed-up account is on. */
  communityPlan: PlanLimits;
  /** SIBYL_* variables that no setting reads, each with the setting it may be a misspelling of: printed at start, since they do nothing. */
  warnings: string[];
}

export interface PlanLimits {
  dataSets: number;
  sessionsPerMonth: number;
  predictionsPerDay: number;
  /** Largest single upload (CSV or JSON body), bytes. */
  uploadBytes: number;
}

export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One or more invalid settings; the message lists each with its variable, its problem and the rule. */
export class ConfigError extends Error {
  /** `warnings`: Config.warnings, shown after the problems (a misspelt variable may be why a default was wrong). */
  constructor(readonly problems: string[], warnings: string[] = []) {
    const list = problems.map((p) => `  ${p}`).join('\n');
    super(`invalid setting${problems.length > 1 ? 's' : ''}:\n${list}\n(the settings are described in the README, section Configuration)${warnings.map((w) => `\n${w}`).join('')}`);
    this.name = 'ConfigError';
  }
}

/** What is wrong with a variable's value and the rule it breaks. */
class Problem {
  constructor(readonly message: string) {}
}

const DATABASE_PROTOCOLS = ['postgres:', 'postgresql:', 'socket:'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const settingNames = new Set<string>();
  /** Unset and empty both mean "use the default". */
  const str = (name: string) => {
    settingNames.add(name);
    return env[name] === undefined || env[name] === '' ? undefined : env[name];
  };
  /** The parsed value of a set variable, or its fallback when unset or wrong (then the problem is noted). */
  const check = <T>(name: string, fallback: T, parse: (value: string) => T | Problem): T => {
    const value = str(name);
    if (value === undefined) return fallback;
    const parsed = parse(value);
    if (parsed instanceof Problem) {
      problems.push(`${name}=${JSON.stringify(value)} ${parsed.message}`);
      return fallback;
    }
    return parsed;
  };
  /** A whole number from `min` to `max`; `rule` says what it counts. */
  const whole = (name: string, fallback: number, min: number, rule: string, max = Number.MAX_SAFE_INTEGER) =>
    check(name, fallback, (v) => {
      const n = Number(v);
      if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n)) return new Problem(`is not a whole number: ${rule}`);
      if (n < min || n > max) return new Problem(`is out of range: ${rule}`);
      return n;
    });

  const settings: Omit<Config, 'warnings'> = {
    port: whole('PORT', 8080, 0, 'a TCP port from 0 to 65535 (0 picks a free one)', 65535),
    host: str('HOST') ?? '127.0.0.1',
    dataDir: resolve(str('SIBYL_DATA_DIR') ?? './data'),
    embeddedTemplate: check<string | undefined>('SIBYL_EMBEDDED_TEMPLATE', undefined, (v) => {
      const problem = templateProblem(resolve(v));
      return problem ? new Problem(`${problem}: it names an empty, initialised embedded cluster that new embedded stores are copied from`) : resolve(v);
    }),
    databaseUrl: str('DATABASE_URL'),
    apiKey: str('SIBYL_API_KEY'),
    allowPrivateHosts: str('SIBYL_ALLOW_PRIVATE_HOSTS') ?? '',
    maxJsonBytes: whole('SIBYL_MAX_JSON_BYTES', 32 * 1024 * 1024, 1, 'a size in bytes, at least 1'),
    maxCsvBytes: whole('SIBYL_MAX_CSV_BYTES', 1024 * 1024 * 1024, 1, 'a size in bytes, at least 1'),
    importMaxBytes: whole('SIBYL_IMPORT_MAX_BYTES', 1024 * 1024 * 1024, 1, 'a size in bytes, at least 1'),
    importTimeoutMs: whole('SIBYL_IMPORT_TIMEOUT_MS', 10 * 60 * 1000, 1, 'milliseconds, at least 1'),
    requestTimeoutMs: whole('SIBYL_REQUEST_TIMEOUT_MS', 60 * 60 * 1000, 1000, 'milliseconds, at least 1000: how long a request may take to arrive, first byte to last'),
    idleTimeoutMs: whole('SIBYL_IDLE_TIMEOUT_MS', 2 * 60 * 1000, 100, 'milliseconds, at least 100: how long a request may stay silent while its head or body is still arriving'),
    maxConnectionsPerAddress: whole('SIBYL_MAX_CONNECTIONS_PER_ADDRESS', 1000, 0, 'how many connections one client address may hold open at once, 0 for no limit'),
    maxColumns: whole('SIBYL_MAX_COLUMNS', DEFAULT_MAX_COLUMNS, 1, 'how many columns a data set may have, at least 1'),
    maxPredictRecords: whole('SIBYL_MAX_PREDICT_RECORDS', 10000, 1, 'a number of records, at least 1'),
    predictThreads: whole('SIBYL_PREDICT_THREADS', Math.min(4, availableParallelism()), 0, 'how many threads score prediction batches, 0 or more (0: the API thread does)'),
    workerConcurrency: whole('SIBYL_WORKERS', Math.max(1, availableParallelism() - 1), 1, 'how many sessions/imports run at once, at least 1'),
    leaseMs: whole('SIBYL_LEASE_MS', 30000, 1000, 'milliseconds, at least 1000 (a lease is renewed every third of it)'),
    writerLeaseMs: whole('SIBYL_WRITER_LEASE_MS', 30000, 1000, 'milliseconds, at least 1000 (an upload renews its lock every quarter of it)'),
    shutdownGraceMs: whole('SIBYL_SHUTDOWN_GRACE_MS', 30000, 0, 'milliseconds that running work may take to finish after SIGTERM before it is handed to another worker'),
    logLevel: check<LogLevel>('SIBYL_LOG_LEVEL', 'info', (v) =>
      (LOG_LEVELS as readonly string[]).includes(v) ? (v as LogLevel) : new Problem(`is not a log level: use one of ${LOG_LEVELS.join(', ')}`)),
    smtpUrl: str('SIBYL_SMTP_URL'),
    publicUrl: str('SIBYL_PUBLIC_URL'),
    signupOpen: check('SIBYL_SIGNUP', true, (v) =>
      (v.trim().toLowerCase() === 'open' ? true : v.trim().toLowerCase() === 'closed' ? false : new Problem('is neither open nor closed: whether anyone may create an account from the dashboard'))),
    adminEmail: check<string | undefined>('SIBYL_ADMIN_EMAIL', undefined, (v) =>
      (/^[^@\s]+@[^@\s]+\.[^@\s]+$|^[^@\s]+@localhost$/.test(v.trim()) ? v.trim().toLowerCase() : new Problem('is not an e-mail address: the first account\'s address'))),
    communityPlan: {
      dataSets: whole('SIBYL_PLAN_DATASETS', 1000, 0, 'how many data sets a community account may hold'),
      sessionsPerMonth: whole('SIBYL_PLAN_SESSIONS_PER_MONTH', 10_000, 0, 'how many sessions a community account may start in a month'),
      predictionsPerDay: whole('SIBYL_PLAN_PREDICTIONS_PER_DAY', 1_000_000, 0, 'how many records a community account may predict in a day'),
      uploadBytes: whole('SIBYL_PLAN_UPLOAD_BYTES', 1024 * 1024 * 1024, 1, 'the largest upload of a community account in bytes, at least 1'),
    },
  };
  // After every setting has been read: the names read are the settings.
  const config: Config = { ...settings, warnings: unknownSettings(env, settingNames) };

  if (config.idleTimeoutMs > config.requestTimeoutMs) {
    problems.push(`SIBYL_IDLE_TIMEOUT_MS=${config.idleTimeoutMs} is longer than SIBYL_REQUEST_TIMEOUT_MS=${config.requestTimeoutMs}: a request's silences are part of its whole time, so the idle limit must be at most the request limit`);
  }
  // Secrets and URLs that may hold passwords are described, never repeated.
  if (config.apiKey !== undefined) {
    if (config.apiKey.length < MIN_KEY_LENGTH) {
      problems.push(`SIBYL_API_KEY is ${config.apiKey.length} character${config.apiKey.length === 1 ? '' : 's'} long: an API key needs at least ${MIN_KEY_LENGTH} characters (a shorter one can be guessed; once the first account exists the variable is only checked, so unset it, and make keys with sibyl keys create)`);
    } else if (!/^[\x21-\x7e]+$/.test(config.apiKey)) {
      problems.push('SIBYL_API_KEY contains spaces, control or non-ASCII characters: an API key travels in the api-key header, so it must be visible ASCII characters only');
    }
  }
  if (config.databaseUrl !== undefined) {
    let protocol: string | undefined;
    try { protocol = new URL(config.databaseUrl).protocol; } catch { /* reported below */ }
    if (protocol === undefined) problems.push('DATABASE_URL is not a URL: expected postgres://[user[:password]@]host[:port]/database');
    else if (!DATABASE_PROTOCOLS.includes(protocol)) problems.push(`DATABASE_URL uses the ${protocol.slice(0, -1)} scheme: expected postgres:// or postgresql:// (or socket:)`);
  }
  // The embedded store's directory is made on first start; a file in its place would fail there with a bare EEXIST.
  // (A path through a file is ENOTDIR here: store/data-dir.ts says that when it makes the directory.)
  if (config.databaseUrl === undefined && statIfAny(config.dataDir)?.isDirectory() === false) {
    problems.push(`SIBYL_DATA_DIR=${JSON.stringify(config.dataDir)} is a file, not a directory: where the embedded store lives (made on first start)`);
  }
  if (config.publicUrl !== undefined) {
    let url: URL | undefined;
    try { url = new URL(config.publicUrl); } catch { /* reported below */ }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      problems.push(`SIBYL_PUBLIC_URL=${JSON.stringify(config.publicUrl)} is not an http(s) URL: it is the base of links in responses, e.g. https://sibyl.example.org`);
    }
  }
  for (const validate of [() => parseAllowedHosts(config.allowPrivateHosts), () => config.smtpUrl !== undefined && splitSender(config.smtpUrl)]) {
    try { validate(); } catch (e) { problems.push((e as Error).message); }
  }

  if (problems.length) throw new ConfigError(problems, config.warnings);
  return config;
}

function statIfAny(path: string): Stats | undefined {
  try { return statSync(path, { throwIfNoEntry: false }); } catch { return undefined; }
}

/** Variables of the test and benchmark scripts (README, Tests and benchmarks), which the service does not read. */
const SCRIPT_VARIABLE = /^SIBYL_(BENCHDATA|PYTHON|YARDSTICK|BENCH_|TEST_|FUZZ_|CLUSTER_|E2E_)/;

/** A line for each set SIBYL_* variable that is not a setting, naming the setting it is closest to when one is close. */
function unknownSettings(env: NodeJS.ProcessEnv, settingNames: Set<string>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('SIBYL_') && !settingNames.has(name) && !SCRIPT_VARIABLE.test(name))
    .sort()
    .map((name) => {
      const closest = [...settingNames].map((s) => ({ s, d: editDistance(name, s) })).sort((a, b) => a.d - b.d)[0];
      // A third of the name past its prefix may differ: SIBYL_WORKER, SIBYL_MAX_BODY_BYTES.
      const guess = closest && closest.d <= Math.max(2, Math.floor((name.length - 'SIBYL_'.length) / 3)) ? ` (did you mean ${closest.s}?)` : '';
      return `warning: ${name} is not a setting and does nothing${guess}; the settings are described in the README, section Configuration`;
    });
}

/** Levenshtein distance: insertions, deletions and substitutions of one character. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
