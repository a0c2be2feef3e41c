import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import { AccountsStore } from '../store/accounts-store.js';
import { AccountsService } from './accounts.js';
import { DatasetsService } from './datasets/datasets-service.js';
import { ImportsService } from './imports/imports-service.js';
import { VocabulariesService } from './vocabularies/vocabularies-service.js';
import { UsageService, plans } from './usage.js';
import { SessionsService } from './sessions/sessions-service.js';
import { parseAllowedHosts } from '../outbound/index.js';
import { AuthService } from './auth/auth-service.js';
import { ViewsService } from './views/views-service.js';
import { MessagesService } from './messages.js';
import { MAX_COLUMN_NAME_CHARS } from './datasets/column-limits.js';

/** The use cases, wired once per process; api/ and jobs/ receive this. */
import { Metrics } from './metrics.js';
import { processLogger, type Logger } from '../log.js';

export interface Services {
  db: Db;
  config: Config;
  accounts: AccountsService;
  usage: UsageService;
  datasets: DatasetsService;
  imports: ImportsService;
  vocabularies: VocabulariesService;
  sessions: SessionsService;
  views: ViewsService;
  auth: AuthService;
  messages: MessagesService;
  metrics: Metrics;
  /** Work outside requests (sessions, imports, deliveries): one line per outcome, never per row or poll. */
  log: Logger;
  /** Set by the process that runs jobs, so new work starts without waiting for the next poll. */
  jobs?: { poke(): void };
}

export function createServices(db: Db, config: Config, log: Logger = processLogger(config.logLevel)): Services {
  const usage = new UsageService(db, plans(config.communityPlan, Math.max(config.maxCsvBytes, config.maxJsonBytes)));
  const accounts = new AccountsService(new AccountsStore(db));
  const datasets = new DatasetsService(db, usage, config.writerLeaseMs, { maxColumns: config.maxColumns, maxNameChars: MAX_COLUMN_NAME_CHARS });
  const imports = new ImportsService(db, datasets, {
    allowHosts: parseAllowedHosts(config.allowPrivateHosts),
    maxBytes: config.importMaxBytes,
    maxJsonBytes: config.maxJsonBytes,
    maxCsvBytes: config.maxCsvBytes,
    timeoutMs: config.importTimeoutMs,
    uploadLimit: (accountId) => usage.uploadLimit(accountId),
  }, log);
  const siteBase = () => (config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`).replace(/\/+$/, '');
  const publicBase = () => `${siteBase()}/v1`;
  const sessions = new SessionsService(db, publicBase, parseAllowedHosts(config.allowPrivateHosts));
  sessions.beforeCreate = (accountId) => usage.assertCanStartSession(accountId);
  const views = new ViewsService(db, datasets, { allowHosts: parseAllowedHosts(config.allowPrivateHosts), timeoutMs: config.importTimeoutMs });
  datasets.views = views;
  datasets.onDelete(async (accountId, name, cascade) => {
    const sessionsToo = cascade.some((c) => c.startsWith('session') || c === 'forecast');
    if (sessionsToo) await sessions.deleteMatching(accountId, { dataSourceName: name });
    if (cascade.some((c) => c.startsWith('view'))) {
      for (const view of await views.deleteReading(accountId, name)) if (sessionsToo) await sessions.deleteMatching(accountId, { dataSourceName: view });
    }
  });
  const auth = new AuthService(db, { signupOpen: config.signupOpen, mailEnabled: Boolean(config.smtpUrl), linkBase: siteBase });
  const metrics = new Metrics(db);
  datasets.onIngested = (rows) => metrics.ingestRows.inc(rows);
  const vocabularies = new VocabulariesService(db);
  datasets.onDelete(async (accountId, name, cascade) => {
    if (cascade.some((c) => c.startsWith('vocabular'))) await vocabularies.deleteMatching(accountId, { dataSourceName: name });
  });
  return { db, config, accounts, usage, datasets, imports, vocabularies, sessions, views, auth, messages: new MessagesService(db), metrics, log };
}
