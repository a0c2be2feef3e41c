/**
 * Histogram work for one fit on several threads, in two block jobs per leaf job. First the new leaf's
 * histogram by row chunks: a leaf's histogram is, on any thread count, the sum in chunk order of the
 * histograms of its rows in 1, 2 or 4 chunks of consecutive rows (training-memory.ts: how many depends
 * on the leaf's rows and the data's shape only), so threads build different chunks over all features,
 * each row's codes and gradients read once. (Cutting by features instead, LightGBM's feature-parallel
 * scheme, made every block stream every row of the leaf: 8 blocks of a 10,000-row leaf cost 2.8× one
 * pass on one thread, and a two-thread fit did more work than one thread.) A leaf of one chunk is cut
 * into one feature range per thread. Then the job's features are cut into blocks: for its blocks a
 * thread adds the chunks into the leaf's histogram, subtracts it from the parent's (the sibling's
 * histogram), and finds the best split of each child among the block's features. The main thread merges
 * the blocks' best splits in block order, keeping an earlier block on equal gain, which is exactly the
 * single-thread scan's choice: models are byte-identical whatever the thread count, and whichever
 * thread did a block.
 *
 * The same threads share the fit's row work (row-work.ts): gradients and adding a tree's values to the
 * scores, each cut into row blocks and giving the numbers one thread gives. Without that, a third of a
 * two-thread fit ran on the main thread alone. Partitioning a split leaf's rows can be shared too, but
 * by default is not (teamTuning.partitionRows: shared, it cost the main thread more than alone).
 *
 * Blocks are not assigned: each thread takes the next one (a compare-and-swap on a counter tagged with
 * the job's number) until none is left, a few blocks per thread (teamTuning.blocksPerThread). The main
 * thread starts on a job at once and waits only for blocks a helper has taken and not yet finished; on a
 * loaded machine a helper that is not running then costs the main thread one block, not half the job
 * (with fixed halves the main thread spent most of a loaded two-thread fit waiting).
 *
 * Below the top of a tree the leaves are one chunk, and a shared job of one chunk reads every row once
 * per feature range, on both threads: the tree learner (tree-learner.ts) rather hands the split of the
 * leaf with the next best gain to a helper (splitAhead: a mailbox in the control block with its own side
 * table; there are two, one used by default) while the main thread splits the best leaf alone, so two
 * leaves split at once, each on one thread (leaf-split.ts). The helper takes it when it wakes, before
 * any block; the main thread does it itself if it needs the answer before a helper took it.
 *
 * Why: synthetic 40k × 30 (200 rounds, 31 leaves), main-thread wall time per fit by kind of work, 1 →
 * 2 threads with every leaf split shared job by job (load ~1.4): one-chunk leaf jobs (27 a tree, 1,800
 * rows) 402 → 286 ms (1.41×: two hand-offs each, each row read on both threads), partitions of ≥ 4,096
 * rows 37 → 49 ms (slower: the merge of the blocks' parts is serial), chunked jobs 255 → 140 ms (1.8×),
 * gradients 95 → 53 ms. With splits ahead, 12 of the 30 splits of a tree go to the helper whole, hand-
 * offs per tree fall from 77 to 24, and a 2-thread fit's CPU from 1.14–1.47 s to 1.03–1.26 s (1 thread:
 * 0.86–1.0 s, unchanged). bench:gbdt-threads alternating with main, median wall speed-up of 5 pairs
 * (estimate with free hand-offs): load 1.1–1.3, main 1.45×, 1.42× (1.63×, 1.62×), now 1.55×, 1.60×
 * (1.75×, 1.73×), 2-thread wall 0.64 → 0.58 s; load 1.8–2.1, main 1.20×, 1.31× (1.36×, 1.39×), now
 * 1.32×, 1.62× (1.44×, 1.77×). Synthetic 400k (one pair, load 1.3–1.5): 1.69× → 1.90×, 5.08 → 4.62 s.
 * Wall figures on this VM move between two modes from run to run (a 2-thread fit in 0.54 or 0.75 s, the
 * main thread's own CPU 25 % higher in the slow one, on main's code too), hence the pairs. Since then
 * partitions stay on the main thread (team-tuning.ts partitionRows). Not done: the main thread still
 * does more than the helper (its own 15 splits a tree and the top of the tree, beside the helper's 12
 * and its share of the top: 0.52 s against 0.41 s busy); two splits ahead at a time (splitsAheadAtOnce)
 * kept the helper busier but made the main thread wait for it. Tried and not kept: chunk histograms of
 * each mailbox's own, so that leaves of several chunks (over ~8,160 rows at synthetic × 30) go ahead
 * too, partition included. Synthetic 400k: splits ahead per tree 3.0 → 13.5, hand-offs 64 → 42.5, the
 * 2-thread fit's main-thread CPU 0.5–0.8 s lower, but no wall gain: speed-ups 1.59×, 1.69× against
 * 1.71×, 1.61× (alternating, quiet lock, load 0.3–1.3); 40k unchanged; satellite (tree lanes, never
 * ahead, only the extra memory) 1.67×, 1.61× against 1.46×, 1.51×. The main thread then does its own
 * large leaves alone, so its serial time grows (1.4 → 4.2 s at 400k) by what the helper takes off it.
 * A helper back from a split ahead already joins the chunked job the main thread started meanwhile (run
 * shares it, serveFit sees JOB moved on), but a 400k leaf's histogram is 4 blocks of one chunk each: the
 * helper comes back to one or none. Tried and not kept, together (models identical on 1, 2, 3 threads
 * and to main's: sha256 of the model JSON, synthetic 40k and 400k, letter, credit, satellite):
 * partitions handed ahead (a large leaf's rows partitioned by the helper through the mailbox, its
 * histogram left to its turn; best gain first, whole splits of one-chunk leaves preferred): 400k splits
 * ahead per tree 3.0 → 13.0 (25.8 when gain alone chose); a chunked job started while a split ahead was
 * in flight cut into 4 feature ranges per chunk, so a helper coming back takes a quarter chunk; and the
 * main thread splitting further leaves, not waiting, while the one it needs is still with the helper (2
 * ahead at a time, 6 pending). Within-process alternating runs (this VM busy with other sessions; even a
 * 1-thread 40k fit took 2.1–2.6 s against 0.93 s quiet, so the figures are weak): 40k, 6 pairs, load
 * 1.7–2.0: main's rules 1.41×, partitions ahead + ranges 1.27×, splitting while waiting 1.38×; 400k, 3
 * pairs, load 2.2–3.3: 0.96× against 0.82×, and partitions ahead + ranges cost CPU on both threads (main
 * 12.1 → 14.8 s, helper 10.7 → 13.9 s: every row's gradients and indices read once per feature range,
 * and the partition's rows read on the other core); partitions ahead alone, 400k, 3 pairs, load 2.6–3.0:
 * medians 0.96× against 1.16×, fastest fits 15.1 against 18.3 s, CPU main 11.6 → 12.6 s, helper 10.7 →
 * 11.9 s: no clear gain, more work. Measured on the way: in a CPU profile of 40k 2-thread
 * fits the main thread built ~1.2× the helper's histogram cells and scanned ~1.6× its bins; at 400k
 * histogram work is even and the main thread's own partitions (~7 % of its time) are its excess. Wake-ups
 * cost little: 3,300–4,000 Atomics.notify a 40k fit, 23–68 ms in all at load 3 (the CPU profiler shows
 * far more in wake: its sampling, not the notify).
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
import { SpinWait, wake } from './spin-wait.js';
import { TreeLane } from './tree-lane.js';
import { Tree } from './tree.js';
import { type LeafSplitDone, type LeafSplitTask, splitLeafAlone } from './leaf-split.js';

/** One step of tree growth, for every feature block. Slots are histogram pool indices; -1 = skip. */
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
  /** Byte address of the class's (gradient, hessian) pairs (training-memory.ts). */
  pairsAt: number;
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
  /** Feature blocks of a leaf job, row blocks of a row job (the same on every thread). */
  leafBlocks: number;
  rowBlocks: number;
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

