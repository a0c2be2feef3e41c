/**
 * Ingest benchmark: a 1,000,000-row × 10-column CSV streamed through PUT /v1/data/<name> into a
 * server running as its own process, on the embedded store and on PostgreSQL (when reachable).
 * Prints rows/s and the server's peak RSS (VmHWM). Goal: ≥ 100,000 rows/s embedded, peak RSS < 1 GB.
 * With --parts, measures the stages in this process instead (parse, profile, row JSON, and the
 * whole ingest into an embedded store without HTTP), which shows real costs on a loaded machine,
 * and the CPU of the database's side alone: the upload's COPY rows copied into dataset_rows as the
 * schema has it, and into a copy of that table without its indexes (PGlite: this process's CPU,
 * its database thread included; PostgreSQL: the backends' CPU).
 *   npm run bench:ingest [-- --rows N] [-- --parts]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { freshDatabase, postgresReachable } from '../test/support/backends.js';
import { csvRowBatches } from '../src/service/datasets/csv-rows.js';
import { RowJsonWriter } from '../src/service/datasets/csv-json.js';
import { CsvRecords } from '../src/service/datasets/record-sources.js';
import { ingest } from '../src/service/datasets/ingest.js';
import { TableProfiler } from '../src/domain/profile.js';
import { openDb } from '../src/store/db.js';
import { AccountsStore } from '../src/store/accounts-store.js';
import { encodeCsv } from '../src/service/datasets/csv-ingest-thread.js';
import { COPY_ROWS } from '../src/service/datasets/ingest.js';
import { ROW_COPY_COLUMNS } from '../src/store/dataset-rows-store.js';
import type { Db } from '../src/store/db.js';

const rowsArg = process.argv.indexOf('--rows');
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 1_000_000;
const KEY = 'sk_bench_ingest_key_000000';

function* csvChunks(rows: number): Generator<string> {
  yield 'id,a,b,c,d,e,f,g,label,city\n';
  const cities = ['Lisbon', 'Porto', 'Braga', 'Faro'];
  let buf = '';
  for (let i = 0; i < rows; i++) {
    buf += `${i},${(i % 1000) / 7},${i % 97},${(i * 0.37) % 50},${i % 13},${(i % 211) / 3},${i % 5},${(i % 71) * 1.5},${i % 2},${cities[i % 4]}\n`;
    if (buf.length > 1 << 16) { yield buf; buf = ''; }
  }
  if (buf) yield buf;
}

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['dist/src/cli.js', 'serve'], { env: { ...process.env, ...env, PORT: '0', SIBYL_API_KEY: KEY, SIBYL_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => { out += d; const m = /listening on (\S+)/.exec(out); if (m) resolve(m[1]!); });
    proc.once('exit', (c) => reject(new Error(`server exited (${c})`)));
  });
  return { proc, url };
}

function upload(url: string, name: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/data/${name}`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    Readable.from(csvChunks(ROWS)).pipe(req);
  });
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function stop(proc: ChildProcess): Promise<void> {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const { proc, url } = await startServer(env);
  try {
    const baseline = peakRssMb(proc.pid!);
    const t0 = performance.now();
    const r = await upload(url, 'ingest');
    const secs = (performance.now() - t0) / 1000;
    if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${r.body.slice(0, 300)}`);
    const rowCount = JSON.parse(r.body).rowCount;
    console.log(`ingest ${label}: ${rowCount} rows × 10 columns in ${secs.toFixed(1)} s = ${Math.round(rowCount / secs)} rows/s; server peak RSS ${peakRssMb(proc.pid!).toFixed(0)} MB (at start ${baseline.toFixed(0)} MB)`);
  } finally {
    await stop(proc);
  }
}

async function timed<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  const secs = (performance.now() - t0) / 1000;
  console.log(`${label}: ${secs.toFixed(2)} s = ${Math.round(ROWS / secs)} rows/s`);
  return result;
}

async function parts(): Promise<void> {
  const chunks = [...csvChunks(ROWS)].map((c) => Buffer.from(c));
  await ingestInProcess(chunks);
  await stages(chunks);
  await copyStages(chunks);
}

const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

/**
 * The database's share of an ingest: the upload's COPY batches (encoded once, as the ingest thread
 * encodes them) into dataset_rows, and into the same table without indexes, on each store.
 */
