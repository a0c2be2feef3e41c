/**
 * Latency figures of a run of sequential requests: percentiles, and for the slowest requests what
 * happened during them — garbage collections in the server (from server-probe.ts) or in the client
 * (this process) — so a tail can be put down to a cause rather than guessed at.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { ProbeDump, ProbeGc } from './server-probe.js';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

export function summary(ms: number[]): { p50: number; p99: number; max: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p99: percentile(s, 0.99), max: s.at(-1) ?? NaN, n: s.length };
}

/** Garbage collections of this process (the client) while recording. */
export class ClientGc {
  readonly gc: ProbeGc[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.gc.push({ start: e.startTime, ms: e.duration, kind: String((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0) });
  });
  constructor() { this.observer.observe({ entryTypes: ['gc'] }); }
  stop(): ProbeGc[] { this.observer.disconnect(); return this.gc; }
}

/** GC milliseconds inside [start, start+ms] (entries sorted by start). */
function gcWithin(gc: ProbeGc[], start: number, ms: number): { ms: number; kinds: Set<string> } {
  let total = 0;
  const kinds = new Set<string>();
  for (const g of gc) {
    if (g.start > start + ms) break;
    const overlap = Math.min(g.start + g.ms, start + ms) - Math.max(g.start, start);
    if (overlap > 0) { total += overlap; kinds.add(g.kind); }
  }
  return { ms: total, kinds };
}

/**
 * Inside-the-server figures of one tag's requests: time from headers parsed to the last byte written,
 * the same less the main thread's wait for a CPU (what a quiet machine would show: it keeps the time
 * on a CPU and any time blocked, e.g. on a GC helper or the database), and main-thread CPU.
 */
export function serverFigures(dump: ProbeDump, tag: string) {
  const reqs = dump.requests.filter((r) => r.tag === tag);
  return {
    inside: summary(reqs.map((r) => r.ms)),
    lessWait: summary(reqs.map((r) => r.ms - r.waitMs)),
    // schedstat counts a running thread's time at scheduler ticks: single figures are coarse, means are
    // fine (for SCHED_OTHER threads; under SCHED_FIFO it is not kept up and reads near zero).
    cpuMean: reqs.reduce((s, r) => s + r.cpuMs, 0) / Math.max(1, reqs.length),
  };
}

/**
 * What the slowest requests of one tag (above `thresholdMs` inside the server) spent their time on:
 * waiting for a CPU (other processes had the cores), on a CPU, or blocked; how many overlapped a
 * server GC; and the server's GC totals by kind over the window.
 */
export function serverTail(dump: ProbeDump, tag: string, thresholdMs: number): string {
  const reqs = dump.requests.filter((r) => r.tag === tag);
  const gc = [...dump.gc].sort((a, b) => a.start - b.start);
  const slow = reqs.filter((r) => r.ms > thresholdMs);
  let withGc = 0; let gcMs = 0; let inSlow = 0; let wait = 0; let cpu = 0;
  for (const r of slow) {
    const g = gcWithin(gc, r.start, r.ms);
    inSlow += r.ms; wait += r.waitMs; cpu += r.cpuMs;
    if (g.ms > 0) { withGc++; gcMs += g.ms; }
  }
  const byKind = new Map<string, { n: number; ms: number; max: number }>();
  for (const g of gc) {
    const k = byKind.get(g.kind) ?? { n: 0, ms: 0, max: 0 };
    k.n++; k.ms += g.ms; k.max = Math.max(k.max, g.ms);
    byKind.set(g.kind, k);
  }
  const share = (x: number) => `${(x / Math.max(1e-9, inSlow) * 100).toFixed(0)}%`;
  const gcTotals = [...byKind].map(([k, v]) => `${k} ${v.n}× (mean ${(v.ms / v.n).toFixed(1)} ms, max ${v.max.toFixed(1)} ms)`).join(', ');
  return `${slow.length} of ${reqs.length} over ${thresholdMs.toFixed(1)} ms in the server: ${share(wait)} of their time waiting for a CPU, ${share(cpu)} on one, ${share(Math.max(0, inSlow - wait - cpu))} blocked; `
    + `${withGc} during a server GC (GC ${share(gcMs)} of their time); server GCs over the run: ${gcTotals || 'none'}`;
}

/** The same for the client's own GC against client-observed request times ({start, ms} in this process's clock). */
export function clientTail(times: { start: number; ms: number }[], gc: ProbeGc[], thresholdMs: number): string {
  const sorted = [...gc].sort((a, b) => a.start - b.start);
  const slow = times.filter((t) => t.ms > thresholdMs);
  const withGc = slow.filter((t) => gcWithin(sorted, t.start, t.ms).ms > 0).length;
  const total = gc.reduce((s, g) => s + g.ms, 0);
  return `${slow.length} of ${times.length} over ${thresholdMs.toFixed(1)} ms at the client, ${withGc} of them during a client GC (client GC ${(total / Math.max(1, times.length)).toFixed(3)} ms/request)`;
}

export const now = (): number => performance.now();
