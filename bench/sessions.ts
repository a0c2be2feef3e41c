/**
 * Model-session benchmark through HTTP against a server in its own process (embedded store):
 * upload → model session → completed → predict, for a 10,000 × 30 and a 100,000 × 30 set.
 * Prints seconds to completion, the test metrics, single-record predict latency (p50/p99) and
 * rows/s for 1,000-record batches. Goals: 10k session < 10 s; p99 < 10 ms; batches > 50,000 rows/s.
 * The target is a noisy nonlinear score: its sign for classification (the default), the score itself
 * for regression.
 *   npm run bench:sessions [-- --rows 10000,100000] [--domains classification,regression]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const rowsArg = process.argv.indexOf('--rows');
const SIZES = rowsArg > 0 ? process.argv[rowsArg + 1]!.split(',').map(Number) : [10_000, 100_000];
type Domain = 'classification' | 'regression';
const domainsArg = process.argv.indexOf('--domains');
const DOMAINS = (domainsArg > 0 ? process.argv[domainsArg + 1]!.split(',') : ['classification']) as Domain[];
const KEY = 'sk_bench_sessions_key_0000';
const FEATURES = 28;
const SINGLE_PREDICTS = 500;
const BATCHES = 30;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** 28 numeric features (some missing), a 4-level category and a target from a noisy nonlinear score. */
function records(n: number, seed: number, domain: Domain): Record<string, string>[] {
  const rnd = random(seed);
  const regions = ['north', 'south', 'east', 'west'];
  const out: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const row: Record<string, string> = {};
    const x: number[] = [];
    for (let j = 0; j < FEATURES; j++) {
      x.push(rnd() * 2 - 1);
      row[`f${j}`] = rnd() < 0.05 ? '' : x[j]!.toFixed(4);
    }
    const region = Math.floor(rnd() * 4);
    row.region = regions[region]!;
    const score = 1.5 * x[0]! - x[1]! + x[2]! * x[3]! * 2 + (x[4]! > 0 ? 0.8 : -0.8) + 0.3 * region - 0.45 + (rnd() - 0.5) * 1.5;
    row.target = domain === 'classification' ? (score > 0 ? '1' : '0') : score.toFixed(4);
    out.push(row);
  }
  return out;
}

function csv(rows: Record<string, string>[]): string {
  const cols = Object.keys(rows[0]!);
  return [cols.join(','), ...rows.map((r) => cols.map((c) => r[c]).join(','))].join('\n') + '\n';
}

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [...(process.env.SIBYL_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.SIBYL_BENCH_PROFILE] : []), 'dist/src/cli.js', 'serve'], { env: { ...process.env, ...env, PORT: '0', SIBYL_API_KEY: KEY, SIBYL_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => { out += d; const m = /listening on (\S+)/.exec(out); if (m) resolve(m[1]!); });
    proc.once('exit', (c) => reject(new Error(`server exited (${c})`)));
  });
  return { proc, url };
}

async function call(url: string, method: string, path: string, body?: string, type = 'application/json'): Promise<any> {
  const res = await fetch(url + path, { method, headers: { 'api-key': KEY, ...(body ? { 'content-type': type } : {}) }, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function run(url: string, n: number, domain: Domain): Promise<void> {
  const name = `bench${n}${domain}`;
  let t = performance.now();
  await call(url, 'PUT', `/v1/data/${name}`, csv(records(n, n, domain)), 'text/csv');
  const uploadSeconds = (performance.now() - t) / 1000;

  t = performance.now();
  const session = await call(url, 'POST', '/v1/sessions/model', JSON.stringify({ dataSourceName: name, predictionDomain: domain, targetColumn: 'target' }));
  let status = session.status;
  while (status !== 'completed' && status !== 'failed') {
    await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`${url}/v1/sessions/${session.sessionId}`, { method: 'HEAD', headers: { 'api-key': KEY } });
    status = (res.headers.get('service-session-status') ?? '').toLowerCase();
  }
  const sessionSeconds = (performance.now() - t) / 1000;
  const done = await call(url, 'GET', `/v1/sessions/${session.sessionId}/results?pageSize=1`);
  if (status === 'failed') throw new Error(`session failed: ${JSON.stringify(done.messages)}`);
  // The session's own phase table (wall and CPU per phase), for seeing where a change moved the time.
  const phases = (done.messages as { severity: string; message: string }[] | undefined)?.find((m) => m.message.startsWith('Computation phases'));
  if (phases) console.log(`  ${phases.message}`);

  const fresh = records(1000, n + 1, domain).map(({ target: _target, ...features }) => features);
  const single = JSON.stringify({ data: [fresh[0]] });
  const path = `/v1/models/${done.modelId}/predict`;
  for (let i = 0; i < 20; i++) await call(url, 'POST', path, single); // warm-up: load and cache the model
  const latencies: number[] = [];
  for (let i = 0; i < SINGLE_PREDICTS; i++) {
    const s = performance.now();
    await call(url, 'POST', path, JSON.stringify({ data: [fresh[i % fresh.length]] }));
    latencies.push(performance.now() - s);
  }
  latencies.sort((a, b) => a - b);
  const batch = JSON.stringify({ data: fresh });
  // Throughput with two requests in flight (one per core): a single sequential client measures
  // mostly its own JSON handling and round trips, the server sits idle between requests.
  const b0 = performance.now();
  let sent = 0;
  const lane = async () => { while (sent < BATCHES) { sent++; await call(url, 'POST', path, batch); } };
  await Promise.all([lane(), lane()]);
  const batchRowsPerSecond = (BATCHES * fresh.length) / ((performance.now() - b0) / 1000);

  const metrics = domain === 'classification'
    ? `test accuracy ${done.metrics.accuracy.toFixed(3)}, AUC ${done.metrics.rocAreaUnderCurve.toFixed(3)}`
    : `test RMSE ${done.metrics.rootMeanSquareError.toFixed(3)}, MAE ${done.metrics.meanAbsoluteError.toFixed(3)}`;
  console.log(`sessions ${domain} ${n} × ${FEATURES + 2}: upload ${uploadSeconds.toFixed(1)} s; session completed in ${sessionSeconds.toFixed(1)} s ` +
    `(champion ${done.algorithm?.name}, ${metrics}); ` +
    `predict 1 record p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms; ` +
    `1,000-record batches (2 in flight) ${Math.round(batchRowsPerSecond)} rows/s`);
}

const dir = mkdtempSync(join(tmpdir(), 'sibyl-bench-sessions-'));
const { proc, url } = await startServer({ SIBYL_DATA_DIR: dir, DATABASE_URL: '' });
try {
  for (const n of SIZES) for (const domain of DOMAINS) await run(url, n, domain);
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