// Control block (Int32 words). JOB: the job's sequence number × 8 + its kind, in one word, so that a
// thread that reads it never pairs one job's number with another's kind.
const JOB = 0;
const DONE = 1; // + thread (1 .. MAX_THREADS-1): class and stop jobs only
const FAILED = 9; // + thread
/**
 * Block jobs: the next block to take, as (sequence number mod 2^20) << 12 | blocks << 6 | next block.
 * A thread takes block b by compareExchange of this word from b to b + 1, so a thread still looking at an
 * earlier job (its number no longer here) takes nothing from the current one.
 */
const CLAIM = 17;
/** Block jobs: blocks finished (by any thread); the main thread waits until it equals the job's blocks. */
const FINISHED = 18;
const BUILD = 19;
const BEGIN = 20;
const END = 21;
const PARENT = 22;
const FIND_A = 23;
const FIND_B = 24;
const PAIRS_AT = 25;
// Word 26 is free.
const N_FEATURES = 27;
/** Row jobs: the split feature's codes (partition); the tree's leaves and class (scores). */
const CODES_AT = 28;
const N_LEAVES = 29;
const CLASS = 30;
/** Bumped whenever the feature list is written: helpers re-read it once per tree, not per job. */
const FEATURES_VERSION = 31;
/** Helpers' busy time on the current block job's blocks, in tenths of a microsecond, and their blocks (teamStats). */
const HELPER_BUSY = 32;
const HELPER_BLOCKS = 33;
/** Class jobs: classes in the round, the bag's length (−1: every row), the next class not yet taken. */
const N_CLASSES = 34;
const BAG_LENGTH = 35;
const NEXT_CLASS = 36;
/** Leaf jobs: the row chunks of the histogram built (HistogramBuilder.chunks; 0: none built), and a rows job's feature ranges. */
const CHUNKS = 37;
const RANGES = 38;
/** + block: the end of the left part of the block's rows after a partition job. */
const MID = 40;
/** Blocks of one job, at most: 6 bits of CLAIM's count. */
export const MAX_BLOCKS = 32;
/**
 * Leaf splits handed ahead (LeafSplitTask), two mailboxes of SPLIT_WORDS words from SPLIT_BASE: each
 * with the split's number as posted, as taken by a thread (compare-and-swap from the number before), as
 * done; its inputs; its answer (the end of the left part, the pool slot the smaller child's histogram
 * went to, −1: none built); the time the thread that did it spent on it (tenths of a microsecond).
 */
const SPLIT_BASE = MID + MAX_BLOCKS + 4;
const SPLIT_WORDS = 16;
const SPLIT_MAILBOXES = 2;
const S_POSTED = 0;
const S_TAKEN = 1;
const S_DONE = 2;
const S_BEGIN = 3;
const S_END = 4;
const S_CODES_AT = 5;
const S_PARENT = 6;
const S_FREE = 7;
const S_DEPTH = 8;
const S_PAIRS_AT = 9;
const S_MID = 10;
const S_BUILT = 11;
const S_ASKED = 12;
const S_BUSY = 13;
/** Word `field` of mailbox box. */
function sw(box: number, field: number): number {
  return SPLIT_BASE + box * SPLIT_WORDS + field;
}
/** Threads asleep on a word of this block (spin-wait.ts: a change is notified only when some are). */
const SLEEPERS = SPLIT_BASE + SPLIT_MAILBOXES * SPLIT_WORDS;
/** The last word stays 0: a place to sleep for a moment (Atomics.wait on it never wakes early). */
const CTRL_INTS = SLEEPERS + 2;
/** Job kinds. */
const LEAF = 0;
const STOP = 1;
const PARTITION = 2;
const GRADIENTS = 3;
const SCORES = 4;
const CLASSES = 5;
/** A leaf job's histogram building: blocks of (row chunk, feature range), before the LEAF job's feature blocks. */
const LEAF_ROWS = 6;
/** A leaf split was handed ahead (no blocks; wakes the helpers, who take it if no thread has). */
const SPLIT = 7;
export const MAX_THREADS = 8;
/** Per block and leaf: gain, feature, thresholdBin, defaultLeft, lg, lh, lc, rg, rh, rc, leftBins length. */
const RESULT_F64 = 11;
const LEFT_BINS_BYTES = 256;
/** Bytes of the control block for nf features and trees of up to maxLeaves leaves (results for MAX_BLOCKS blocks). */
export function teamBytes(nf: number, maxLeaves: number): number {
  return CTRL_INTS * 4 + align8(nf * 4) + SUMS_F64 * 8 + RESULTS * 2 * (RESULT_F64 * 8 + LEFT_BINS_BYTES) + align8(maxLeaves * 8) + maxLeaves * 8 + SPLIT_MAILBOXES * SIDE_BYTES;
}

