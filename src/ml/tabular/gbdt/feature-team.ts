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

/** Bytes of the control block for nf features and `threads` threads. */
export function teamBytes(nf: number, threads: number): number {
  return CTRL_INTS * 4 + align8(nf * 4) + 6 * 8 + threads * 2 * (RESULT_F64 * 8 + LEFT_BINS_BYTES);
}

function align8(b: number): number {
  return Math.ceil(b / 8) * 8;
}

/** Views on the control block, the same on every thread. */
class ControlBlock {
  readonly ints: Int32Array;
  readonly features: Int32Array;
  readonly sums: Float64Array;
  readonly results: Float64Array;
  readonly leftBins: Uint8Array;

  constructor(buffer: ArrayBufferLike, at: number, nf: number, threads: number) {
    this.ints = new Int32Array(buffer, at, CTRL_INTS);
    at += CTRL_INTS * 4;
    this.features = new Int32Array(buffer, at, nf);
    at += align8(nf * 4);
    this.sums = new Float64Array(buffer, at, 6);
    at += 6 * 8;
    this.results = new Float64Array(buffer, at, threads * 2 * RESULT_F64);
    at += threads * 2 * RESULT_F64 * 8;
    this.leftBins = new Uint8Array(buffer, at, threads * 2 * LEFT_BINS_BYTES);
  }

  writeJob(job: LeafJob, nFeatures: number): void {
    const w = this.ints;
    w[KIND] = 0;
    w[BUILD] = job.build;
    w[BEGIN] = job.begin;
    w[END] = job.end;
    w[PARENT] = job.parent;
    w[FIND_A] = job.findA;
    w[FIND_B] = job.findB;
    w[GRAD_AT] = job.gradAt;
    w[HESS_AT] = job.hessAt;
    w[N_FEATURES] = nFeatures;
    const s = this.sums;
    s[0] = job.sumsA.grad;
    s[1] = job.sumsA.hess;
    s[2] = job.sumsA.count;
    s[3] = job.sumsB.grad;
    s[4] = job.sumsB.hess;
    s[5] = job.sumsB.count;
  }

  readJob(): LeafJob {
    const w = this.ints;
    const s = this.sums;
    return {
      build: w[BUILD], begin: w[BEGIN], end: w[END], parent: w[PARENT], findA: w[FIND_A], findB: w[FIND_B],
      sumsA: { grad: s[0], hess: s[1], count: s[2] }, sumsB: { grad: s[3], hess: s[4], count: s[5] },
      gradAt: w[GRAD_AT], hessAt: w[HESS_AT],
    };
  }

  writeResult(thread: number, leaf: 0 | 1, split: SplitInfo): void {
    const r = this.results;
    const o = (thread * 2 + leaf) * RESULT_F64;
    r[o] = split.gain;
    r[o + 1] = split.feature;
    r[o + 2] = split.thresholdBin;
    r[o + 3] = split.defaultLeft ? 1 : 0;
    r[o + 4] = split.left.grad;
    r[o + 5] = split.left.hess;
    r[o + 6] = split.left.count;
    r[o + 7] = split.right.grad;
    r[o + 8] = split.right.hess;
    r[o + 9] = split.right.count;
    r[o + 10] = split.leftBins ? split.leftBins.length : -1;
    if (split.leftBins) this.leftBins.set(split.leftBins, (thread * 2 + leaf) * LEFT_BINS_BYTES);
  }

  readResult(thread: number, leaf: 0 | 1): SplitInfo {
    const r = this.results;
    const o = (thread * 2 + leaf) * RESULT_F64;
    const nLeft = r[o + 10];
    const b = (thread * 2 + leaf) * LEFT_BINS_BYTES;
    return {
      gain: r[o], feature: r[o + 1], thresholdBin: r[o + 2], defaultLeft: r[o + 3] === 1,
      leftBins: nLeft >= 0 ? this.leftBins.slice(b, b + nLeft) : null,
      left: { grad: r[o + 4], hess: r[o + 5], count: r[o + 6] },
      right: { grad: r[o + 7], hess: r[o + 8], count: r[o + 9] },
    };
  }
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
  private nFeatures = 0;

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
    this.control.ints.fill(0);
    for (let t = 1; t < threads; t++) {
      const worker = acquireWorker();
      const init: TeamInit = { memory, plan: histograms.plan, layout, params, teamAt, thread: t, threads, seq: 0 };
      worker.postMessage(init);
      this.workers.push(worker);
    }
  }

  setFeatures(features: Int32Array): void {
    this.own.setFeatures(features);
    this.control.features.set(features);
    this.nFeatures = features.length;
  }

  /** Runs the job on every thread; the best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    if (this.workers.length === 0) return this.own.run(job);
    this.control.writeJob(job, this.nFeatures);
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
    this.control.ints[KIND] = STOP;
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
      for (;;) {
        const done = Atomics.load(ints, DONE + t);
        if (done === this.seq) break;
        Atomics.wait(ints, DONE + t, done, 1000);
      }
      if (ints[FAILED + t] !== 0) {
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
  let featuresOf = -1;
  let features = new Int32Array(0);
  for (;;) {
    Atomics.wait(ints, SEQ, seq);
    seq = Atomics.load(ints, SEQ);
    const stop = ints[KIND] === STOP;
    try {
      if (!stop) {
        // The feature list changes once per tree: re-filter only when it did.
        const n = ints[N_FEATURES];
        if (n !== featuresOf || !sameFeatures(features, control.features, n)) {
          features = control.features.slice(0, n);
          featuresOf = n;
          share.setFeatures(features);
        }
        const [a, b] = share.run(control.readJob());
        if (a) control.writeResult(t, 0, a);
        if (b) control.writeResult(t, 1, b);
      }
    } catch (e) {
      ints[FAILED + t] = 1;
      console.error(e);
    }
    Atomics.store(ints, DONE + t, seq);
    Atomics.notify(ints, DONE + t);
    if (stop) return;
  }
}

function sameFeatures(a: Int32Array, b: Int32Array, n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

