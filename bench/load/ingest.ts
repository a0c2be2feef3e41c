/**
 * Ingest throughput (issue 12.6): a 1,000,000 × 10 CSV streamed through PUT /v1/data/<name> into
 * a server in its own process, on each store, next to the database's own bulk load of the same
 * file into a plain table of text columns, timed in the same run. Goal: ≥ 150,000 rows/s.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { freshDatabase } from '../../test/support/backends.js';
import { classificationCsv } from './lib/csv-files.js';
import { startBenchServer } from './lib/server.js';
import { uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';
import { ThreadCpu } from './lib/thread-cpu.js';

const GOAL = 150_000;

const scenario: LoadScenario = {
  name: 'ingest',
  description: `CSV upload of --rows (default 1M) × 10 columns over HTTP; goal ≥ ${GOAL} rows/s on both stores`,
  async run({ stores, rows, log }) {
    const { file, mb } = await classificationCsv(rows, 10);
    log(`file: ${rows} rows × 10 columns, ${mb.toFixed(0)} MB`);
    for (const store of stores) {
      const server = await startBenchServer(store);
      try {
        const backends = server.databaseUrl ? await BackendCpu.open(server.databaseUrl) : undefined;
        const cpu0 = server.cpuSeconds();
        await backends?.start();
        const threads = ThreadCpu.start(server.pid);
        const r = await uploadCsv(server.url, 'ingest', file);
        const cpu = server.cpuSeconds() - cpu0;
        const perThread = threads.stop();
        const dbCpu = await backends?.stop();
        if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        const perSecond = Math.round(r.body.rowCount / r.seconds);
        const busiest = perThread[0] ?? 0;
        // On PostgreSQL one backend runs the upload's COPYs: a pipeline stage of its own, on a core of its own.
        const bound = Math.max(busiest, dbCpu ?? 0, (cpu + (dbCpu ?? 0)) / 2);
        // Embedded: the database thread's wall time without CPU is time it waited (for parsed rows, between statements, for a core).
        const idle = store === 'embedded' ? `; the database thread idle ${(r.seconds - busiest).toFixed(1)} s of ${r.seconds.toFixed(1)} s` : '';
        log(`ingest ${store}: server threads' CPU ${perThread.slice(0, 4).map((s) => s.toFixed(1)).join(', ')} s (busiest first${store === 'embedded' ? '; the busiest is the database thread' : ''}${idle}); `
          + `CPU-bound ceiling on 2 free cores ≈ ${Math.round(r.body.rowCount / bound)} rows/s (rows ÷ max(busiest thread${dbCpu === undefined ? '' : ', backends'}, all CPU ÷ 2))`);
        log(`ingest ${store}: ${r.body.rowCount} rows in ${r.seconds.toFixed(1)} s = ${perSecond} rows/s (goal ≥ ${GOAL}: ${perSecond >= GOAL ? 'met' : 'NOT met'}); server peak RSS ${server.peakRssMb()} MB; server CPU ${cpu.toFixed(1)} s (${((cpu / r.body.rowCount) * 1e6).toFixed(1)} µs per row over all its threads${store === 'embedded' ? ', the database thread included' : ''})${dbCpu === undefined ? '' : `; PostgreSQL backends' CPU ${dbCpu.toFixed(1)} s (${((dbCpu / r.body.rowCount) * 1e6).toFixed(1)} µs per row)`}`);
      } finally {
        await server.stop();
      }
      if (store === 'postgres') log(`reference: PostgreSQL's own COPY of the file into a plain table: ${await postgresCopy(file, rows)} rows/s`);
      if (store === 'embedded') log(`reference: PGlite's own COPY of the file into a plain table (in-process, no HTTP): ${await pgliteCopy(file, rows)} rows/s`);
    }
  },
};
export default scenario;

/**
 * CPU seconds used by the PostgreSQL backends serving one database (the server's pool), read from
 * /proc like the server's own: on PostgreSQL the COPY's work is done there, not in the server.
 */
class BackendCpu {
  private before = new Map<number, number>();
  private constructor(private readonly client: pg.Client, private readonly database: string) {}

  static async open(databaseUrl: string): Promise<BackendCpu> {
    const url = new URL(databaseUrl);
    const database = url.pathname.slice(1);
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    return new BackendCpu(client, database);
  }

  async start(): Promise<void> {
    this.before = await this.sample();
  }

  /** CPU seconds since `start` (backends that started meanwhile count whole); closes the monitor. */
  async stop(): Promise<number> {
    try {
      let total = 0;
      for (const [pid, secs] of await this.sample()) total += secs - (this.before.get(pid) ?? 0);
      return total;
    } finally {
      await this.client.end();
    }
  }

  private async sample(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [this.database]);
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
      } catch { /* gone, or not on this machine */ }
    }
    return out;
  }
}

async function postgresCopy(file: string, rows: number): Promise<number> {
  const db = await freshDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE plain (${Array.from({ length: 10 }, (_, j) => `c${j} text`).join(', ')})`);
    const t0 = performance.now();
    await pipeline(createReadStream(file), client.query(copyFrom('COPY plain FROM STDIN (FORMAT csv, HEADER true)')));
    return Math.round(rows / ((performance.now() - t0) / 1000));
  } finally {
    await client.end();
    await db.drop();
  }
}

async function pgliteCopy(file: string, rows: number): Promise<number> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-bench-pglite-'));
  const pgl = new PGlite(dir);
  try {
    await pgl.waitReady;
    await pgl.exec(`CREATE TABLE plain (${Array.from({ length: 10 }, (_, j) => `c${j} text`).join(', ')})`);
    const bytes = readFileSync(file);
    const t0 = performance.now();
    await pgl.query(`COPY plain FROM '/dev/blob' (FORMAT csv, HEADER true)`, [], { blob: new Blob([bytes]) });
    return Math.round(rows / ((performance.now() - t0) / 1000));
  } finally {
    await pgl.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
