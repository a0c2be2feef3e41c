/**
 * Predict throughput and latency (issue 12 §6) against `sibyl serve` in its own process: a model
 * trained on a 20,000 × 10 classification table, then
 *  - batch predict: 1,000-record requests, 2 in flight — rows/s (goal ≥ 50k rows/s);
 *  - single-record predict: one request at a time (--singles N, default 4,000) over node:http keep-alive —
 *    p50/p99/max at the client and inside the server (server-probe.ts), with the main thread's wait
 *    for a CPU taken out (what a quiet machine shows) and what the slowest requests spent their time
 *    on (goal p99 ≤ 5 ms); --realtime runs it in SCHED_FIFO to emulate an idle machine;
 *  - on PostgreSQL, mixed load over 2 API processes: single and batch predicts, data reads, listings
 *    and small uploads from 8 clients for --seconds (default 20) — operations/s and errors (goal: 0).
 * --phases batch,singles,mixed picks the parts (all by default).
 */
import { classificationCsv } from './lib/csv-files.js';
import { BENCH_KEY, launch, startBenchServer } from './lib/server.js';
import { runClassification, uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';
import { ThreadCpu } from './lib/thread-cpu.js';
import { ClientGc, clientTail, now, percentile, serverFigures, serverTail, summary } from './lib/latency.js';
import { KeepAliveClient } from './lib/keep-alive-client.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TRAIN_ROWS = 20_000;
const BATCH = 1000;

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** Every thread of each process to SCHED_FIFO 10 or back to SCHED_OTHER; false if chrt is missing or refused. */
function setScheduling(pids: number[], policy: 'fifo' | 'other'): boolean {
  try {
    for (const pid of pids) execFileSync('chrt', ['-a', ...(policy === 'fifo' ? ['-f', '-p', '10'] : ['-o', '-p', '0']), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function post(url: string, path: string, body: string, tag = ''): Promise<number> {
  const res = await fetch(url + path, { method: 'POST', headers: { 'api-key': BENCH_KEY, 'content-type': 'application/json', ...(tag ? { 'x-probe-tag': tag } : {}) }, body });
  await res.arrayBuffer();
  return res.status;
}

const scenario: LoadScenario = {
  name: 'predict',
  description: 'batch (1,000 records) and single-record predict on one server, mixed load over 2 API processes on PostgreSQL; goals ≥ 50k rows/s, p99 ≤ 5 ms, 0 errors',
  async run({ stores, args, log }) {
    const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
    const seconds = Number(option('--seconds') ?? 20) || 20;
    // --singles N: sequential single-record requests (at least 4,000 for a p99 worth the name).
    const singlesSent = Math.max(100, Number(option('--singles') ?? 4000) || 4000);
    // --phases batch,singles,mixed: the parts to run (all by default).
    const phases = new Set((option('--phases') ?? 'batch,singles,mixed').split(','));
    // --realtime: the single-record run (only) in SCHED_FIFO, client and server, as if the machine
    // were otherwise idle (needs root or CAP_SYS_NICE; the kernel still leaves others 5% of each core).
    const realtime = args.includes('--realtime');
    const { file } = await classificationCsv(TRAIN_ROWS, 10);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const header = lines[0]!.split(',');
    const records = lines.slice(1, BATCH + 1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v]).filter(([k]) => k !== 'label')));
    const batchBody = JSON.stringify({ data: records });
    const singles = records.slice(0, 100).map((r) => JSON.stringify({ data: [r] }));
    for (const store of stores) {
      const server = await startBenchServer(store, {}, { probe: true });
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
        const batches = phases.has('batch') ? 60 : 0;
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
        if (batches) log(`${store} batch predict: ${Math.round((batches * BATCH) / batchSeconds).toLocaleString('en')} rows/s wall clock (${batches} × ${BATCH} records, 2 in flight, ${errors} errors; goal ≥ 50,000); `
          + `server CPU ${(batchCpu * 1000 / batches).toFixed(1)} ms per batch = ${Math.round((batches * BATCH) / batchCpu).toLocaleString('en')} rows per server CPU-second (busiest threads ${perThread.join(', ')} ms per batch); client CPU ${(batchClientCpu * 1000 / batches).toFixed(1)} ms per batch`);

        if (phases.has('singles')) {
          const times: { start: number; ms: number }[] = [];
          errors = 0;
          // node:http on one kept-alive connection: fetch's own CPU and GC would be counted as latency (keep-alive-client.ts).
          const client = new KeepAliveClient(server.url, { 'api-key': BENCH_KEY });
          const tagged = { 'x-probe-tag': 'single' };
          for (let i = 0; i < 300; i++) await client.post(path, singles[i % singles.length]!); // warm the single-record path
          const fifo = realtime && setScheduling([process.pid, server.pid], 'fifo');
          if (realtime && !fifo) log(`${store} --realtime: could not switch to SCHED_FIFO (chrt needs root or CAP_SYS_NICE); measuring at normal priority`);
          await server.probe(); // start the server's record afresh
          const clientGc = new ClientGc();
          cpu0 = server.cpuSeconds();
          client0 = process.cpuUsage();
          for (let i = 0; i < singlesSent; i++) {
            const s = now();
            if ((await client.post(path, singles[i % singles.length]!, tagged)) !== 200) errors++;
            times.push({ start: s, ms: now() - s });
          }
          const singleCpu = server.cpuSeconds() - cpu0;
          const singleClientCpu = cpuSecondsSince(client0);
          if (fifo) setScheduling([process.pid, server.pid], 'other');
          const dump = await server.probe();
          client.close();
          const wall = summary(times.map((t) => t.ms));
          const { inside, lessWait, cpuMean } = serverFigures(dump, 'single');
          log(`${store} single-record predict${fifo ? ' (SCHED_FIFO: a quiet machine)' : ''}: p50 ${wall.p50.toFixed(2)} ms, p99 ${wall.p99.toFixed(2)} ms, max ${wall.max.toFixed(1)} ms wall clock at the client over ${wall.n} sequential requests, ${errors} errors (goal p99 ≤ 5 ms); `
            + `inside the server p50 ${inside.p50.toFixed(2)} ms, p99 ${inside.p99.toFixed(2)} ms, max ${inside.max.toFixed(1)} ms; `
            + `inside the server less the main thread's wait for a CPU (a quiet machine's figure) p50 ${lessWait.p50.toFixed(2)} ms, p99 ${lessWait.p99.toFixed(2)} ms, max ${lessWait.max.toFixed(1)} ms (${inside.n} requests); `
            + `server CPU ${(singleCpu * 1000 / singlesSent).toFixed(2)} ms per request (all threads${fifo ? '' : `; main thread ${cpuMean.toFixed(2)}`}), client CPU ${(singleClientCpu * 1000 / singlesSent).toFixed(2)} ms per request`);
          // BENCH_PREDICT_DUMP=<prefix>: the raw records, for a closer look (<prefix>-<store>.json).
          if (process.env.BENCH_PREDICT_DUMP) writeFileSync(`${process.env.BENCH_PREDICT_DUMP}-${store}.json`, JSON.stringify({ server: dump, client: times, clientGc: clientGc.gc }));
          log(`${store} single-record tail: server: ${serverTail(dump, 'single', Math.max(5, inside.p99 * 0.999))}; client: ${clientTail(times, clientGc.stop(), Math.max(5, wall.p99 * 0.999))}`);
        }

        if (phases.has('mixed') && store === 'postgres' && server.databaseUrl) {
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
