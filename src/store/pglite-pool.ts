import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgLiteReply, PgLiteRequest } from './pglite-protocol.js';
import { copyFromSql, type ConnectPriority, type CopyFormat, type SqlClient, type SqlPool, type SqlResult } from './sql-pool.js';

/** How long bulk work leaves the connection to interactive requests after their last statement. */
const INTERACTIVE_GRACE_MS = 5;

/** Runs statements on the embedded database: in its own thread (pglite-worker.ts), or in this one. */
interface PgLiteHost {
  query(sql: string, params?: readonly unknown[], bytes?: Uint8Array): Promise<{ rows: Record<string, unknown>[]; affectedRows: number; bytes?: Uint8Array }>;
  close(): Promise<void>;
}

/**
 * PGlite is one connection in this process. Handing it out as a pool of one (callers queue)
 * keeps transactions isolated: nothing else runs on the connection between BEGIN and COMMIT.
 * So that the queue is short, bulk work (uploads, a session's reads) comes in short transactions
 * and bounded chunks; and so that waiting on it never stalls the event loop, the database runs in
 * a worker thread.
 */
export class PgLitePool implements SqlPool {
  readonly kind = 'pglite' as const;
  private busy = false;
  private readonly waiting: Record<ConnectPriority, (() => void)[]> = { interactive: [], bulk: [] };
  private lastInteractive = 0;
  private grantTimer: NodeJS.Timeout | undefined;
  private idle: (() => void) | undefined;

  private constructor(private readonly host: PgLiteHost) {}

  static async open(dataDir: string | undefined): Promise<PgLitePool> {
    return new PgLitePool(await openHost(dataDir));
  }

  /**
   * The one connection, handed to one caller at a time: interactive callers first; bulk work
   * only once no interactive caller has used it for INTERACTIVE_GRACE_MS, so a request that runs
   * several statements one after another waits behind at most one bulk statement in all.
   */
  connect(priority: ConnectPriority = 'interactive'): Promise<SqlClient> {
    return new Promise<void>((granted) => {
      this.waiting[priority].push(granted);
      this.grant();
    }).then(() => {
      let released = false;
      const host = this.host;
      return {
        async query<R>(sql: string, params?: readonly unknown[]): Promise<SqlResult<R>> {
          const r = await host.query(sql, params);
          return { rows: r.rows as R[], rowCount: r.affectedRows, command: sql.trimStart().split(/\s/, 1)[0]!.toUpperCase() };
        },
        release: () => {
          if (released) return;
          released = true;
          if (priority === 'interactive') this.lastInteractive = performance.now();
          this.busy = false;
          this.grant();
        },
      };
    });
  }

  private grant(): void {
    if (this.busy) return;
    const interactive = this.waiting.interactive.shift();
    if (interactive) {
      this.busy = true;
      interactive();
      return;
    }
    if (this.waiting.bulk.length === 0) {
      this.idle?.();
      return;
    }
    const wait = this.lastInteractive + INTERACTIVE_GRACE_MS - performance.now();
    if (wait > 0) {
      this.grantTimer ??= setTimeout(() => { this.grantTimer = undefined; this.grant(); }, wait);
      return;
    }
    this.busy = true;
    this.waiting.bulk.shift()!();
  }

  async copyIn(_client: SqlClient, table: string, columns: readonly string[], data: Uint8Array | string, format: CopyFormat = 'text'): Promise<void> {
    // COPY … FROM '/dev/blob' is PGlite's fast path. The caller holds the only connection, so this
    // runs inside its transaction (or, outside one, is its own).
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    if (bytes.length === 0) return;
    await this.host.query(copyFromSql(table, columns, "'/dev/blob'", format), [], bytes);
  }

  private ended: Promise<void> | undefined;

  /** Waits for the connection to be free, then closes the database; idempotent. */
  end(): Promise<void> {
    return (this.ended ??= this.drainAndClose());
  }

  private async drainAndClose(): Promise<void> {
    while (this.busy || this.waiting.interactive.length > 0 || this.waiting.bulk.length > 0) {
      await new Promise<void>((r) => (this.idle = r));
    }
    await this.host.close();
  }
}

const WORKER_FILE = fileURLToPath(new URL('./pglite-worker.js', import.meta.url));

/** The compiled build runs PGlite in a worker thread; under tsx (no compiled worker) it runs in-thread. */
async function openHost(dataDir: string | undefined): Promise<PgLiteHost> {
  return existsSync(WORKER_FILE) ? WorkerHost.open(dataDir) : InThreadHost.open(dataDir);
}

class WorkerHost implements PgLiteHost {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: PgLiteReply & { ok: true }) => void; reject: (e: Error) => void }>();
  private failed: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PgLiteReply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return;
      this.waiting.delete(reply.id);
      if (reply.ok) w.resolve(reply);
      else w.reject(Object.assign(new Error(reply.message), reply.fields));
    });
    const fail = (e: Error) => {
      this.failed = e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedded database thread stopped (exit code ${code})`)));
  }

  static async open(dataDir: string | undefined): Promise<WorkerHost> {
    const worker = new Worker(WORKER_FILE, { workerData: { dataDir } });
    let onMessage!: (m: PgLiteReply) => void;
    let onError!: (e: Error) => void;
    let onExit!: (code: number) => void;
    try {
      await new Promise<void>((resolve, reject) => {
        onMessage = (m) => (m.ok ? resolve() : reject(Object.assign(new Error(m.message), m.fields)));
        onError = reject;
        onExit = (code) => reject(new Error(`the embedded database could not be opened (exit code ${code})`));
        worker.once('message', onMessage).once('error', onError).once('exit', onExit);
      });
    } finally {
      // Only our own listeners: the worker's internal ones keep its message port running.
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    }
    return new WorkerHost(worker);
  }

  private send(req: PgLiteRequest): Promise<PgLiteReply & { ok: true }> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      // The COPY input is handed over, not copied: callers never reuse it.
      this.worker.postMessage(req, req.kind === 'query' && req.bytes ? [req.bytes.buffer as ArrayBuffer] : []);
    });
  }

  async query(sql: string, params?: readonly unknown[], bytes?: Uint8Array) {
    if (bytes && (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength)) bytes = bytes.slice();
    const r = await this.send({ id: this.nextId++, kind: 'query', sql, params, bytes });
    return { rows: r.rows ?? [], affectedRows: r.affectedRows ?? 0, bytes: r.bytes };
  }

  async close(): Promise<void> {
    if (this.failed) return;
    await this.send({ id: this.nextId++, kind: 'close' });
    await this.worker.terminate();
  }
}

class InThreadHost implements PgLiteHost {
  private constructor(private readonly pg: import('@electric-sql/pglite').PGlite) {}

  static async open(dataDir: string | undefined): Promise<InThreadHost> {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = new PGlite(dataDir, { parsers: { 20: (v: string) => Number(v) } });
    await pg.waitReady;
    return new InThreadHost(pg);
  }

  async query(sql: string, params?: readonly unknown[], bytes?: Uint8Array) {
    const r = await this.pg.query<Record<string, unknown>>(sql, params as unknown[] | undefined, bytes ? { blob: new Blob([bytes]) } : undefined);
    return { rows: r.rows, affectedRows: r.affectedRows ?? r.rows.length, bytes: r.blob ? new Uint8Array(await r.blob.arrayBuffer()) : undefined };
  }

  close(): Promise<void> {
    return this.pg.close();
  }
}
