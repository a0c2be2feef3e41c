/**
 * Feature-parallel histogram work for one fit, LightGBM's feature-parallel scheme on one machine: the
 * features are cut into one contiguous range per thread; for each leaf job every thread fills its
 * range of the smaller child's histogram (same rows, same order as one thread would), subtracts it from
 * the parent's over its range, and finds the best split of each child among its features. The main
 * thread merges the threads' best splits in range order, keeping an earlier range on equal gain, which
 * is exactly the single-thread scan's choice: models are byte-identical whatever the thread count.
 *
 * The same threads share the fit's row work (row-work.ts): gradients, partitioning a split leaf's rows,
 * adding a tree's values to the scores, each cut into one row range per thread and giving the numbers
 * one thread gives. Without that, a third of a two-thread fit ran on the main thread alone.
 *
 * A multiclass round grows one tree per class from the same gradients; with at least as many classes as
 * threads, the threads grow whole trees of the round instead (growClasses), each on its own tree lane
 * (tree-lane.ts), taking the next class from a shared counter: no hand-off per leaf, and each tree is
 * the one a single thread grows, whoever grows it.
 *
 * Helper threads are worker threads attached to the fit's shared wasm memory; jobs and results pass
 * through a control block in that memory (polled, then Atomics wait/notify: spin-wait.ts), not messages,
 * as a job lasts microseconds to milliseconds. Which jobs are shared: team-tuning.ts.
 */
import { MessageChannel, type MessagePort, type Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { FeatureLayout } from './binned-data.js';
import type { ResolvedGbdtParams } from './params.js';
import { type LeafSums, type SplitInfo, findBestSplit } from './split-finder.js';
import { HistogramBuilder, type HistogramPlan, type TrainingMemory } from './training-memory.js';
import { Kernels, type KernelMemory } from './wasm-kernels.js';
import { type Objective, type ObjectiveState, objectiveState } from './objectives.js';
import { RowWork } from './row-work.js';
import { acquireHelper, releaseHelpers } from './helper-pool.js';
import { teamStats, teamTuning } from './team-tuning.js';
import { SpinWait } from './spin-wait.js';
import { TreeLane } from './tree-lane.js';
import { Tree } from './tree.js';

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
  objective: ObjectiveState;
  maxLeaves: number;
  thread: number;
  threads: number;
  /** The job sequence number the thread has seen so far. */
  seq: number;
  /** teamTuning.spins of the main thread: the most polls before sleeping (spin-wait.ts). */
  spins: number;
  /** Tree lanes of the memory (> thread: this thread may grow whole trees, growClasses). */
  lanes: number;
  /** Where the thread sends the trees it grew in a class job (read with receiveMessageOnPort). */
  port: MessagePort;
}

