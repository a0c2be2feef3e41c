/**
 * Predict throughput and latency (issue 12 §6) against `sibyl serve` in its own process: a model
 * trained on a 20,000 × 10 classification table, then
 *  - batch predict: 1,000-record requests, 2 in flight — rows/s (goal ≥ 50k rows/s);
 *  - single-record predict: one request at a time — p50/p99/max (goal p99 ≤ 5 ms);
 *  - on PostgreSQL, mixed load over 2 API processes: single and batch predicts, data reads, listings
 *    and small uploads from 8 clients for --seconds (default 20) — operations/s and errors (goal: 0).
 */
import { classificationCsv } from './lib/csv-files.js';
import { BENCH_KEY, launch, startBenchServer } from './lib/server.js';
import { runClassification, uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';
import { ThreadCpu } from './lib/thread-cpu.js';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TRAIN_ROWS = 20_000;
const BATCH = 1000;

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function post(url: string, path: string, body: string): Promise<number> {
  const res = await fetch(url + path, { method: 'POST', headers: { 'api-key': BENCH_KEY, 'content-type': 'application/json' }, body });
  await res.arrayBuffer();
  return res.status;
}

const scenario: LoadScenario = {
  name: 'predict',
  description: 'batch (1,000 records) and single-record predict on one server, mixed load over 2 API processes on PostgreSQL; goals ≥ 50k rows/s, p99 ≤ 5 ms, 0 errors',
  async run({ stores, args, log }) {
    const seconds = Number(args[args.indexOf('--seconds') + 1] ?? 20) || 20;
    const { file } = await classificationCsv(TRAIN_ROWS, 10);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const header = lines[0]!.split(',');
    const records = lines.slice(1, BATCH + 1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v]).filter(([k]) => k !== 'label')));
    const batchBody = JSON.stringify({ data: records });
    const singles = records.slice(0, 100).map((r) => JSON.stringify({ data: [r] }));
    for (const store of stores) {
      const server = await startBenchServer(store);
      try {
        const up = await uploadCsv(server.url, 'train', file);
        if (up.status !== 201) throw new Error(`upload failed: ${up.status}`);
        const { session } = await runClassification((m, p, b) => server.call(m, p, b), 'train', 'label');
        if (session.status !== 'completed') throw new Error(`session ${session.status}: ${JSON.stringify(session.messages)}`);
        const path = `/v1/models/${session.modelId}/predict`;
        const model = await server.call('GET', `/v1/models/${session.modelId}`);
        log(`${store} model: ${JSON.stringify(model.algorithm ?? session.algorithm)}`);
        // Warm-up: the model is loaded and cached on first use.
        for (let i = 0; i < 5; i++) await post(server.url, path, batchBody);

        let errors = 0;
        const batches = 60;
        let next = 0;
        // CPU seconds of the server process (all threads) and of this client: figures a busy shared
        // machine hardly changes, unlike the wall-clock ones beside them.
        let cpu0 = server.cpuSeconds();
        let client0 = process.cpuUsage();
        const threads = ThreadCpu.start(server.pid);
        const t0 = performance.now();
        await Promise.all([0, 1].map(async () => { while (next++ < batches) if ((await post(server.url, path, batchBody)) !== 200) errors++; }));
        const batchSeconds = (performance.now() - t0) / 1000;
        const batchCpu = server.cpuSeconds() - cpu0;
        const perThread = threads.stop().slice(0, 4).map((s) => (s * 1000 / batches).toFixed(1));
        const batchClientCpu = cpuSecondsSince(client0);
        log(`${store} batch predict: ${Math.round((batches * BATCH) / batchSeconds).toLocaleString('en')} rows/s wall clock (${batches} × ${BATCH} records, 2 in flight, ${errors} errors; goal ≥ 50,000); `
          + `server CPU ${(batchCpu * 1000 / batches).toFixed(1)} ms per batch = ${Math.round((batches * BATCH) / batchCpu).toLocaleString('en')} rows per server CPU-second (busiest threads ${perThread.join(', ')} ms per batch); client CPU ${(batchClientCpu * 1000 / batches).toFixed(1)} ms per batch`);

        const lat: number[] = [];
        errors = 0;
        const singlesSent = 2000;
        cpu0 = server.cpuSeconds();
        client0 = process.cpuUsage();
        for (let i = 0; i < singlesSent; i++) {
          const s = performance.now();
          if ((await post(server.url, path, singles[i % singles.length]!)) !== 200) errors++;
          lat.push(performance.now() - s);
        }
        const singleCpu = server.cpuSeconds() - cpu0;
        const singleClientCpu = cpuSecondsSince(client0);
        lat.sort((a, b) => a - b);
        log(`${store} single-record predict: p50 ${percentile(lat, 0.5).toFixed(2)} ms, p99 ${percentile(lat, 0.99).toFixed(2)} ms, max ${lat.at(-1)!.toFixed(1)} ms wall clock over ${lat.length} sequential requests, ${errors} errors (goal p99 ≤ 5 ms); `
          + `server CPU ${(singleCpu * 1000 / singlesSent).toFixed(2)} ms per request, client CPU ${(singleClientCpu * 1000 / singlesSent).toFixed(2)} ms per request`);

        if (store === 'postgres' && server.databaseUrl) {
          const second = await launch({ ...process.env, DATABASE_URL: server.databaseUrl, PORT: '0', SIBYL_LOG_LEVEL: 'warn', SIBYL_DATA_DIR: mkdtempSync(join(tmpdir(), 'sibyl-bench-api2-')) }, ['--workers', '0']);
          try {
            const urls = [server.url, second.url];
            const counts = { ops: 0, errors: 0 } as { ops: number; errors: number };
            const byKind = new Map<string, number[]>();
            const end = performance.now() + seconds * 1000;
            const ops: [string, (u: string, c: number) => Promise<number>][] = [
              ['single predict', (u) => post(u, path, singles[counts.ops % singles.length]!)],
              ['batch predict', (u) => post(u, path, batchBody)],
              ['read data', async (u) => { const r = await fetch(`${u}/v1/data/train?pageSize=100`, { headers: { 'api-key': BENCH_KEY } }); await r.arrayBuffer(); return r.status; }],
              ['list sessions', async (u) => { const r = await fetch(`${u}/v1/sessions`, { headers: { 'api-key': BENCH_KEY } }); await r.arrayBuffer(); return r.status; }],
              ['small upload', async (u, c) => { const r = await fetch(`${u}/v1/data/small-${c}`, { method: 'PUT', headers: { 'api-key': BENCH_KEY, 'content-type': 'text/csv' }, body: 'x,y\n1,2\n3,4\n' }); await r.arrayBuffer(); return r.status; }],
            ];
            const firstErrors: string[] = [];
            await Promise.all(Array.from({ length: 8 }, async (_, client) => {
              let i = client;
              while (performance.now() < end) {
                const [kind, op] = ops[i % ops.length]!;
                const s = performance.now();
                let status: number;
                try { status = await op(urls[i % 2]!, client); } catch (e) { status = 0; if (firstErrors.length < 5) firstErrors.push(`${kind}: ${(e as Error).message}`); }
                (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(performance.now() - s);
                counts.ops++;
                if (status < 200 || status >= 300) { counts.errors++; if (firstErrors.length < 5) firstErrors.push(`${kind}: ${status}`); }
                i++;
              }
            }));
            const per = [...byKind].map(([k, l]) => { l.sort((a, b) => a - b); return `${k} p99 ${percentile(l, 0.99).toFixed(1)} ms`; }).join(', ');
            log(`postgres mixed load, 2 API processes, 8 clients, ${seconds} s: ${Math.round(counts.ops / seconds)} ops/s, ${counts.errors} errors of ${counts.ops} (goal 0); ${per}${firstErrors.length ? `; first errors: ${firstErrors.join('; ')}` : ''}`);
          } finally {
            await second.stop();
          }
        }
      } finally {
        await server.stop();
      }
    }
  },
};
export default scenario;