async function copyStages(chunks: Buffer[]): Promise<void> {
  const batches: Uint8Array[] = [];
  const c0 = cpuSeconds();
  await encodeCsv(Readable.from(chunks), { segment: 1, knownColumns: [], identity: undefined }, COPY_ROWS, Infinity, (b) => { batches.push(b.data as Uint8Array); });
  console.log(`encode (parse, profile, binary COPY rows; the ingest thread's work): ${(cpuSeconds() - c0).toFixed(2)} s CPU`);
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-ingest-'));
  const embedded = await openDb({ dataDir: dir });
  try {
    await copyInto(embedded, 'PGlite', batches, cpuSeconds);
  } finally {
    await embedded.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (!(await postgresReachable())) return console.log('COPY on PostgreSQL: skipped (no PostgreSQL at 127.0.0.1:5432)');
  const pgdb = await freshDatabase();
  const db = await openDb({ databaseUrl: pgdb.url });
  try {
    const name = new URL(pgdb.url).pathname.slice(1);
    await copyInto(db, 'PostgreSQL backends', batches, async () => {
      let total = 0;
      for (const { pid } of await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])) {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        total += (Number(fields[11]) + Number(fields[12])) / 100;
      }
      return total;
    });
  } finally {
    await db.close();
    await pgdb.drop();
  }
}

async function copyInto(db: Db, label: string, batches: Uint8Array[], cpu: () => number | Promise<number>): Promise<void> {
  await db.query('CREATE TABLE rows_without_indexes (LIKE dataset_rows)');
  for (const table of ['dataset_rows', 'rows_without_indexes']) {
    const c0 = await cpu();
    // Each batch is handed over to the database (transferred), so copy it first.
    for (const b of batches) await db.bulk().copyIn(table, ROW_COPY_COLUMNS, b.slice(), 'binary');
    const secs = (await cpu()) - c0;
    console.log(`COPY into ${table} (${label}): ${secs.toFixed(2)} s CPU = ${Math.round(ROWS / secs)} rows per CPU-second`);
  }
}

async function ingestInProcess(chunks: Buffer[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-ingest-'));
  const db = await openDb({ dataDir: dir });
  try {
    const account = await new AccountsStore(db).createAccount(crypto.randomUUID(), null);
    const records = new CsvRecords(Readable.from(chunks), { maxBytes: Infinity });
    await timed('ingest in process (PGlite)', () => ingest(db, { accountId: account.id, name: 'ingest', records, requestedColumns: {} }));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each stage alone, over rows parsed once and held (so these run with a larger heap than ingest). */
async function stages(chunks: Buffer[]): Promise<void> {
  const batches = await timed('parse', async () => {
    const all: { header: readonly string[]; rows: string[][] }[] = [];
    for await (const b of csvRowBatches(Readable.from(chunks), { maxBytes: Infinity })) all.push(b);
    return all;
  });
  const header = batches[0]!.header;
  await timed('profile', () => {
    const profiler = new TableProfiler([], header);
    for (const b of batches) for (const row of b.rows) profiler.addRow(row);
  });
  await timed('row JSON', () => {
    const json = new RowJsonWriter(header);
    let bytes = 0;
    for (const b of batches) for (const row of b.rows) bytes += json.write(row).length;
    return bytes;
  });
}

if (process.argv.includes('--parts')) {
  await parts();
} else {
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-ingest-'));
  const env = { SIBYL_DATA_DIR: dir, DATABASE_URL: '' };
  try {
    // Creating a store (initdb) peaks near 900 MB by itself; measure a server opening an existing one.
    await stop((await startServer(env)).proc);
    await run('embedded (PGlite)', env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (await postgresReachable()) {
    const db = await freshDatabase();
    try { await run('PostgreSQL', { DATABASE_URL: db.url }); } finally { await db.drop(); }
  } else {
    console.log('ingest PostgreSQL: skipped (no PostgreSQL at 127.0.0.1:5432)');
  }
}