/** A class job's answer from a helper: the classes it took and their trees (structured clones). */
interface GrownTrees {
  classes: number[];
  trees: Tree[];
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
/** Row jobs: the split feature's codes (partition); the tree's leaves and class (scores). */
const CODES_AT = 27;
const N_LEAVES = 28;
const CLASS = 29;
/** Bumped whenever the feature list is written: helpers re-read it once per tree, not per job. */
const FEATURES_VERSION = 30;
/** + thread: the end of the left part of the thread's range after a partition job. */
const MID = 32;
/** + thread: the helper's busy time on its last job, in tenths of a microsecond (for teamStats). */
const BUSY_TENTH_US = 40;
/** Class jobs: classes in the round, the bag's length (−1: every row), the next class not yet taken. */
const N_CLASSES = 48;
const BAG_LENGTH = 49;
const NEXT_CLASS = 50;
const CTRL_INTS = 52;
/** Job kinds. */
const LEAF = 0;
const STOP = 1;
const PARTITION = 2;
const GRADIENTS = 3;
const SCORES = 4;
const CLASSES = 5;
export const MAX_THREADS = 8;
/** Per thread and leaf: gain, feature, thresholdBin, defaultLeft, lg, lh, lc, rg, rh, rc, leftBins length. */
const RESULT_F64 = 11;
const LEFT_BINS_BYTES = 256;
/** Bytes of the control block for nf features, `threads` threads and trees of up to maxLeaves leaves. */
export function teamBytes(nf: number, threads: number, maxLeaves: number): number {
  return CTRL_INTS * 4 + align8(nf * 4) + 6 * 8 + threads * 2 * (RESULT_F64 * 8 + LEFT_BINS_BYTES) + align8(maxLeaves * 8) + maxLeaves * 8;
}

function align8(b: number): number {
  return Math.ceil(b / 8) * 8;
}

/**
 * Views on the control block, the same on every thread. Integer fields go through Atomics. Float64
 * fields (job sums, results, a scores job's leaves) are plain views: each is written before the job's
 * (or the answer's) sequence number is stored with Atomics and read after that number is loaded, which
 * orders them as it orders the histograms; as int64 bit patterns through Atomics they cost a BigInt
 * allocation per value, 17 per leaf job.
 */
class ControlBlock {
  readonly ints: Int32Array;
  /** Job sums, then per thread and leaf a result. */
  private readonly sums: Float64Array;
  private readonly results: Float64Array;
  private readonly leftBins: Uint8Array;
  private readonly featuresAt: number;
  /**
   * A scores job's leaves (partition segments and values). Plain views: written before the job's
   * sequence number is stored and read after it is loaded, which orders them (as for the histograms).
   */
  readonly leafBegin: Int32Array;
  readonly leafCount: Int32Array;
  readonly leafValue: Float64Array;

  constructor(buffer: ArrayBufferLike, at: number, nf: number, threads: number, maxLeaves: number) {
    this.ints = new Int32Array(buffer, at, CTRL_INTS + nf);
    this.featuresAt = CTRL_INTS;
    at += CTRL_INTS * 4 + align8(nf * 4);
    this.sums = new Float64Array(buffer, at, 6);
    at += 6 * 8;
    this.results = new Float64Array(buffer, at, threads * 2 * RESULT_F64);
    at += threads * 2 * RESULT_F64 * 8;
    this.leftBins = new Uint8Array(buffer, at, threads * 2 * LEFT_BINS_BYTES);
    at += threads * 2 * LEFT_BINS_BYTES;
    this.leafBegin = new Int32Array(buffer, at, maxLeaves);
    this.leafCount = new Int32Array(buffer, at + maxLeaves * 4, maxLeaves);
    this.leafValue = new Float64Array(buffer, at + align8(maxLeaves * 8), maxLeaves);
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
    this.set(FEATURES_VERSION, this.get(FEATURES_VERSION) + 1);
  }

  readFeatures(): Int32Array {
    const n = this.get(N_FEATURES);
    return Int32Array.from({ length: n }, (_, i) => Atomics.load(this.ints, this.featuresAt + i));
  }

  writeJob(job: LeafJob): void {
    this.set(KIND, LEAF);
    this.set(BUILD, job.build);
    this.set(BEGIN, job.begin);
    this.set(END, job.end);
    this.set(PARENT, job.parent);
    this.set(FIND_A, job.findA);
    this.set(FIND_B, job.findB);
    this.set(GRAD_AT, job.gradAt);
    this.set(HESS_AT, job.hessAt);
    const s = this.sums;
    s[0] = job.sumsA.grad;
    s[1] = job.sumsA.hess;
    s[2] = job.sumsA.count;
    s[3] = job.sumsB.grad;
    s[4] = job.sumsB.hess;
    s[5] = job.sumsB.count;
  }

