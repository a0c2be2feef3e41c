/**
 * Feature-parallel histogram work for one fit, LightGBM's feature-parallel scheme on one machine: the
 * features are cut into one contiguous range per thread; for each leaf job every thread fills its
 * range of the smaller child's histogram (same rows, same order as one thread would), subtracts it from
 * the parent's over its range, and finds the best split of each child among its features. The main
 * thread merges the threads' best splits in range order, keeping an earlier range on equal gain, which
 * is exactly the single-thread scan's choice: models are byte-identical whatever the thread count.
 *
 * Helper threads are worker threads attached to the fit's shared wasm memory; jobs and results pass
 * through a control block in that memory (Atomics wait/notify), not messages, as a job lasts microseconds
 * to milliseconds.
 */
import { Worker } from 'node:worker_threads';
import type { FeatureLayout } from './binned-data.js';
import { subtractHistogram } from './histogram.js';
import type { ResolvedGbdtParams } from './params.js';
import { type LeafSums, type SplitInfo, findBestSplit } from './split-finder.js';
import type { HistogramBuilder, HistogramPlan } from './training-memory.js';
import type { KernelMemory } from './wasm-kernels.js';

/** One step of tree growth, for every thread's feature range. Slots are histogram pool indices; -1 = skip. */
export interface LeafJob {
  /** Fill pool[build] from the rows indices[begin .. end). */
  build: number;
  begin: number;
  end: number;
  /** Then pool[parent] −= pool[build] (the sibling's histogram). */
  parent: number;
  /** Then the best split of the leaves whose histograms are pool[findA], pool[findB]. */
  findA: number;
  findB: number;
  sumsA: LeafSums;
  sumsB: LeafSums;
  /** Byte addresses of the class's gradients and hessians. */
  gradAt: number;
  hessAt: number;
}

/** What a helper thread is sent once per fit. */
export interface TeamInit {
  memory: KernelMemory;
  plan: HistogramPlan;
  layout: FeatureLayout;
  params: ResolvedGbdtParams;
  teamAt: number;
  thread: number;
  threads: number;
  /** The job sequence number the thread has seen so far. */
  seq: number;
}

// Control block (Int32 words): job sequence, per-thread done sequence and error flag, job fields.
const SEQ = 0;
const DONE = 1; // + thread (1 .. MAX_THREADS-1)
const FAILED = 9; // + thread
const KIND = 17;
const BUILD = 18;
const BEGIN = 19;
const END = 20;
const PARENT = 21;
const FIND_A = 22;
const FIND_B = 23;
const GRAD_AT = 24;
const HESS_AT = 25;
const N_FEATURES = 26;
const CTRL_INTS = 32;
const STOP = 1;
export const MAX_THREADS = 8;
/** Per thread and leaf: gain, feature, thresholdBin, defaultLeft, lg, lh, lc, rg, rh, rc, leftBins length. */
const RESULT_F64 = 11;
const LEFT_BINS_BYTES = 256;
/**
 * Polls of the control block before sleeping on it: a job or its answer usually follows within
 * microseconds, far sooner than a sleeping thread wakes.
 */
const SPINS = 200;

/** Bytes of the control block for nf features and `threads` threads. */
export function teamBytes(nf: number, threads: number): number {
  return CTRL_INTS * 4 + align8(nf * 4) + 6 * 8 + threads * 2 * (RESULT_F64 * 8 + LEFT_BINS_BYTES);
}

function align8(b: number): number {
  return Math.ceil(b / 8) * 8;
}

/** Bit-casts between a float64 and the int64 that Atomics can move. */
const castF64 = new Float64Array(1);
const castI64 = new BigInt64Array(castF64.buffer);

/**
 * Views on the control block, the same on every thread. Every access goes through Atomics: the
 * block is written by one thread and read by another, and Atomics alone keeps the compilers from
 * caching or reordering those reads around the hand-over.
 */
class ControlBlock {
  readonly ints: Int32Array;
  /** Float64 values as their int64 bit patterns: job sums, then per thread and leaf a result. */
  private readonly sums: BigInt64Array;
  private readonly results: BigInt64Array;
  private readonly leftBins: Uint8Array;
  private readonly featuresAt: number;

  constructor(buffer: ArrayBufferLike, at: number, nf: number, threads: number) {
    this.ints = new Int32Array(buffer, at, CTRL_INTS + nf);
    this.featuresAt = CTRL_INTS;
    at += CTRL_INTS * 4 + align8(nf * 4);
    this.sums = new BigInt64Array(buffer, at, 6);
    at += 6 * 8;
    this.results = new BigInt64Array(buffer, at, threads * 2 * RESULT_F64);
    at += threads * 2 * RESULT_F64 * 8;
    this.leftBins = new Uint8Array(buffer, at, threads * 2 * LEFT_BINS_BYTES);
  }

  get(i: number): number {
    return Atomics.load(this.ints, i);
  }

  set(i: number, v: number): void {
    Atomics.store(this.ints, i, v);
  }

