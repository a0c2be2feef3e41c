import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProbeDump } from './server-probe.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '../../../test/support/backends.js';
import type { StoreKind } from './scenario.js';

export const BENCH_KEY = 'sk_bench_load_key_0000000000';

export interface BenchServer {
  url: string;
  /** The database it runs on (PostgreSQL), for more processes on the same data. */
  databaseUrl?: string;
  pid: number;
  /** Peak resident memory of the server process so far (VmHWM), MB. */
  peakRssMb(): number;
  /** CPU seconds the server process (all its threads) has used so far: a figure the machine's load hardly changes. */
  cpuSeconds(): number;
  call(method: string, path: string, body?: unknown): Promise<any>;
  /**
   * With BENCH_SERVER_PROBE in its environment (startBenchServer's `probe`): what server-probe.ts
   * recorded inside the server since the previous call (request times, garbage collections).
   */
  probe(): Promise<ProbeDump>;
  stop(): Promise<void>;
}

const PROBE_MODULE = fileURLToPath(new URL('./server-probe.js', import.meta.url));

/** `sibyl serve` as its own process on a fresh store of the given kind (the client is this process). */
export async function startBenchServer(store: StoreKind, env: Record<string, string> = {}, opts: { probe?: boolean } = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-bench-load-'));
  if (opts.probe) env = { ...env, BENCH_SERVER_PROBE: join(dataDir, 'probe.json') };
  const db = store === 'postgres' ? await freshDatabase() : undefined;
  const fullEnv = { ...process.env, SIBYL_DATA_DIR: dataDir, DATABASE_URL: db?.url ?? '', PORT: '0', SIBYL_API_KEY: BENCH_KEY, SIBYL_LOG_LEVEL: 'warn', ...env };
  if (store === 'embedded') {
    // Creating an embedded store (initdb) has a memory peak of its own: measure a server opening an existing one.
    const first = await launch(fullEnv);
    await first.stop();
  }
  const server = await launch(fullEnv);
  return {
    ...server,
    databaseUrl: db?.url,
    async stop() {
      await server.stop();
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Another `sibyl serve` with the given environment (e.g. a second API process on the same database). */
export async function launch(env: NodeJS.ProcessEnv, args: string[] = []): Promise<BenchServer> {
  // BENCH_SERVER_NODE_ARGS: node options for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  if (env.BENCH_SERVER_PROBE) nodeArgs.push('--import', PROBE_MODULE);
  const proc: ChildProcess = spawn(process.execPath, [...nodeArgs, 'dist/src/cli.js', 'serve', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => { out += d; const m = /listening on (\S+)/.exec(out); if (m) resolve(m[1]!); });
    proc.once('exit', (c) => reject(new Error(`server exited (${c})`)));
  });
  proc.stdout!.resume();
  return {
    url,
    pid: proc.pid!,
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 per second)
    },
    peakRssMb: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : NaN;
    },
    async call(method, path, body) {
      const res = await fetch(url + path, { method, headers: { 'api-key': BENCH_KEY, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : undefined;
    },
    async probe() {
      const file = env.BENCH_SERVER_PROBE;
      if (!file) throw new Error('the server runs without the probe (startBenchServer(…, { probe: true }))');
      rmSync(file, { force: true });
      proc.kill('SIGUSR2');
      for (let i = 0; i < 500 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
      return JSON.parse(readFileSync(file, 'utf8')) as ProbeDump;
    },
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}
