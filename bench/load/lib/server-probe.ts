/**
 * Loaded into a bench server with `node --import` (launch(): BENCH_SERVER_PROBE=<file>): times every
 * HTTP request inside the server — from its headers being parsed to the last byte handed to the
 * socket — and records the garbage collections and the event loop's longest stalls alongside, so a
 * slow request can be put down to what the server was doing meanwhile. The product is not changed:
 * this only listens on Node's diagnostics channels and performance hooks.
 *
 * SIGUSR2 writes everything recorded since the previous signal to the file (JSON) and starts afresh;
 * the bench reads it back (probeWindow in server.ts). Requests are grouped by their `x-probe-tag`
 * header (untagged ones under ""). BENCH_SERVER_PROBE_LOOP=1 adds the event loop's delay and stalls;
 * BENCH_SERVER_PROBE_PROFILE=<µs> profiles the main thread between signals at that sampling interval
 * (written beside the file as <file>.cpuprofile, for Chrome's devtools or speedscope).
 */
import { subscribe } from 'node:diagnostics_channel';
import { Session } from 'node:inspector';
import { openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { IncomingMessage } from 'node:http';

/**
 * One request: when it started (performance.now() of the server), how long it took, and of that the
 * main thread's time on a CPU (`cpuMs`) and waiting for one while runnable (`waitMs`, the machine's
 * load: other processes had the cores), from the kernel's schedstat; the rest it slept (I/O, other threads).
 */
export interface ProbeRequest { tag: string; start: number; ms: number; status: number; cpuMs: number; waitMs: number }
export interface ProbeGc { start: number; ms: number; kind: string }
export interface ProbeDump {
  requests: ProbeRequest[];
  gc: ProbeGc[];
  /** Event-loop delay (monitorEventLoopDelay, 1 ms resolution; BENCH_SERVER_PROBE_LOOP=1): percentiles and max, ms. */
  loopDelay: { p50: number; p99: number; max: number };
  /** Main-thread CPU is not separable in Node 20: process CPU (all threads) over the window, ms. */
  cpuMs: number;
  /** CLOCK_MONOTONIC in µs at performance.now() = 0: maps a CPU profile's timestamps onto the requests'. */
  originUs: number;
  /** Long event-loop turns (gaps > 3 ms between 1 ms checks): start and length. */
  stalls: { start: number; ms: number }[];
}

const out = process.env.BENCH_SERVER_PROBE;
if (out) {
  const started = new WeakMap<IncomingMessage, { at: number; cpu: number; wait: number }>();
  // Main thread (its tid is the pid): ns on a CPU, ns runnable but waiting for one.
  const fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  const buf = Buffer.alloc(128);
  const sched = (): [number, number] => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    const [run, wait] = buf.toString('latin1', 0, n).split(' ');
    return [Number(run) / 1e6, Number(wait) / 1e6];
  };
  let requests: ProbeRequest[] = [];
  let gc: ProbeGc[] = [];
  let stalls: { start: number; ms: number }[] = [];
  let cpu0 = process.cpuUsage();
  subscribe('http.server.request.start', (m) => {
    const [cpu, wait] = sched();
    started.set((m as { request: IncomingMessage }).request, { at: performance.now(), cpu, wait });
  });
  subscribe('http.server.response.finish', (m) => {
    const { request, response } = m as { request: IncomingMessage; response: { statusCode: number } };
    const start = started.get(request);
    if (start === undefined) return;
    const ms = performance.now() - start.at;
    const [cpu, wait] = sched();
    const tag = request.headers['x-probe-tag'];
    requests.push({ tag: typeof tag === 'string' ? tag : '', start: start.at, ms, status: response.statusCode, cpuMs: cpu - start.cpu, waitMs: wait - start.wait });
  });
  const kinds: Record<number, string> = { 1: 'scavenge', 4: 'mark-compact', 8: 'incremental-marking', 16: 'weak-callbacks' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gc.push({ start: e.startTime, ms: e.duration, kind: kinds[kind] ?? String(kind) });
    }
  }).observe({ entryTypes: ['gc'] });
  // The loop checks wake the server every millisecond, itself a load: only when asked for.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  if (process.env.BENCH_SERVER_PROBE_LOOP === '1') {
    delay.enable();
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      if (now - last > 4) stalls.push({ start: last, ms: now - last - 1 });
      last = now;
    }, 1).unref();
  }
  const profileUs = Number(process.env.BENCH_SERVER_PROBE_PROFILE ?? 0);
  let profiler: Session | undefined;
  const restartProfile = () => {
    if (!profileUs) return;
    if (profiler) {
      const session = profiler;
      session.post('Profiler.stop', (err, r) => {
        if (!err) writeFileSync(out + '.cpuprofile', JSON.stringify(r.profile));
        session.disconnect();
      });
    }
    profiler = new Session();
    profiler.connect();
    profiler.post('Profiler.enable');
    profiler.post('Profiler.setSamplingInterval', { interval: profileUs });
    profiler.post('Profiler.start');
  };
  process.on('SIGUSR2', () => {
    restartProfile();
    const cpu = process.cpuUsage(cpu0);
    const dump: ProbeDump = {
      requests, gc, stalls, originUs: Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000, cpuMs: (cpu.user + cpu.system) / 1000,
      loopDelay: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
    };
    writeFileSync(out + '.tmp', JSON.stringify(dump));
    renameSync(out + '.tmp', out);
    requests = []; gc = []; stalls = []; cpu0 = process.cpuUsage();
    delay.reset();
  });
}