  readJob(): LeafJob {
    const s = this.sums;
    const f = (i: number) => s[i];
    return {
      build: this.get(BUILD), begin: this.get(BEGIN), end: this.get(END), parent: this.get(PARENT),
      findA: this.get(FIND_A), findB: this.get(FIND_B),
      sumsA: { grad: f(0), hess: f(1), count: f(2) | 0 }, sumsB: { grad: f(3), hess: f(4), count: f(5) | 0 },
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
    for (let i = 0; i < RESULT_F64; i++) this.results[o + i] = v[i];
  }

  /**
   * Integral fields come back as int32 (| 0), as the main thread's own SplitInfo holds them: a float64
   * there changes the objects' field representation, and V8 then deoptimised the split finder on every
   * later fit in the process (about 4× slower, single-thread fits included).
   */
  readResult(thread: number, leaf: 0 | 1): SplitInfo {
    const o = (thread * 2 + leaf) * RESULT_F64;
    const r = (i: number) => this.results[o + i];
    const nLeft = r(10);
    const b = (thread * 2 + leaf) * LEFT_BINS_BYTES;
    return {
      gain: r(0), feature: r(1) | 0, thresholdBin: r(2) | 0, defaultLeft: r(3) === 1,
      leftBins: nLeft >= 0 ? Uint8Array.from({ length: nLeft }, (_, i) => Atomics.load(this.leftBins, b + i)) : null,
      left: { grad: r(4), hess: r(5), count: r(6) | 0 },
      right: { grad: r(7), hess: r(8), count: r(9) | 0 },
    };
  }
}

/** Thread t's share of begin .. end: [cut(t), cut(t + 1)). */
function rowCut(begin: number, end: number, t: number, threads: number): number {
  return begin + Math.floor(((end - begin) * t) / threads);
}

/** A helper's part of a row job. */
function serveRows(kind: number, control: ControlBlock, rows: RowWork, t: number, threads: number, nRows: number): void {
  const begin = control.get(BEGIN);
  const end = control.get(END);
  const a = rowCut(begin, end, t, threads);
  const b = rowCut(begin, end, t + 1, threads);
  if (kind === PARTITION) control.set(MID + t, rows.partitionApart(a, b, control.get(CODES_AT)));
  else if (kind === GRADIENTS) rows.gradients(a, b);
  else if (kind === SCORES) rows.addLeafValues(a, b, control.get(N_LEAVES), control.leafBegin, control.leafCount, control.leafValue, control.get(CLASS));
  else throw new Error(`GBDT: unknown job kind ${kind} (${nRows} rows)`);
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
    const { pool, splittable } = this.histograms;
    const own = this.own;
    if (job.build >= 0) {
      // The new leaf starts from its parent's splittable features (the root: all of them); its sibling
      // keeps the parent's slot, flags and all, until its own split search.
      const flags = splittable[job.build];
      if (job.parent >= 0) {
        const from = splittable[job.parent];
        for (let i = 0; i < own.length; i++) flags[own[i]] = from[own[i]];
      } else for (let i = 0; i < own.length; i++) flags[own[i]] = 1;
      this.histograms.build(job.build, job.begin, job.end, job.gradAt, job.hessAt, this.f0, this.f1);
    }
    if (job.parent >= 0) this.histograms.subtract(job.parent, job.build, own, splittable[job.parent]);
    const find = (slot: number, sums: LeafSums) => (slot >= 0 ? findBestSplit(pool[slot], this.layout, own, sums, this.p, splittable[slot]) : null);
    return [find(job.findA, job.sumsA), find(job.findB, job.sumsB)];
  }
}

/** The threads of one fit; with one thread, the main thread's share is the whole job. */
export class FeatureTeam {
  private readonly own: ThreadShare;
  /** The whole job on the main thread (every feature), for jobs too small to share. */
  private readonly solo: ThreadShare;
  /** The current tree's features and their bins in all (for the work of a leaf job). */
  private treeFeatures = 0;
  private treeBins = 0;
  private readonly binsOf: Int32Array;
  /** The main thread's view of the fit's row arrays (scores, partition indices). */
  readonly rows: RowWork;
  private readonly control: ControlBlock;
  private readonly workers: Worker[] = [];
  private readonly nRows: number;
  private readonly bounds: Int32Array;
  private readonly mids: Int32Array;
  private seq = 0;
  /** When the current shared job was handed out (performance.now). */
  private startedAt = 0;
  /** teamTuning as the fit started. */
  private readonly tuning = { ...teamTuning };
  private readonly spin = new SpinWait(this.tuning.spins);
  /** The main thread's tree lane for class jobs (null: the memory has one lane). */
  private readonly lane: TreeLane | null;
  private readonly ports: MessagePort[] = [];
  private readonly maxLeaves: number;
  private readonly bag: Int32Array;

