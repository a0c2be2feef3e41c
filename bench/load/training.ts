/**
 * Training throughput from 1 to 2 worker processes (issue 12 §6), on PostgreSQL: one API process
 * that runs no sessions (`sibyl serve --workers 0`) and 1, then 2, `sibyl worker --concurrency 1`
 * processes; the same classification sessions (a 5,000 × 10 table; --sessions N, default 6) are
 * queued at once and the time until the last completes gives sessions/min. On a 2-core machine the
 * second process can at most double it (the API process and the client share the cores too).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classificationCsv } from './lib/csv-files.js';
import { BENCH_KEY, launch } from './lib/server.js';
import { freshDatabase } from '../../test/support/backends.js';
import { uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';

const ROWS = 5000;

/** A `sibyl worker` process on `databaseUrl`; once it runs, its stop function (answers the CPU seconds it used). */
async function startWorker(databaseUrl: string): Promise<() => Promise<number>> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, SIBYL_LOG_LEVEL: 'warn', SIBYL_DATA_DIR: mkdtempSync(join(tmpdir(), 'sibyl-bench-worker-')) };
  const proc = spawn(process.execPath, ['dist/src/cli.js', 'worker', '--concurrency', '1'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => { out += d; if (/worker running/i.test(out)) resolve(); });
    proc.once('exit', (c) => reject(new Error(`worker exited (${c})`)));
  });
  proc.stdout!.resume();
  return async () => {
    const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime of all its threads, in 1/100 s
    if (proc.exitCode !== null) return cpu;
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    return cpu;
  };
}

const scenario: LoadScenario = {
  name: 'training',
  description: 'training throughput on PostgreSQL with 1 and 2 `sibyl worker` processes (API process runs no sessions): sessions/min',
  async run({ stores, args, log }) {
    if (!stores.includes('postgres')) { log('training: skipped (needs PostgreSQL)'); return; }
    const i = args.indexOf('--sessions');
    const sessions = (i >= 0 ? Number(args[i + 1]) : 6) || 6;
    const { file } = await classificationCsv(ROWS, 10);
    const db = await freshDatabase();
    try {
      // The API process runs no sessions: only the worker processes do.
      const api = await launch({ ...process.env, DATABASE_URL: db.url, PORT: '0', SIBYL_API_KEY: BENCH_KEY, SIBYL_LOG_LEVEL: 'warn', SIBYL_DATA_DIR: mkdtempSync(join(tmpdir(), 'sibyl-bench-api-')) }, ['--workers', '0']);
      try {
        if ((await uploadCsv(api.url, 'train', file)).status !== 201) throw new Error('upload failed');
        const perMinute: number[] = [];
        for (const workers of [1, 2]) {
          const stops = await Promise.all(Array.from({ length: workers }, () => startWorker(db.url)));
          let stopped = false;
          try {
            const t0 = performance.now();
            const ids: string[] = [];
            for (let s = 0; s < sessions; s++) {
              ids.push((await api.call('POST', '/v1/sessions/model', { dataSourceName: 'train', predictionDomain: 'classification', targetColumn: 'label' })).sessionId);
            }
            let failed = 0;
            for (const id of ids) {
              for (;;) {
                const s = await api.call('GET', `/v1/sessions/${id}`);
                if (s.status === 'completed' || s.status === 'failed') { if (s.status === 'failed') failed++; break; }
                await new Promise((r) => setTimeout(r, 250));
              }
            }
            const minutes = (performance.now() - t0) / 60000;
            perMinute.push(sessions / minutes);
            const cpu = (await Promise.all(stops.map((stop) => stop()))).reduce((a, b) => a + b, 0);
            stopped = true;
            log(`postgres training, ${workers} worker process${workers > 1 ? 'es' : ''} (concurrency 1 each): ${sessions} sessions (${ROWS.toLocaleString('en')} × 10 classification) in ${(minutes * 60).toFixed(1)} s = ${(sessions / minutes).toFixed(1)} sessions/min, ${failed} failed; `
              + `worker CPU ${(cpu / sessions).toFixed(1)} s per session (a session may use several threads, so one process can already keep both cores busy)`);
          } finally {
            if (!stopped) await Promise.all(stops.map((stop) => stop()));
          }
        }
        log(`postgres training throughput from 1 to 2 worker processes: ${perMinute[0]!.toFixed(1)} → ${perMinute[1]!.toFixed(1)} sessions/min (× ${(perMinute[1]! / perMinute[0]!).toFixed(2)})`);
      } finally {
        await api.stop();
      }
    } finally {
      await db.drop();
    }
  },
};
export default scenario;