  writeFeatures(features: Int32Array): void {
    for (let i = 0; i < features.length; i++) Atomics.store(this.ints, this.featuresAt + i, features[i]);
    this.set(N_FEATURES, features.length);
  }

  readFeatures(): Int32Array {
    const n = this.get(N_FEATURES);
    return Int32Array.from({ length: n }, (_, i) => Atomics.load(this.ints, this.featuresAt + i));
  }

  writeJob(job: LeafJob): void {
    this.set(KIND, 0);
    this.set(BUILD, job.build);
    this.set(BEGIN, job.begin);
    this.set(END, job.end);
    this.set(PARENT, job.parent);
    this.set(FIND_A, job.findA);
    this.set(FIND_B, job.findB);
    this.set(GRAD_AT, job.gradAt);
    this.set(HESS_AT, job.hessAt);
    const v = [job.sumsA.grad, job.sumsA.hess, job.sumsA.count, job.sumsB.grad, job.sumsB.hess, job.sumsB.count];
    v.forEach((x, i) => putF64(this.sums, i, x));
  }

  readJob(): LeafJob {
    const f = (i: number) => getF64(this.sums, i);
    return {
      build: this.get(BUILD), begin: this.get(BEGIN), end: this.get(END), parent: this.get(PARENT),
      findA: this.get(FIND_A), findB: this.get(FIND_B),
      sumsA: { grad: f(0), hess: f(1), count: f(2) }, sumsB: { grad: f(3), hess: f(4), count: f(5) },
      gradAt: this.get(GRAD_AT), hessAt: this.get(HESS_AT),
    };
  }

  writeResult(thread: number, leaf: 0 | 1, split: SplitInfo): void {
    const o = (thread * 2 + leaf) * RESULT_F64;
    const v = [
      split.gain, split.feature, split.thresholdBin, split.defaultLeft ? 1 : 0, split.left.grad, split.left.hess, split.left.count,
      split.right.grad, split.right.hess, split.right.count, split.leftBins ? split.leftBins.length : -1,
    ];
    const b = (thread * 2 + leaf) * LEFT_BINS_BYTES;
    if (split.leftBins) for (let i = 0; i < split.leftBins.length; i++) Atomics.store(this.leftBins, b + i, split.leftBins[i]);
    v.forEach((x, i) => putF64(this.results, o + i, x));
  }

  readResult(thread: number, leaf: 0 | 1): SplitInfo {
    const o = (thread * 2 + leaf) * RESULT_F64;
    const r = (i: number) => getF64(this.results, o + i);
    const nLeft = r(10);
    const b = (thread * 2 + leaf) * LEFT_BINS_BYTES;
    return {
      gain: r(0), feature: r(1), thresholdBin: r(2), defaultLeft: r(3) === 1,
      leftBins: nLeft >= 0 ? Uint8Array.from({ length: nLeft }, (_, i) => Atomics.load(this.leftBins, b + i)) : null,
      left: { grad: r(4), hess: r(5), count: r(6) },
      right: { grad: r(7), hess: r(8), count: r(9) },
    };
  }
}

function putF64(a: BigInt64Array, i: number, v: number): void {
  castF64[0] = v;
  Atomics.store(a, i, castI64[0]);
}

function getF64(a: BigInt64Array, i: number): number {
  castI64[0] = Atomics.load(a, i);
  return castF64[0];
}

/** First feature of each thread's range (and nf last): ranges of equal feature counts. */
function featureRanges(nf: number, threads: number): Int32Array {
  return Int32Array.from({ length: threads + 1 }, (_, t) => Math.round((t * nf) / threads));
}

/** One thread's part of a job: its feature range of the histograms and its best splits. */
export class ThreadShare {
  private readonly f0: number;
  private readonly f1: number;
  private own = new Int32Array(0);

  constructor(
    private readonly histograms: HistogramBuilder,
    private readonly layout: FeatureLayout,
    private readonly p: ResolvedGbdtParams,
    thread: number,
    threads: number,
  ) {
    const ranges = featureRanges(layout.bins.length, threads);
    this.f0 = ranges[thread];
    this.f1 = ranges[thread + 1];
  }

  /** The candidate features of the current tree (ascending); this thread keeps those in its range. */
  setFeatures(features: Int32Array): void {
    let n = 0;
    for (const f of features) if (f >= this.f0 && f < this.f1) n++;
    this.own = new Int32Array(n);
    n = 0;
    for (const f of features) if (f >= this.f0 && f < this.f1) this.own[n++] = f;
  }

  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    const pool = this.histograms.pool;
    if (job.build >= 0) this.histograms.build(job.build, job.begin, job.end, job.gradAt, job.hessAt, this.f0, this.f1);
    if (job.parent >= 0) subtractHistogram(pool[job.parent], pool[job.build], this.layout, this.own);
    const find = (slot: number, sums: LeafSums) => (slot >= 0 ? findBestSplit(pool[slot], this.layout, this.own, sums, this.p) : null);
    return [find(job.findA, job.sumsA), find(job.findB, job.sumsB)];
  }
}