/** Job sums: a leaf job's two leaves (6), then per mailbox a handed-ahead split's left and right (grad, hess). */
const SUMS_F64 = 6 + 4 * SPLIT_MAILBOXES;
/** Result slots: one per block, then one per mailbox. */
const RESULTS = MAX_BLOCKS + SPLIT_MAILBOXES;
/** The bin → side table of a handed-ahead split (its own: the main thread's stays free for its own partitions). */
const SIDE_BYTES = 256;

function align8(b: number): number {
  return Math.ceil(b / 8) * 8;
}

/**
 * Views on the control block, the same on every thread. Integer fields go through Atomics. Float64
 * fields (job sums, results, a scores job's leaves) are plain views: each is written before the job's
 * number (or the block's FINISHED count) is stored with Atomics and read after that is loaded, which
 * orders them as it orders the histograms; as int64 bit patterns through Atomics they cost a BigInt
 * allocation per value, 17 per leaf job.
 */
class ControlBlock {
  readonly ints: Int32Array;
  /** Job sums, then per block and leaf a result. */
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
  /** Per mailbox, the bin → side table of its split. */
  readonly splitSide: Uint8Array[];

  constructor(buffer: ArrayBufferLike, at: number, nf: number, maxLeaves: number) {
    this.ints = new Int32Array(buffer, at, CTRL_INTS + nf);
    this.featuresAt = CTRL_INTS;
    at += CTRL_INTS * 4 + align8(nf * 4);
    this.sums = new Float64Array(buffer, at, SUMS_F64);
    at += SUMS_F64 * 8;
    this.results = new Float64Array(buffer, at, RESULTS * 2 * RESULT_F64);
    at += RESULTS * 2 * RESULT_F64 * 8;
    this.leftBins = new Uint8Array(buffer, at, RESULTS * 2 * LEFT_BINS_BYTES);
    at += RESULTS * 2 * LEFT_BINS_BYTES;
    this.leafBegin = new Int32Array(buffer, at, maxLeaves);
    this.leafCount = new Int32Array(buffer, at + maxLeaves * 4, maxLeaves);
    this.leafValue = new Float64Array(buffer, at + align8(maxLeaves * 8), maxLeaves);
    at += align8(maxLeaves * 8) + maxLeaves * 8;
    this.splitSide = Array.from({ length: SPLIT_MAILBOXES }, (_, box) => new Uint8Array(buffer, at + box * SIDE_BYTES, SIDE_BYTES));
  }

  /** Posts split number seq in mailbox box (free: its last split answered). */
  writeSplit(box: number, task: LeafSplitTask, seq: number): void {
    this.set(sw(box, S_BEGIN), task.begin);
    this.set(sw(box, S_END), task.end);
    this.set(sw(box, S_CODES_AT), task.codesAt);
    this.set(sw(box, S_PARENT), task.parent);
    this.set(sw(box, S_FREE), task.free);
    this.set(sw(box, S_DEPTH), task.depth);
    this.set(sw(box, S_PAIRS_AT), task.pairsAt);
    this.splitSide[box].set(task.goesLeft);
    const s = this.sums;
    const o = 6 + 4 * box;
    s[o] = task.left.grad;
    s[o + 1] = task.left.hess;
    s[o + 2] = task.right.grad;
    s[o + 3] = task.right.hess;
    this.set(sw(box, S_POSTED), seq);
  }

  readSplitTask(box: number): LeafSplitTask {
    const s = this.sums;
    const o = 6 + 4 * box;
    return {
      begin: this.get(sw(box, S_BEGIN)), end: this.get(sw(box, S_END)), codesAt: this.get(sw(box, S_CODES_AT)), goesLeft: this.splitSide[box],
      parent: this.get(sw(box, S_PARENT)), free: this.get(sw(box, S_FREE)), depth: this.get(sw(box, S_DEPTH)), pairsAt: this.get(sw(box, S_PAIRS_AT)),
      left: { grad: s[o], hess: s[o + 1], count: 0 }, right: { grad: s[o + 2], hess: s[o + 3], count: 0 },
    };
  }

  writeSplitDone(box: number, done: LeafSplitDone, seq: number): void {
    if (done.a) this.writeResult(MAX_BLOCKS + box, 0, done.a);
    if (done.b) this.writeResult(MAX_BLOCKS + box, 1, done.b);
    this.set(sw(box, S_MID), done.mid);
    this.set(sw(box, S_BUILT), done.built);
    this.set(sw(box, S_ASKED), (done.a ? 1 : 0) | (done.b ? 2 : 0));
    this.set(sw(box, S_DONE), seq);
    wake(this.ints, sw(box, S_DONE), SLEEPERS);
  }

