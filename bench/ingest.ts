/**
 * Ingest benchmark: a 1,000,000-row × 10-column CSV streamed through PUT /v1/data/<name> into a
 * server running as its own process, on the embedded store and on PostgreSQL (when reachable).
 * Prints rows/s and the server's peak RSS (VmHWM). Goal: ≥ 100,000 rows/s embedded, peak RSS < 1 GB.
 *   npm run bench:ingest [-- --rows N]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { freshDatabase, postgresReachable } from '../test/support/backends.js';

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
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sibyl-ingest-'));
try {
  await run('embedded (PGlite)', { SIBYL_DATA_DIR: dir, DATABASE_URL: '' });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (await postgresReachable()) {
  const db = await freshDatabase();
  try { await run('PostgreSQL', { DATABASE_URL: db.url }); } finally { await db.drop(); }
} else {
  console.log('ingest PostgreSQL: skipped (no PostgreSQL at 127.0.0.1:5432)');
}
