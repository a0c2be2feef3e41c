/**
 * `sibyl serve [--workers N]` (default): API + N jobs at once in this process (`--workers 0`: API only).
 * `sibyl worker [--concurrency N]`: jobs only (with DATABASE_URL, any number of them on any machines).
 * SIGTERM/SIGINT: stop taking requests and claiming work, let running work finish for
 * SIBYL_SHUTDOWN_GRACE_MS, then give its leases back; a second signal gives them back at once.
 * `sibyl accounts create [--email E] | list | password-link --account ID|EMAIL | plan community|unlimited --account …`, `sibyl keys create [--account ID|EMAIL] [--label L] | list [--account …] | revoke ID|PREFIX`.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { startServer, startWorker } from './server.js';
import { openStore } from './store/open-store.js';
import { AccountsStore } from './store/accounts-store.js';
import { AccountsService, shownPrefix } from './service/accounts.js';
import { EmbeddedStoreBusy } from './store/embedded-lock.js';
import { AuthService } from './service/auth/auth-service.js';
import type { Db } from './store/db.js';
import { ValidationError } from './service/errors.js';
import { lifecycleLogger, type Logger } from './log.js';
import './features.js';

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', sub, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') { console.log(USAGE); return 0; }
  const config = loadConfig();
  // A serving process's stdout is its JSON log: its own lines are log lines too. Secrets meant for the
  // person who started it (the first key, a set-password link) go to stderr as plain text instead.
  const serving = command === 'serve' || command === 'worker';
  const log = lifecycleLogger(config.logLevel, serving && command === 'worker' ? { role: 'worker' } : {});
  for (const warning of config.warnings) {
    if (serving) log.warn(warning);
    else console.warn(warning);
  }
  if (command === 'serve') {
    const workers = countOption([sub, ...rest].filter((a): a is string => a !== undefined), 'workers', 0);
    if (typeof workers === 'string') { console.error(workers); return 2; }
    const server = await startServer(config, { workers });
    if (server.bootstrapKey) {
      console.error(`\nCreated the first account. Its API key (shown once, stored only as a hash):\n\n  ${server.bootstrapKey}\n`);
      log.info('created the first account; its API key was written once to stderr, not to this log');
    }
    if (server.adminPasswordLink) {
      console.error(`\nThe first account (${config.adminEmail}) has no password yet. Choose one here (the link works once, for 7 days):\n\n  ${server.adminPasswordLink}\n`);
      log.info('the first account has no password yet; a link to choose one was written to stderr, not to this log');
    }
    const jobsNote = server.jobs ? `${workers ?? config.workerConcurrency} job(s) at once in this process` : 'API only (--workers 0)';
    const store = config.databaseUrl ? 'PostgreSQL' : config.dataDir;
    log.info({ url: server.url, store, jobs: server.jobs ? workers ?? config.workerConcurrency : 0 }, `Sibyl listening on ${server.url} (store: ${store}; ${jobsNote}); dashboard at ${server.url}/`);
    onSignal(server, config.shutdownGraceMs, log);
    return -1;
  }
  if (command === 'worker') {
    if (!config.databaseUrl) log.warn('sibyl worker without DATABASE_URL uses the embedded store, which the server cannot share; set DATABASE_URL to scale out.');
    const concurrency = countOption([sub, ...rest].filter((a): a is string => a !== undefined), 'concurrency', 1);
    if (typeof concurrency === 'string') { console.error(concurrency); return 2; }
    const worker = await startWorker(config, { concurrency });
    log.info({ jobs: concurrency ?? config.workerConcurrency, worker: worker.jobs.owner }, `Sibyl worker running (${concurrency ?? config.workerConcurrency} job(s) at once, owner ${worker.jobs.owner})`);
    onSignal(worker, config.shutdownGraceMs, log);
    return -1;
  }
  if (command === 'accounts' || command === 'keys') return admin(command, sub, rest, config);
  console.error(`unknown command '${command}'. Commands: serve, worker, accounts create|list|password-link|plan, keys create|list|revoke (sibyl help)`);
  return 2;
}

const USAGE = `usage:
  sibyl [serve] [--workers N]            API and dashboard, plus N sessions/imports at once (0: API only)
  sibyl worker [--concurrency N]         sessions/imports only (with DATABASE_URL, next to other processes)
  sibyl accounts create [--email E] | list | password-link --account ID|EMAIL | plan community|unlimited --account ID|EMAIL
                                         (without --email: an account for API keys only, which cannot sign in to the dashboard)
  sibyl keys create [--account ID|EMAIL] [--label L] | list [--account ID|EMAIL] | revoke KEY_ID|PREFIX
Settings are environment variables (PORT, HOST, SIBYL_DATA_DIR, DATABASE_URL, SIBYL_API_KEY, …): see README.md, Configuration.`;

async function admin(command: string, sub: string | undefined, rest: string[], config: ReturnType<typeof loadConfig>): Promise<number> {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { email: { type: 'string' }, account: { type: 'string' }, label: { type: 'string' } } });
  const store = await openStore(config);
  try {
    const accounts = new AccountsService(new AccountsStore(store.db));
    const accountOf = async () => {
      if (values.account) {
        const a = await accounts.findAccount(values.account);
        if (!a) throw new Error(`no account ${values.account}`);
        return a;
      }
      const all = await accounts.listAccounts();
      if (all.length !== 1) throw new Error(`there are ${all.length} accounts: name one with --account ID|EMAIL`);
      return all[0]!;
    };
    if (command === 'accounts' && sub === 'create') {
      const a = await accounts.createAccount(values.email ?? null);
      const { key } = await accounts.createKey(a.id, 'initial');
      // With an address, its holder can sign in to the dashboard after choosing a password at this link.
      const setPasswordLink = a.email ? await passwordLinks(store.db, config).operatorPasswordLink(a.id) : undefined;
      console.log(JSON.stringify({ accountId: a.id, email: a.email, apiKey: key, setPasswordLink }, null, 2));
      if (!a.email) console.error('The account has no e-mail address: it uses its API keys only and cannot sign in to the dashboard (create one with --email E for that).');
      else explainLinkBase(config);
      return 0;
    }
    if (command === 'accounts' && sub === 'password-link') {
      const a = await accountOf();
      if (!a.email) { console.error('the account has no e-mail address: it cannot sign in to the dashboard'); return 1; }
      console.log(await passwordLinks(store.db, config).operatorPasswordLink(a.id));
      explainLinkBase(config);
      return 0;
    }
    if (command === 'accounts' && sub === 'plan') {
      const plan = positionals[0];
      if (plan !== 'community' && plan !== 'unlimited') { console.error('usage: sibyl accounts plan community|unlimited --account ID|EMAIL'); return 2; }
      const a = await accountOf();
      await new AccountsStore(store.db).setPlan(a.id, plan);
      console.log(`${a.email ?? a.id} is on the ${plan} plan`);
      return 0;
    }
    if (command === 'accounts' && sub === 'list') {
      for (const a of await accounts.listAccounts()) console.log(`${a.id}\t${a.email ?? '-'}\t${a.plan}\t${a.createdAt.toISOString()}`);
      return 0;
    }
    if (command === 'keys' && sub === 'create') {
      const a = await accountOf();
      const { key, row } = await accounts.createKey(a.id, values.label ?? null);
      console.log(JSON.stringify({ keyId: row.id, accountId: a.id, apiKey: key }, null, 2));
      return 0;
    }
    if (command === 'keys' && sub === 'list') {
      const accountId = values.account ? (await accountOf()).id : undefined;
      for (const k of await accounts.listKeys(accountId)) {
        console.log(`${k.id}\t${shownPrefix(k.prefix)}…\t${k.accountId}\t${k.label ?? '-'}\t${k.revokedAt ? 'revoked ' + k.revokedAt.toISOString() : 'active'}`);
      }
      return 0;
    }
    if (command === 'keys' && sub === 'revoke') {
      const which = positionals[0];
      if (!which) { console.error('usage: sibyl keys revoke KEY_ID|PREFIX|~FINGERPRINT'); return 2; }
      const n = await accounts.revokeKey(which);
      console.log(n ? `revoked ${n} key(s)` : 'no active key matched');
      return n ? 0 : 1;
    }
    console.error(`unknown: ${command} ${sub ?? ''}`);
    return 2;
  } finally {
    await store.close();
  }
}

function passwordLinks(db: Db, config: ReturnType<typeof loadConfig>): AuthService {
  return new AuthService(db, { signupOpen: config.signupOpen, mailEnabled: Boolean(config.smtpUrl), linkBase: () => linkBase(config) });
}

/** SIBYL_PUBLIC_URL, else this command's own HOST and PORT, which need not be the server's. */
function linkBase(config: ReturnType<typeof loadConfig>): string {
  return (config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`).replace(/\/+$/, '');
}

/** Without SIBYL_PUBLIC_URL the link's address is a guess from HOST and PORT: say so, and how to set it. */
function explainLinkBase(config: ReturnType<typeof loadConfig>): void {
  if (config.publicUrl) return;
  const from = process.env.HOST || process.env.PORT ? 'HOST and PORT as set for this command' : 'the default HOST and PORT, as neither is set for this command';
  console.error(`The link starts with ${linkBase(config)}, from ${from}. If people reach the dashboard at another address, set SIBYL_PUBLIC_URL to it (e.g. SIBYL_PUBLIC_URL=https://sibyl.example.org) and make a new link with sibyl accounts password-link.`);
}

/** `--name N` (or `--name=N`): a whole number ≥ min, undefined when absent, or a usage message. */
function countOption(args: string[], name: string, min: number): number | undefined | string {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ args, allowPositionals: true, strict: true, options: { [name]: { type: 'string' } } });
    } catch (e) {
      return { values: {}, positionals: [(e as Error).message] };
    }
  })();
  if (positionals.length) return `usage: sibyl ${name === 'workers' ? 'serve [--workers N]' : 'worker [--concurrency N]'} (${positionals.join(' ')})`;
  const v = (values as Record<string, string | undefined>)[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) return `--${name} ${JSON.stringify(v)} is not a whole number of at least ${min}`;
  return Number(v);
}