  readSplitDone(box: number): LeafSplitDone {
    const asked = this.get(sw(box, S_ASKED));
    return {
      mid: this.get(sw(box, S_MID)), built: this.get(sw(box, S_BUILT)),
      a: asked & 1 ? this.readResult(MAX_BLOCKS + box, 0) : null, b: asked & 2 ? this.readResult(MAX_BLOCKS + box, 1) : null,
    };
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
    this.set(BUILD, job.build);
    this.set(BEGIN, job.begin);
    this.set(END, job.end);
    this.set(PARENT, job.parent);
    this.set(FIND_A, job.findA);
    this.set(FIND_B, job.findB);
    this.set(PAIRS_AT, job.pairsAt);
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
      pairsAt: this.get(PAIRS_AT),
    };
  }

  writeResult(block: number, leaf: 0 | 1, split: SplitInfo): void {
    const o = (block * 2 + leaf) * RESULT_F64;
    const v = [
      split.gain, split.feature, split.thresholdBin, split.defaultLeft ? 1 : 0, split.left.grad, split.left.hess, split.left.count,
      split.right.grad, split.right.hess, split.right.count, split.leftBins ? split.leftBins.length : -1,
    ];
    const b = (block * 2 + leaf) * LEFT_BINS_BYTES;
    if (split.leftBins) for (let i = 0; i < split.leftBins.length; i++) Atomics.store(this.leftBins, b + i, split.leftBins[i]);
    for (let i = 0; i < RESULT_F64; i++) this.results[o + i] = v[i];
  }

  /**
   * Integral fields come back as int32 (| 0), as the main thread's own SplitInfo holds them: a float64
   * there changes the objects' field representation, and V8 then deoptimised the split finder on every
   * later fit in the process (about 4× slower, single-thread fits included).
   */
  readResult(block: number, leaf: 0 | 1): SplitInfo {
    const o = (block * 2 + leaf) * RESULT_F64;
    const r = (i: number) => this.results[o + i];
    const nLeft = r(10);
    const b = (block * 2 + leaf) * LEFT_BINS_BYTES;
    return {
      gain: r(0), feature: r(1) | 0, thresholdBin: r(2) | 0, defaultLeft: r(3) === 1,
      leftBins: nLeft >= 0 ? Uint8Array.from({ length: nLeft }, (_, i) => Atomics.load(this.leftBins, b + i)) : null,
      left: { grad: r(4), hess: r(5), count: r(6) | 0 },
      right: { grad: r(7), hess: r(8), count: r(9) | 0 },
    };
  }
}

/** Block b's share of begin .. end: [cut(b), cut(b + 1)). */
function rowCut(begin: number, end: number, b: number, blocks: number): number {
  return begin + Math.floor(((end - begin) * b) / blocks);
}

/** CLAIM's word for job seq of `blocks` blocks, `next` the next block to take. */
function claimWord(seq: number, blocks: number, next: number): number {
  return ((seq & 0xfffff) << 12) | (blocks << 6) | next;
}

/** The next block of job seq, taken for this thread; −1 once none is left or the job is no longer seq. */
function takeBlock(ints: Int32Array, seq: number): number {
  const tag = seq & 0xfffff;
  for (;;) {
    const w = Atomics.load(ints, CLAIM);
    const next = w & 63;
    if (((w >>> 12) & 0xfffff) !== tag || next >= ((w >>> 6) & 63)) return -1;
    if (Atomics.compareExchange(ints, CLAIM, w, w + 1) === w) return next;
  }
}

/** The mailbox of the earliest leaf split handed ahead and not taken yet, taken for this thread; −1 if none. */
function takeSplit(ints: Int32Array): number {
  for (;;) {
    let box = -1;
    let first = 0;
    for (let b = 0; b < SPLIT_MAILBOXES; b++) {
      const posted = Atomics.load(ints, sw(b, S_POSTED));
      if (posted !== Atomics.load(ints, sw(b, S_TAKEN)) && (box < 0 || posted < first)) {
        box = b;
        first = posted;
      }
    }
    if (box < 0) return -1;
    if (takeSplitIn(ints, box)) return box;
  }
}

/** Takes the split in mailbox box for this thread if no thread has: whether it did. */
function takeSplitIn(ints: Int32Array, box: number): boolean {
  const posted = Atomics.load(ints, sw(box, S_POSTED));
  const taken = Atomics.load(ints, sw(box, S_TAKEN));
  return taken !== posted && Atomics.compareExchange(ints, sw(box, S_TAKEN), taken, posted) === taken;
}

/** First feature of range `part` of `parts` ranges of equal feature counts (part = parts: nf). */
function rangeStart(nf: number, part: number, parts: number): number {
  return Math.round((part * nf) / parts);
}

/** Range `part` of `parts` of a leaf job (a block, or the whole job): its features' histograms and best splits. */
export class ThreadShare {
  private readonly f0: number;
  private readonly f1: number;
  private own = new Int32Array(0);

  constructor(
    private readonly histograms: HistogramBuilder,
    private readonly layout: FeatureLayout,
    private readonly p: ResolvedGbdtParams,
    part: number,
    parts: number,
  ) {
    this.f0 = rangeStart(layout.bins.length, part, parts);
    this.f1 = rangeStart(layout.bins.length, part + 1, parts);
  }

  /** The candidate features of the current tree (ascending); this share keeps those in its range. */
  setFeatures(features: Int32Array): void {
    let n = 0;
    for (const f of features) if (f >= this.f0 && f < this.f1) n++;
    this.own = new Int32Array(n);
    n = 0;
    for (const f of features) if (f >= this.f0 && f < this.f1) this.own[n++] = f;
  }

  /** The whole job on this share's features: its histogram's row chunks one after the other, then finish. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    const h = this.histograms;
    const chunks = job.build >= 0 ? h.chunks(job.end - job.begin) : 0;
    for (let k = 0; k < chunks; k++) h.buildChunk(job.build, k, chunks, job.begin, job.end, job.pairsAt, this.f0, this.f1);
    return this.finish(job, chunks);
  }

  /**
   * The job after its histogram's row chunks are built (by any threads, over these features at least):
   * the chunks summed into the new leaf's slot, the sibling's histogram by subtraction, the best splits.
   */
  finish(job: LeafJob, chunks: number): [SplitInfo | null, SplitInfo | null] {
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
      if (chunks > 1) this.histograms.addChunks(job.build, chunks, own, flags);
    }
    if (job.parent >= 0) this.histograms.subtract(job.parent, job.build, own, splittable[job.parent]);
    const find = (slot: number, sums: LeafSums) => (slot >= 0 ? findBestSplit(pool[slot], this.layout, own, sums, this.p, splittable[slot]) : null);
    return [find(job.findA, job.sumsA), find(job.findB, job.sumsB)];
  }
}