  /** memory: made with teamBytes(nf, threads, params.numLeaves); objective: after initScores. */
  constructor(memory: TrainingMemory, layout: FeatureLayout, params: ResolvedGbdtParams, objective: Objective, readonly threads: number) {
    if (!(threads >= 1 && threads <= MAX_THREADS)) throw new Error(`GBDT: threads must be in 1..${MAX_THREADS}`);
    const nf = layout.bins.length;
    const { histograms, teamAt } = memory;
    this.nRows = histograms.plan.nRows;
    this.bounds = new Int32Array(threads + 1);
    this.mids = new Int32Array(threads);
    this.own = new ThreadShare(histograms, layout, params, 0, threads);
    this.solo = threads > 1 ? new ThreadShare(histograms, layout, params, 0, 1) : this.own;
    this.binsOf = layout.numBins;
    this.rows = new RowWork(memory.kernels, histograms.plan, objective);
    this.control = new ControlBlock(histograms.pool[0].buffer, teamAt, nf, threads, params.numLeaves);
    for (let i = 0; i < CTRL_INTS; i++) this.control.set(i, 0);
    const lanes = histograms.plan.lanes.length;
    this.lane = lanes > 1 ? new TreeLane(memory.kernels, histograms.plan, 0, layout, params, objective) : null;
    this.maxLeaves = params.numLeaves;
    this.bag = memory.bag;
    for (let t = 1; t < threads; t++) {
      const worker = acquireHelper();
      const { port1, port2 } = new MessageChannel();
      const init: TeamInit = {
        memory: memory.kernels.wasmMemory, plan: histograms.plan, layout, params, teamAt, objective: objectiveState(objective),
        maxLeaves: params.numLeaves, thread: t, threads, seq: 0, spins: this.tuning.spins, lanes, port: port2,
      };
      worker.postMessage(init, [port2]);
      this.workers.push(worker);
      this.ports.push(port1);
    }
  }

  setFeatures(features: Int32Array): void {
    teamStats.trees++;
    this.treeFeatures = features.length;
    this.treeBins = 0;
    for (const f of features) this.treeBins += this.binsOf[f];
    this.own.setFeatures(features);
    if (this.solo !== this.own) this.solo.setFeatures(features);
    this.control.writeFeatures(features);
  }

  /** Runs the job on every thread; the best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    if (this.workers.length === 0) return this.own.run(job);
    if (this.work(job) < this.tuning.soloWork) {
      teamStats.soloJobs++;
      return this.solo.run(job);
    }
    teamStats.leafSyncs++;
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

  /** A leaf job's work units (teamTuning.soloWork): histogram cells built, bins subtracted and scanned. */
  private work(job: LeafJob): number {
    const scans = (job.parent >= 0 ? 1 : 0) + (job.findA >= 0 ? 1 : 0) + (job.findB >= 0 ? 1 : 0);
    const cells = job.build >= 0 ? (job.end - job.begin) * this.treeFeatures : 0;
    // Without countScans a job that builds nothing (the root's split search) stays on the main thread, as before.
    return this.tuning.countScans ? cells + scans * this.treeBins : job.build < 0 ? 0 : cells;
  }

  /** Gradients and hessians of every training row from the current scores. */
  gradients(): void {
    const n = this.nRows;
    if (this.workers.length === 0 || n < this.tuning.parallelRows) return this.rows.gradients(0, n);
    this.startRows(GRADIENTS, 0, n);
    this.rows.gradients(0, rowCut(0, n, 1, this.threads));
    this.finish();
  }

  /**
   * Stable partition of the partition indices begin .. end − 1 by the memory's side table over the
   * codes at codesAt (TrainingMemory.sideTable); returns the end of the left part.
   */
  partition(begin: number, end: number, codesAt: number): number {
    if (this.workers.length === 0 || end - begin < this.tuning.parallelRows) return this.rows.partition(begin, end, codesAt);
    this.control.set(CODES_AT, codesAt);
    this.startRows(PARTITION, begin, end);
    const { bounds, mids, threads } = this;
    for (let t = 0; t <= threads; t++) bounds[t] = rowCut(begin, end, t, threads);
    mids[0] = this.rows.partitionApart(bounds[0], bounds[1], codesAt);
    this.finish();
    for (let t = 1; t < threads; t++) mids[t] = this.control.get(MID + t);
    return this.rows.mergePartitions(bounds, mids, threads);
  }