/** Idle helper threads, kept for the next fit in this process (unref'd: they never keep it alive). */
const idle: Worker[] = [];

function acquireWorker(): Worker {
  const w = idle.pop() ?? new Worker(new URL('./feature-team-worker.js', import.meta.url));
  w.unref();
  return w;
}

/** The threads of one fit; with one thread, the main thread's share is the whole job. */
export class FeatureTeam {
  private readonly own: ThreadShare;
  private readonly control: ControlBlock;
  private readonly workers: Worker[] = [];
  private seq = 0;

  constructor(
    histograms: HistogramBuilder,
    memory: KernelMemory,
    teamAt: number,
    layout: FeatureLayout,
    params: ResolvedGbdtParams,
    readonly threads: number,
  ) {
    if (!(threads >= 1 && threads <= MAX_THREADS)) throw new Error(`GBDT: threads must be in 1..${MAX_THREADS}`);
    const nf = layout.bins.length;
    this.own = new ThreadShare(histograms, layout, params, 0, threads);
    this.control = new ControlBlock(histograms.pool[0].buffer, teamAt, nf, threads);
    for (let i = 0; i < CTRL_INTS; i++) this.control.set(i, 0);
    for (let t = 1; t < threads; t++) {
      const worker = acquireWorker();
      const init: TeamInit = { memory, plan: histograms.plan, layout, params, teamAt, thread: t, threads, seq: 0 };
      worker.postMessage(init);
      this.workers.push(worker);
    }
  }

  setFeatures(features: Int32Array): void {
    this.own.setFeatures(features);
    this.control.writeFeatures(features);
  }

  /** Runs the job on every thread; the best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    if (this.workers.length === 0) return this.own.run(job);
    this.control.writeJob(job);
    this.start();
    const mine = this.own.run(job);
    this.finish();
    const merge = (leaf: 0 | 1, first: SplitInfo | null) => {
      if (!first) return null;
      let best = first;
      for (let t = 1; t < this.threads; t++) {
        const theirs = this.control.readResult(t, leaf);
        if (theirs.gain > best.gain) best = theirs;
      }
      return best;
    };
    return [merge(0, mine[0]), merge(1, mine[1])];
  }

  /** Ends the helpers' job loops; they return to the idle list. */
  close(): void {
    if (this.workers.length === 0) return;
    this.control.set(KIND, STOP);
    this.start();
    this.finish();
    idle.push(...this.workers.splice(0));
  }

  private start(): void {
    const ints = this.control.ints;
    this.seq++;
    Atomics.store(ints, SEQ, this.seq);
    Atomics.notify(ints, SEQ);
  }

  private finish(): void {
    const ints = this.control.ints;
    for (let t = 1; t < this.threads; t++) {
      for (let spins = 0; ; spins++) {
        const done = Atomics.load(ints, DONE + t);
        if (done === this.seq) break;
        if (spins >= SPINS) Atomics.wait(ints, DONE + t, done, 1000);
      }
      if (Atomics.load(ints, FAILED + t) !== 0) {
        this.workers.splice(0).forEach((w) => void w.terminate());
        throw new Error(`GBDT: helper thread ${t} failed (see its error output)`);
      }
    }
  }
}

/** A helper thread's loop for one fit: wait for a job, do its share, signal; until STOP. */
export function serveFit(init: TeamInit, histograms: HistogramBuilder): void {
  const control = new ControlBlock(init.memory.buffer, init.teamAt, init.layout.bins.length, init.threads);
  const share = new ThreadShare(histograms, init.layout, init.params, init.thread, init.threads);
  const ints = control.ints;
  const t = init.thread;
  let seq = init.seq;
  let features: Int32Array | null = null;
  for (;;) {
    // The next job: SEQ moves on (a wake-up alone proves nothing), by exactly one.
    let next = Atomics.load(ints, SEQ);
    for (let spins = 0; next === seq; spins++) {
      if (spins >= SPINS) Atomics.wait(ints, SEQ, seq);
      next = Atomics.load(ints, SEQ);
    }
    const skipped = next !== seq + 1;
    seq = next;
    const stop = control.get(KIND) === STOP;
    try {
      if (skipped) throw new Error(`GBDT: helper thread ${t} missed a job (${seq})`);
      if (!stop) {
        // The feature list changes once per tree: re-filter only when it did.
        const now = control.readFeatures();
        if (!sameFeatures(features, now)) {
          features = now;
          share.setFeatures(features);
        }
        const [a, b] = share.run(control.readJob());
        if (a) control.writeResult(t, 0, a);
        if (b) control.writeResult(t, 1, b);
      }
    } catch (e) {
      Atomics.store(ints, FAILED + t, 1);
      console.error(e);
    }
    Atomics.store(ints, DONE + t, seq);
    Atomics.notify(ints, DONE + t);
    if (stop) return;
  }
}

function sameFeatures(a: Int32Array | null, b: Int32Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