/**
 * What any thread needs to do any block of a block job: one ThreadShare per feature block (a leaf job's
 * block: its features' histograms and best splits) and the row work (a row job's block: its rows).
 */
class BlockWork {
  readonly shares: ThreadShare[];
  /** Every feature: a leaf split handed ahead (leaf-split.ts). */
  private readonly whole: ThreadShare;
  private readonly nf: number;

  constructor(
    private readonly histograms: HistogramBuilder, layout: FeatureLayout, private readonly params: ResolvedGbdtParams,
    private readonly rows: RowWork, private readonly control: ControlBlock, leafBlocks: number, private readonly rowBlocks: number,
  ) {
    this.shares = Array.from({ length: leafBlocks }, (_, b) => new ThreadShare(histograms, layout, params, b, leafBlocks));
    this.whole = new ThreadShare(histograms, layout, params, 0, 1);
    this.nf = layout.bins.length;
  }

  /** The leaf split handed ahead in mailbox box, on this thread (which took it), its answer in the mailbox. */
  splitAhead(box: number): void {
    const c = this.control;
    const from = performance.now();
    const seq = c.get(sw(box, S_POSTED));
    const sideAt = c.splitSide[box].byteOffset;
    const done = splitLeafAlone(
      c.readSplitTask(box), this.params, (begin, end, codesAt) => this.rows.partitionWith(begin, end, codesAt, sideAt), (job) => this.whole.run(job),
    );
    c.set(sw(box, S_BUSY), Math.min(2 ** 31 - 1, Math.round((performance.now() - from) * 1e4)));
    c.writeSplitDone(box, done, seq);
  }

  /** Block b of a LEAF_ROWS job: row chunk b mod chunks of the job's histogram, over feature range ⌊b / chunks⌋ of `ranges`. */
  leafRowsBlock(job: LeafJob, b: number, chunks: number, ranges: number): void {
    const k = b % chunks;
    const r = (b - k) / chunks;
    const f0 = rangeStart(this.nf, r, ranges);
    const f1 = rangeStart(this.nf, r + 1, ranges);
    this.histograms.buildChunk(job.build, k, chunks, job.begin, job.end, job.pairsAt, f0, f1);
  }

  setFeatures(features: Int32Array): void {
    for (const s of this.shares) s.setFeatures(features);
    this.whole.setFeatures(features);
  }

  /** Block b of a row job over the control block's BEGIN .. END. */
  rowBlock(kind: number, b: number): void {
    const c = this.control;
    const begin = c.get(BEGIN);
    const end = c.get(END);
    const from = rowCut(begin, end, b, this.rowBlocks);
    const to = rowCut(begin, end, b + 1, this.rowBlocks);
    if (kind === PARTITION) c.set(MID + b, this.rows.partitionApart(from, to, c.get(CODES_AT)));
    else if (kind === GRADIENTS) this.rows.gradients(from, to);
    else if (kind === SCORES) this.rows.addLeafValues(from, to, c.get(N_LEAVES), c.leafBegin, c.leafCount, c.leafValue, c.get(CLASS));
    else throw new Error(`GBDT: unknown job kind ${kind}`);
  }
}

/** Blocks of a leaf job and of a row job for this many threads (teamTuning.blocksPerThread). */
function blockCounts(nf: number, threads: number, perThread: number): { leafBlocks: number; rowBlocks: number } {
  const rowBlocks = Math.max(threads, Math.min(MAX_BLOCKS, perThread * threads));
  return { leafBlocks: Math.max(1, Math.min(nf, rowBlocks)), rowBlocks };
}

/** The threads of one fit; with one thread, the main thread does every job whole. */
export class FeatureTeam {
  /** The whole job on the main thread (every feature): with one thread, and for jobs too small to share. */
  private readonly solo: ThreadShare;
  /** The blocks' work on the main thread (null: one thread). */
  private readonly blocks: BlockWork | null;
  private readonly histograms: HistogramBuilder;
  private readonly leafBlocks: number;
  private readonly rowBlocks: number;
  /** The main thread's own results of the current leaf job, by block (null: a helper's, in the control block). */
  private readonly mine: ([SplitInfo | null, SplitInfo | null] | null)[];
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
  private readonly spin = new SpinWait(this.tuning.spins, SLEEPERS);
  /** The main thread's tree lane for class jobs (null: the memory has one lane). */
  private readonly lane: TreeLane | null;
  private readonly ports: MessagePort[] = [];
  private readonly maxLeaves: number;
  private readonly bag: Int32Array;
  /** The last leaf split handed ahead (0: none yet); per mailbox, its split's number (0: free) and when it was posted. */
  private splitSeq = 0;
  private readonly boxSeq = new Int32Array(SPLIT_MAILBOXES);
  private readonly boxPostedAt = new Float64Array(SPLIT_MAILBOXES);
  /** Whether the current block job started while a helper was doing a split ahead (teamStats). */
  private besideSplit = false;
  private readonly maxAheadRows: number;