  /** Adds leaf l's value to the class-c scores of the rows at partition positions leafBegin[l] .. + leafCount[l] − 1 (positions 0 .. total − 1 in all). */
  addLeafValues(numLeaves: number, leafBegin: Int32Array, leafCount: Int32Array, leafValue: Float64Array, c: number, total: number): void {
    if (this.workers.length === 0 || total < this.tuning.parallelRows) {
      this.rows.addLeafValues(0, total, numLeaves, leafBegin, leafCount, leafValue, c);
      return;
    }
    const cb = this.control;
    cb.leafBegin.set(leafBegin.subarray(0, numLeaves));
    cb.leafCount.set(leafCount.subarray(0, numLeaves));
    cb.leafValue.set(leafValue.subarray(0, numLeaves));
    cb.set(N_LEAVES, numLeaves);
    cb.set(CLASS, c);
    this.startRows(SCORES, 0, total);
    this.rows.addLeafValues(0, rowCut(0, total, 1, this.threads), numLeaves, leafBegin, leafCount, leafValue, c);
    this.finish();
  }

  /** Whether growClasses can run: the memory has a tree lane per thread. */
  get growsClasses(): boolean {
    return this.lane !== null;
  }

  /**
   * The round's k class trees, grown whole by the threads at once (each taking the next class), on rows
   * `bag` (null: every row) and the given features; each tree's leaf values are added to its class's
   * scores of the rows in the bag. Trees in class order, the same as one thread grows them one by one.
   */
  growClasses(k: number, bag: Int32Array | null, features: Int32Array): Tree[] {
    const lane = this.lane;
    if (!lane) throw new Error('GBDT: class jobs need a tree lane per thread');
    teamStats.trees += k;
    teamStats.classSyncs++;
    const cb = this.control;
    if (bag) this.bag.set(bag);
    cb.writeFeatures(features);
    cb.set(N_CLASSES, k);
    cb.set(BAG_LENGTH, bag ? bag.length : -1);
    cb.set(NEXT_CLASS, 0);
    cb.set(KIND, CLASSES);
    this.start();
    const trees = new Array<Tree>(k);
    const bagLength = bag ? bag.length : -1;
    for (let c = Atomics.add(cb.ints, NEXT_CLASS, 1); c < k; c = Atomics.add(cb.ints, NEXT_CLASS, 1)) {
      trees[c] = lane.growClass(c, bagLength, features);
    }
    this.finish();
    for (const port of this.ports) {
      // Posted before the helper's DONE; normally there already (prepare-data.ts waits the same way).
      let received = receiveMessageOnPort(port);
      for (let waits = 0; !received; waits++) {
        if (waits > 10_000) throw new Error('GBDT: a helper thread sent no trees for a class job');
        Atomics.wait(cb.ints, CTRL_INTS - 1, 0, 0.1);
        received = receiveMessageOnPort(port);
      }
      const answer = received.message as GrownTrees;
      answer.classes.forEach((c, i) => (trees[c] = Object.assign(new Tree(this.maxLeaves), answer.trees[i])));
    }
    return trees;
  }

  private startRows(kind: number, begin: number, end: number): void {
    teamStats.rowSyncs++;
    this.control.set(KIND, kind);
    this.control.set(BEGIN, begin);
    this.control.set(END, end);
    this.start();
  }

  /** Ends the helpers' job loops; they return to the idle list. */
  close(): void {
    if (this.workers.length === 0) return;
    this.control.set(KIND, STOP);
    this.start();
    this.finish();
    for (const port of this.ports.splice(0)) port.close();
    releaseHelpers(this.workers.splice(0));
  }

  private start(): void {
    const ints = this.control.ints;
    this.seq++;
    teamStats.syncs++;
    this.startedAt = performance.now();
    Atomics.store(ints, SEQ, this.seq);
    Atomics.notify(ints, SEQ);
  }

