import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openStore } from './store/open-store.js';
import { createServices, type Services } from './service/services.js';
import { buildApp } from './api/app.js';
import { JobLoop, type JobKind } from './jobs/job-loop.js';
import { importJobs } from './jobs/import-jobs.js';
import type { RouteRegistrar } from './api/route-registrar.js';
import { processLogger, type Logger } from './log.js';
import { checkListenHost } from './listen-host.js';

export interface Feature {
  /** Extra routes (e.g. sessions, models). */
  routes?: RouteRegistrar;
  /** Extra claimable work (e.g. sessions). */
  jobs?: (services: Services) => JobKind<unknown>;
  /** Wiring into the core services (cascades, usage counters). */
  setup?: (services: Services) => void | Promise<void>;
  close?: () => Promise<void>;
}

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** Set only when the first start created an account without SIBYL_API_KEY: print it once. */
  bootstrapKey?: string;
  /** Set while the first account has SIBYL_ADMIN_EMAIL but no password yet: a link to choose one (print it). */
  adminPasswordLink?: string;
  /** Jobs run in this process (absent with `--workers 0`). */
  jobs?: JobLoop;
  /**
   * Stops taking requests and claiming work; running jobs get `graceMs` to finish (default: all the
   * time they need), then their leases are released for another worker. `releaseNow()` ends the grace.
   */
  close(graceMs?: number): Promise<void>;
  releaseNow(): void;
}

export interface RunningWorker {
  jobs: JobLoop;
  close(graceMs?: number): Promise<void>;
  releaseNow(): void;
}

/** Features beyond the data-set core register here, so the server and `sibyl worker` share one list. */
export const features: Feature[] = [];

/** Opens the store, wires the services, serves the API and (unless disabled) runs jobs in this process. */
/** `runJobs: false` (or `workers: 0`) serves the API only; `workers` overrides SIBYL_WORKERS; `log` receives the lines of work outside requests. */
export async function startServer(config: Config, opts: { runJobs?: boolean; workers?: number; logLevel?: string; log?: Logger } = {}): Promise<RunningServer> {
  await checkListenHost(config.host);
  const store = await openStore(config);
  let app: FastifyInstance | undefined;
  try {
    const services = createServices(store.db, config, opts.log ?? processLogger(opts.logLevel ?? config.logLevel));
    for (const f of features) await f.setup?.(services);
    app = await buildApp({
      services, maxJsonBytes: config.maxJsonBytes, maxCsvBytes: config.maxCsvBytes,
      timeouts: { requestTimeoutMs: config.requestTimeoutMs, idleTimeoutMs: config.idleTimeoutMs }, maxConnectionsPerAddress: config.maxConnectionsPerAddress, publicUrl: config.publicUrl,
      logLevel: opts.logLevel ?? config.logLevel,
      extraRoutes: features.flatMap((f) => (f.routes ? [f.routes] : [])),
    });
    let jobs: JobLoop | undefined;
    if (opts.runJobs !== false && opts.workers !== 0) {
      jobs = new JobLoop([importJobs(services) as JobKind<unknown>, ...features.flatMap((f) => (f.jobs ? [f.jobs(services)] : []))],
        { concurrency: opts.workers ?? config.workerConcurrency, leaseMs: config.leaseMs, log: services.log });
      services.jobs = jobs;
    }
    await app.listen({ port: config.port, host: config.host });
    // Only once the server listens: the first account's key is printed once, when the start succeeded,
    // so a start that fails (the port in use) must not create the account and lose its key.
    const boot = await services.accounts.bootstrap(config.apiKey, config.adminEmail);
    if (boot.configuredKeyUnknown) {
      services.log.warn('SIBYL_API_KEY is set but matches no active key of any account, so it is ignored: it only gives the first account its key, '
        + 'on the first start. To add a key to an account: sibyl keys create --account ID|EMAIL (README, Accounts and keys)');
    }
    jobs?.start();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    services.config.port = port; // port 0 = "any free port": links in callbacks need the real one
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const admin = config.adminEmail && boot.accountId ? await services.accounts.findAccount(boot.accountId) : undefined;
    const adminPasswordLink = admin?.email && !admin.hasPassword ? await services.auth.operatorPasswordLink(admin.id) : undefined;
    const listening = app;
    return {
      app, services, url: `http://${host}:${port}`, bootstrapKey: boot.key, adminPasswordLink, jobs,
      releaseNow: () => jobs?.releaseNow(),
      async close(graceMs?: number) {
        const stopping = jobs?.stop(graceMs);
        await listening.close();
        await Promise.all([stopping, services.imports.drain(graceMs ?? config.shutdownGraceMs)]);
        for (const f of features) await f.close?.();
        await store.close();
      },
    };
  } catch (e) {
    // The timers features started (outbox, collectors) would otherwise go on polling a closed store.
    await app?.close();
    for (const f of features) await f.close?.();
    await store.close();
    throw e;
  }
}

/** `sibyl worker`: claims and runs jobs only (scale-out with DATABASE_URL); `concurrency` overrides SIBYL_WORKERS. */
export async function startWorker(config: Config, opts: { concurrency?: number } = {}): Promise<RunningWorker> {
  const store = await openStore(config);
  const log = processLogger(config.logLevel, { role: 'worker' });
  const services = createServices(store.db, config, log);
  for (const f of features) await f.setup?.(services);
  const jobs = new JobLoop([importJobs(services) as JobKind<unknown>, ...features.flatMap((f) => (f.jobs ? [f.jobs(services)] : []))],
    { concurrency: opts.concurrency ?? config.workerConcurrency, leaseMs: config.leaseMs, log });
  services.jobs = jobs;
  jobs.start();
  // A worker serves nothing: while the database is away it holds no connection, and the loops'
  // timers do not keep a process alive by themselves, so without this it would quietly exit
  // (code 0) at a PostgreSQL restart, and the sessions would wait for workers that are gone.
  const alive = setInterval(() => {}, 1 << 30);
  return {
    jobs,
    releaseNow: () => jobs.releaseNow(),
    async close(graceMs?: number) {
      try { await jobs.stop(graceMs); for (const f of features) await f.close?.(); await store.close(); } finally { clearInterval(alive); }
    },
  };
}