  /** memory: made with teamBytes(nf, params.numLeaves); objective: after initScores. */
  constructor(memory: TrainingMemory, layout: FeatureLayout, params: ResolvedGbdtParams, objective: Objective, readonly threads: number) {
    if (!(threads >= 1 && threads <= MAX_THREADS)) throw new Error(`GBDT: threads must be in 1..${MAX_THREADS}`);
    const nf = layout.bins.length;
    const { histograms, teamAt } = memory;
    this.nRows = histograms.plan.nRows;
    this.histograms = histograms;
    const { leafBlocks, rowBlocks } = blockCounts(nf, threads, this.tuning.blocksPerThread);
    this.leafBlocks = leafBlocks;
    this.rowBlocks = rowBlocks;
    this.bounds = new Int32Array(rowBlocks + 1);
    this.mids = new Int32Array(rowBlocks);
    this.mine = new Array(leafBlocks).fill(null);
    this.solo = new ThreadShare(histograms, layout, params, 0, 1);
    this.binsOf = layout.numBins;
    this.rows = new RowWork(memory.kernels, histograms.plan, objective);
    this.control = new ControlBlock(histograms.pool[0].buffer, teamAt, nf, params.numLeaves);
    for (let i = 0; i < CTRL_INTS; i++) this.control.set(i, 0);
    this.blocks = threads > 1 ? new BlockWork(histograms, layout, params, this.rows, this.control, leafBlocks, rowBlocks) : null;
    const lanes = histograms.plan.lanes.length;
    this.lane = lanes > 1 ? new TreeLane(memory.kernels, histograms.plan, 0, layout, params, objective) : null;
    this.maxLeaves = params.numLeaves;
    this.bag = memory.bag;
    // The most rows whose smaller half is one chunk.
    let oneChunk = 1;
    while (histograms.chunks(2 * oneChunk) === 1) oneChunk *= 2;
    for (let step = oneChunk >> 1; step >= 1; step >>= 1) if (histograms.chunks(oneChunk + step) === 1) oneChunk += step;
    this.maxAheadRows = 2 * oneChunk + 1;
    for (let t = 1; t < threads; t++) {
      const worker = acquireHelper();
      const { port1, port2 } = new MessageChannel();
      const init: TeamInit = {
        memory: memory.kernels.wasmMemory, plan: histograms.plan, layout, params, teamAt, objective: objectiveState(objective),
        maxLeaves: params.numLeaves, thread: t, threads, leafBlocks, rowBlocks, spins: this.tuning.spins, lanes, port: port2,
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
    this.solo.setFeatures(features);
    if (this.blocks) {
      this.blocks.setFeatures(features);
      this.control.writeFeatures(features);
    }
  }

  /** Whether leaf splits can be handed ahead to a helper (splitAhead): there is one. */
  get splitsAhead(): boolean {
    return this.blocks !== null && this.tuning.splitAhead;
  }

  /**
   * Rows of a leaf at most whose split may be handed ahead: its smaller child's histogram is then built
   * in one chunk, with no use of the chunk histograms (HistogramBuilder.partials), which are the team's.
   */
  get aheadRows(): number {
    return this.maxAheadRows;
  }

  /** Hands a leaf's split to the helpers (the first free one takes it); its number. At most SPLIT_MAILBOXES at a time. */
  splitAhead(task: LeafSplitTask): number {
    const box = this.boxSeq.indexOf(0);
    if (box < 0) throw new Error('GBDT: every leaf split mailbox is in use');
    teamStats.splitsAhead++;
    const seq = ++this.splitSeq;
    this.boxSeq[box] = seq;
    this.control.writeSplit(box, task, seq);
    this.start(SPLIT, 0);
    this.boxPostedAt[box] = performance.now();
    return seq;
  }

  /** Splits handed ahead at most at a time. */
  get aheadAtOnce(): number {
    return Math.max(1, Math.min(SPLIT_MAILBOXES, this.tuning.splitsAheadAtOnce));
  }

  /** Whether split number seq (default: any split handed ahead and not answered) is still being done, or not yet taken. */
  splitBusy(seq = 0): boolean {
    for (let box = 0; box < SPLIT_MAILBOXES; box++) {
      const s = this.boxSeq[box];
      if (s !== 0 && (seq === 0 || s === seq) && this.control.get(sw(box, S_DONE)) !== s) return true;
    }
    return false;
  }

  /** The answer to split number seq: done here if no helper took it yet, else awaited. Its mailbox is free after. */
  splitAnswer(seq: number): LeafSplitDone {
    const box = this.boxSeq.indexOf(seq);
    if (box < 0) throw new Error(`GBDT: no leaf split ${seq} handed ahead`);
    const ints = this.control.ints;
    const from = performance.now();
    const doneAt = sw(box, S_DONE);
    if (Atomics.load(ints, doneAt) !== seq) {
      if (takeSplitIn(ints, box)) {
        teamStats.splitsAheadByMain++;
        this.blocks!.splitAhead(box);
        teamStats.splitByMainMs += performance.now() - from;
      } else {
        const slept = this.spin.sleptMs;
        for (let done = Atomics.load(ints, doneAt); done !== seq; ) done = this.spin.waitWhile(ints, doneAt, done);
        teamStats.sleepMs += this.spin.sleptMs - slept;
        teamStats.splitWaitMs += performance.now() - from;
      }
    }
    // With free hand-offs a helper does the split, from its posting on, beside the main thread's work since.
    const busy = this.control.get(sw(box, S_BUSY)) / 1e4;
    teamStats.splitBusyMs += busy;
    teamStats.splitCriticalMs += Math.max(0, busy - (from - this.boxPostedAt[box]));
    this.checkHelpers();
    const answer = this.control.readSplitDone(box);
    this.boxSeq[box] = 0;
    return answer;
  }

  /** Runs the job on every thread; the best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    const blocks = this.blocks;
    if (!blocks) return this.solo.run(job);
    if (this.work(job) < this.tuning.soloWork) {
      teamStats.soloJobs++;
      return this.solo.run(job);
    }
    // While a helper does a split handed ahead, a job of one row chunk is the main thread's alone:
    // shared, it would read each row once per feature range, all of them on this thread.
    if (this.splitBusy() && (job.build < 0 || this.histograms.chunks(job.end - job.begin) === 1)) {
      teamStats.soloJobs++;
      return this.solo.run(job);
    }
    teamStats.leafSyncs++;
    const cb = this.control;
    cb.writeJob(job);
    const ints = cb.ints;
    // First the histogram by row chunks over all features (a row's codes read once, not once per
    // feature block), then the job's feature blocks: chunks summed, sibling subtracted, splits found.
    let chunks = 0;
    if (job.build >= 0) {
      chunks = this.histograms.chunks(job.end - job.begin);
      if (chunks > 1) teamStats.chunkedJobs++;
      // Too few chunks for every thread: each chunk also cut into feature ranges.
      const ranges = Math.ceil(this.threads / chunks);
      cb.set(CHUNKS, chunks);
      cb.set(RANGES, ranges);
      this.start(LEAF_ROWS, chunks * ranges);
      for (let b = takeBlock(ints, this.seq); b >= 0; b = takeBlock(ints, this.seq)) {
        blocks.leafRowsBlock(job, b, chunks, ranges);
        Atomics.add(ints, FINISHED, 1);
      }
      this.finishBlocks(chunks * ranges);
    } else cb.set(CHUNKS, 0);
    const n = this.leafBlocks;
    const mine = this.mine;
    mine.fill(null);
    this.start(LEAF, n);
    for (let b = takeBlock(ints, this.seq); b >= 0; b = takeBlock(ints, this.seq)) {
      mine[b] = blocks.shares[b].finish(job, chunks);
      Atomics.add(ints, FINISHED, 1);
    }
    this.finishBlocks(n);
    // Block by block in feature order, an earlier block kept on equal gain: the one-thread scan's choice.
    const merge = (leaf: 0 | 1, slot: number) => {
      if (slot < 0) return null;
      let best: SplitInfo | null = null;
      for (let b = 0; b < n; b++) {
        const own = mine[b];
        const split = own ? own[leaf]! : this.control.readResult(b, leaf);
        if (!best || split.gain > best.gain) best = split;
      }
      return best;
    };
    return [merge(0, job.findA), merge(1, job.findB)];
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
    if (!this.blocks || n < this.tuning.parallelRows) return this.rows.gradients(0, n);
    this.rowJob(GRADIENTS, 0, n);
  }

  /**
   * Stable partition of the partition indices begin .. end − 1 by the memory's side table over the
   * codes at codesAt (TrainingMemory.sideTable); returns the end of the left part.
   */
  partition(begin: number, end: number, codesAt: number): number {
    if (!this.blocks || end - begin < this.tuning.partitionRows || this.splitBusy()) return this.rows.partition(begin, end, codesAt);
    this.control.set(CODES_AT, codesAt);
    this.rowJob(PARTITION, begin, end);
    const { bounds, mids, rowBlocks } = this;
    for (let b = 0; b <= rowBlocks; b++) bounds[b] = rowCut(begin, end, b, rowBlocks);
    for (let b = 0; b < rowBlocks; b++) mids[b] = this.control.get(MID + b);
    return this.rows.mergePartitions(bounds, mids, rowBlocks);
  }

  /** Adds leaf l's value to the class-c scores of the rows at partition positions leafBegin[l] .. + leafCount[l] − 1 (positions 0 .. total − 1 in all). */
  addLeafValues(numLeaves: number, leafBegin: Int32Array, leafCount: Int32Array, leafValue: Float64Array, c: number, total: number): void {
    if (!this.blocks || total < this.tuning.parallelRows) {
      this.rows.addLeafValues(0, total, numLeaves, leafBegin, leafCount, leafValue, c);
      return;
    }
    const cb = this.control;
    cb.leafBegin.set(leafBegin.subarray(0, numLeaves));
    cb.leafCount.set(leafCount.subarray(0, numLeaves));
    cb.leafValue.set(leafValue.subarray(0, numLeaves));
    cb.set(N_LEAVES, numLeaves);
    cb.set(CLASS, c);
    this.rowJob(SCORES, 0, total);
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
    this.start(CLASSES, 0);
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

  /** A row job over begin .. end, in rowBlocks blocks taken by whichever thread is free. */
  private rowJob(kind: number, begin: number, end: number): void {
    teamStats.rowSyncs++;
    const blocks = this.blocks!;
    const ints = this.control.ints;
    this.control.set(BEGIN, begin);
    this.control.set(END, end);
    this.start(kind, this.rowBlocks);
    for (let b = takeBlock(ints, this.seq); b >= 0; b = takeBlock(ints, this.seq)) {
      blocks.rowBlock(kind, b);
      Atomics.add(ints, FINISHED, 1);
    }
    this.finishBlocks(this.rowBlocks);
  }

  /** Ends the helpers' job loops; they return to the idle list. */
  close(): void {
    if (this.workers.length === 0) return;
    for (const seq of this.boxSeq) if (seq !== 0) this.splitAnswer(seq);
    this.start(STOP, 0);
    this.finish();
    for (const port of this.ports.splice(0)) port.close();
    releaseHelpers(this.workers.splice(0));
  }

  /** Publishes the next job: its kind, and for a block job its `blocks` blocks, none taken yet. */
  private start(kind: number, blocks: number): void {
    const ints = this.control.ints;
    this.seq++;
    teamStats.syncs++;
    Atomics.store(ints, FINISHED, 0);
    Atomics.store(ints, HELPER_BUSY, 0);
    Atomics.store(ints, HELPER_BLOCKS, 0);
    Atomics.store(ints, CLAIM, claimWord(this.seq, blocks, 0));
    this.startedAt = performance.now();
    this.besideSplit = kind !== SPLIT && this.splitBusy();
    Atomics.store(ints, JOB, this.seq * 8 + kind);
    wake(ints, JOB, SLEEPERS);
  }

  /**
   * After the main thread found no block left to take: waits for the blocks the helpers took. A helper
   * that was not running when the job started took none, and is not waited for.
   */
  private finishBlocks(blocks: number): void {
    const ints = this.control.ints;
    const shareEnd = performance.now();
    const slept = this.spin.sleptMs;
    for (let done = Atomics.load(ints, FINISHED); done !== blocks; ) done = this.spin.waitWhile(ints, FINISHED, done);
    teamStats.sleepMs += this.spin.sleptMs - slept;
    this.checkHelpers();
    const share = shareEnd - this.startedAt;
    const helper = Atomics.load(ints, HELPER_BUSY) / 1e4;
    teamStats.waitMs += performance.now() - shareEnd;
    // The helper was splitting a leaf meanwhile: the main thread's share is not split evenly in a
    // free-hand-off estimate (the helper's time is the split's), so it stays in the serial time.
    if (this.besideSplit) return;
    teamStats.blocks += blocks;
    teamStats.helperBlocks += Atomics.load(ints, HELPER_BLOCKS);
    teamStats.mainShareMs += share;
    teamStats.helperBusyMs += helper;
    teamStats.blockShareMs += share;
  }

  /** Waits until every helper has answered the current class or stop job. */
  private finish(): void {
    const ints = this.control.ints;
    const shareEnd = performance.now();
    let helper = 0;
    for (let t = 1; t < this.threads; t++) {
      const slept = this.spin.sleptMs;
      for (let done = Atomics.load(ints, DONE + t); done !== this.seq; ) done = this.spin.waitWhile(ints, DONE + t, done);
      teamStats.sleepMs += this.spin.sleptMs - slept;
      if (t === 1) helper = Atomics.load(ints, HELPER_BUSY) / 1e4;
    }
    this.checkHelpers();
    const share = shareEnd - this.startedAt;
    teamStats.mainShareMs += share;
    teamStats.waitMs += performance.now() - shareEnd;
    teamStats.helperBusyMs += helper;
    teamStats.jobCriticalMs += Math.max(share, helper);
  }

  private checkHelpers(): void {
    for (let t = 1; t < this.threads; t++) {
      if (Atomics.load(this.control.ints, FAILED + t) !== 0) {
        this.workers.splice(0).forEach((w) => void w.terminate());
        throw new Error(`GBDT: helper thread ${t} failed (see its error output)`);
      }
    }
  }
}

/**
 * A helper thread's loop for one fit, until STOP: wait for the next job; of a block job take blocks
 * until none is left (a job it saw too late has none, and it waits for the next); answer a class job.
 */
export function serveFit(init: TeamInit): void {
  const kernels = new Kernels(init.memory);
  const histograms = new HistogramBuilder(kernels, init.plan);
  const rows = new RowWork(kernels, init.plan, init.objective);
  const control = new ControlBlock(init.memory.buffer, init.teamAt, init.layout.bins.length, init.maxLeaves);
  const blocks = new BlockWork(histograms, init.layout, init.params, rows, control, init.leafBlocks, init.rowBlocks);
  const ints = control.ints;
  const t = init.thread;
  let word = 0;
  let featuresVersion = -1;
  let features: Int32Array = new Int32Array(0);
  const spin = new SpinWait(init.spins, SLEEPERS);
  const lane = init.lanes > t ? new TreeLane(kernels, init.plan, t, init.layout, init.params, init.objective) : null;
  // The feature list changes at most once per tree: re-read only when it was rewritten.
  const currentFeatures = () => {
    const version = control.get(FEATURES_VERSION);
    if (version !== featuresVersion) {
      featuresVersion = version;
      features = control.readFeatures();
      blocks.setFeatures(features);
    }
  };
  for (;;) {
    // The next job: JOB moves on (a wake-up alone proves nothing); it may have moved on by several.
    word = spin.waitWhile(ints, JOB, word);
    const seq = Math.floor(word / 8);
    const kind = word & 7;
    // A leaf split handed ahead comes first: the main thread may soon need its answer.
    for (let box = takeSplit(ints); box >= 0; box = takeSplit(ints)) {
      try {
        currentFeatures();
        blocks.splitAhead(box);
      } catch (e) {
        Atomics.store(ints, FAILED + t, 1);
        console.error(e);
        Atomics.store(ints, sw(box, S_DONE), Atomics.load(ints, sw(box, S_POSTED)));
        wake(ints, sw(box, S_DONE), SLEEPERS);
      }
    }
    if (kind === STOP || kind === CLASSES) {
      const busyFrom = performance.now();
      try {
        if (kind === CLASSES) {
          if (!lane) throw new Error(`GBDT: helper thread ${t} has no tree lane`);
          currentFeatures();
          const k = control.get(N_CLASSES);
          const bagLength = control.get(BAG_LENGTH);
          const grown: GrownTrees = { classes: [], trees: [] };
          for (let c = Atomics.add(ints, NEXT_CLASS, 1); c < k; c = Atomics.add(ints, NEXT_CLASS, 1)) {
            grown.classes.push(c);
            grown.trees.push(lane.growClass(c, bagLength, features));
          }
          // Before DONE: the main thread reads it (receiveMessageOnPort) once DONE moves on.
          init.port.postMessage(grown);
        }
      } catch (e) {
        Atomics.store(ints, FAILED + t, 1);
        console.error(e);
      }
      if (t === 1) Atomics.store(ints, HELPER_BUSY, Math.min(2 ** 31 - 1, Math.round((performance.now() - busyFrom) * 1e4)));
      Atomics.store(ints, DONE + t, seq);
      wake(ints, DONE + t, SLEEPERS);
      if (kind === STOP) {
        init.port.close();
        return;
      }
      continue;
    }
    // A block job. Whatever it reads after taking a block stays put until that block is finished.
    let job: LeafJob | null = null;
    let chunks = 0;
    let ranges = 0;
    for (let b = takeBlock(ints, seq); b >= 0; b = takeBlock(ints, seq)) {
      const busyFrom = performance.now();
      try {
        if (kind === LEAF || kind === LEAF_ROWS) {
          if (!job) {
            if (kind === LEAF) currentFeatures();
            job = control.readJob();
            chunks = control.get(CHUNKS);
            ranges = control.get(RANGES);
          }
          if (kind === LEAF_ROWS) blocks.leafRowsBlock(job, b, chunks, ranges);
          else {
            const [a, c] = blocks.shares[b].finish(job, chunks);
            if (a) control.writeResult(b, 0, a);
            if (c) control.writeResult(b, 1, c);
          }
        } else blocks.rowBlock(kind, b);
      } catch (e) {
        Atomics.store(ints, FAILED + t, 1);
        console.error(e);
      }
      Atomics.add(ints, HELPER_BUSY, Math.round((performance.now() - busyFrom) * 1e4));
      Atomics.add(ints, HELPER_BLOCKS, 1);
      Atomics.add(ints, FINISHED, 1);
      wake(ints, FINISHED, SLEEPERS);
    }
  }
}