  private finish(): void {
    const ints = this.control.ints;
    const shareEnd = performance.now();
    for (let t = 1; t < this.threads; t++) {
      const slept = this.spin.sleptMs;
      for (let done = Atomics.load(ints, DONE + t); done !== this.seq; ) done = this.spin.waitWhile(ints, DONE + t, done);
      teamStats.sleepMs += this.spin.sleptMs - slept;
      if (Atomics.load(ints, FAILED + t) !== 0) {
        this.workers.splice(0).forEach((w) => void w.terminate());
        throw new Error(`GBDT: helper thread ${t} failed (see its error output)`);
      }
    }
    const share = shareEnd - this.startedAt;
    const helper = Atomics.load(ints, BUSY_TENTH_US + 1) / 1e4;
    teamStats.mainShareMs += share;
    teamStats.waitMs += performance.now() - shareEnd;
    teamStats.helperBusyMs += helper;
    teamStats.jobCriticalMs += Math.max(share, helper);
  }
}

/** A helper thread's loop for one fit: wait for a job, do its share, signal; until STOP. */
export function serveFit(init: TeamInit): void {
  const kernels = new Kernels(init.memory);
  const histograms = new HistogramBuilder(kernels, init.plan);
  const rows = new RowWork(kernels, init.plan, init.objective);
  const control = new ControlBlock(init.memory.buffer, init.teamAt, init.layout.bins.length, init.threads, init.maxLeaves);
  const share = new ThreadShare(histograms, init.layout, init.params, init.thread, init.threads);
  const ints = control.ints;
  const t = init.thread;
  let seq = init.seq;
  let featuresVersion = -1;
  let features: Int32Array = new Int32Array(0);
  const spin = new SpinWait(init.spins);
  const lane = init.lanes > t ? new TreeLane(kernels, init.plan, t, init.layout, init.params, init.objective) : null;
  for (;;) {
    // The next job: SEQ moves on (a wake-up alone proves nothing), by exactly one.
    const next = spin.waitWhile(ints, SEQ, seq);
    const busyFrom = performance.now();
    const skipped = next !== seq + 1;
    seq = next;
    const kind = control.get(KIND);
    const stop = kind === STOP;
    try {
      if (skipped) throw new Error(`GBDT: helper thread ${t} missed a job (${seq})`);
      // The feature list changes at most once per tree: re-read only when it was rewritten.
      const version = control.get(FEATURES_VERSION);
      if (!stop && (kind === LEAF || kind === CLASSES) && version !== featuresVersion) {
        featuresVersion = version;
        features = control.readFeatures();
        share.setFeatures(features);
      }
      if (kind === CLASSES) {
        if (!lane) throw new Error(`GBDT: helper thread ${t} has no tree lane`);
        const k = control.get(N_CLASSES);
        const bagLength = control.get(BAG_LENGTH);
        const grown: GrownTrees = { classes: [], trees: [] };
        for (let c = Atomics.add(ints, NEXT_CLASS, 1); c < k; c = Atomics.add(ints, NEXT_CLASS, 1)) {
          grown.classes.push(c);
          grown.trees.push(lane.growClass(c, bagLength, features));
        }
        // Before DONE: the main thread reads it (receiveMessageOnPort) once DONE moves on.
        init.port.postMessage(grown);
      } else if (kind !== LEAF && !stop) serveRows(kind, control, rows, t, init.threads, init.plan.nRows);
      else if (!stop) {
        const [a, b] = share.run(control.readJob());
        if (a) control.writeResult(t, 0, a);
        if (b) control.writeResult(t, 1, b);
      }
    } catch (e) {
      Atomics.store(ints, FAILED + t, 1);
      console.error(e);
    }
    Atomics.store(ints, BUSY_TENTH_US + t, Math.min(2 ** 31 - 1, Math.round((performance.now() - busyFrom) * 1e4)));
    Atomics.store(ints, DONE + t, seq);
    Atomics.notify(ints, DONE + t);
    if (stop) {
      init.port.close();
      return;
    }
  }
}