/**
 * First SIGTERM/SIGINT: stop taking requests and claiming, give running work `graceMs` to finish,
 * then release its leases and exit. A second signal releases the leases at once.
 */
function onSignal(target: { close(graceMs?: number): Promise<void>; releaseNow(): void }, graceMs: number, log: Logger): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) {
      log.info({ signal }, `${signal} again: giving back the leases of running work now`);
      target.releaseNow();
      return;
    }
    closing = true;
    log.info({ signal, graceMs }, `${signal}: no new work; running work has ${graceMs} ms to finish before its leases are given back`);
    // A shutdown that hangs (a stuck receiver, a long upload) must not keep the process forever.
    setTimeout(() => { log.error({ signal }, 'the shutdown did not end in time; exiting'); process.exit(1); }, graceMs + 15000).unref();
    target.close(graceMs).then(() => { log.info('stopped'); process.exit(0); }, (err) => { log.error({ err }, 'the shutdown failed'); process.exit(1); });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** What a failed command says: the store's own message, the way out of a taken port, or the error. */
function failureMessage(e: unknown): unknown {
  if (e instanceof EmbeddedStoreBusy) return e.message;
  // What the accounts commands refuse: each reason, named by its option (not the API's 'Request is invalid').
  if (e instanceof ValidationError) {
    return `error: ${Object.entries(e.details).flatMap(([name, messages]) => (Array.isArray(messages) ? messages : [messages]).map((m) => `--${name}: ${String(m)}`)).join('; ')}`;
  }
  if (!(e instanceof Error)) return e;
  const listen = e as NodeJS.ErrnoException & { address?: string; port?: number };
  if (listen.code === 'EADDRINUSE' && listen.port !== undefined) {
    return `error: port ${listen.port} (${listen.address}) is already in use by another process: stop it, or choose another port with PORT (e.g. PORT=${listen.port + 1} npm start)`;
  }
  return `error: ${e.message}`;
}

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exitCode = code; },
  (e) => {
    console.error(failureMessage(e));
    process.exitCode = 1;
  },
);
