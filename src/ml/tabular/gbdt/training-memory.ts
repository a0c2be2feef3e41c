/**
 * The arrays the wasm kernels (wasm-kernels.ts) work on, carved out of one fixed wasm memory once
 * per fit: the histogram pool (one per leaf), the (gradient, hessian) pairs of every class, the leaf
 * partition's row indices and scratch, the training rows' bin codes both column-major (for
 * partitioning) and row-major (for histogram building, with each feature's offset in a histogram), a
 * bin → side table and the feature team's control block, and the rows' scores, targets and weights. Helper threads attach to
 * this (shared) memory through its plan and build their features' share of the same histograms in
 * place, and their row ranges of the row work (row-work.ts). A fit that grows several trees of a round
 * at once (one per thread, feature-team.ts) has one tree lane per thread: its own histogram pool,
 * partition indices, scratch and side table; lane 0 is the arrays above.
 */
import type { BinnedRows, FeatureLayout } from './binned-data.js';
import { HIST_STRIDE } from './histogram.js';
import { type BuildFn, Kernels, type PartitionFn, align16 } from './wasm-kernels.js';

/** Where the fit's arrays sit in the memory: what a helper thread needs to attach. */
export interface HistogramPlan {
  nRows: number;
  nFeatures: number;
  binOffset: Int32Array;
  poolAt: number;
  poolSize: number;
  /** MAX_CHUNKS − 1 histograms: a leaf's row chunks after the first, before they are added to its slot. */
  partialAt: number;
  /** Per pool slot, one byte per feature: 1 while the feature may still split the slot's leaf (HistogramBuilder.splittable). */
  splittableAt: number;
  /** Row-major bin codes (nFeatures bytes per row), and per feature the byte offset of its first bin in a histogram (i32). */
  rowCodesAt: number;
  binAtAt: number;
  indicesAt: number;
  /** For row-range work (row-work.ts): partition scratch, column-major codes, bin → side table. */
  scratchAt: number;
  codesAt: number;
  sideAt: number;
  /** Raw scores and (gradient, hessian) pairs (numScores × nRows, class-major), targets and weights (−1: none). */
  numScores: number;
  scoresAt: number;
  pairsAt: number;
  yAt: number;
  weightsAt: number;
  /** The round's bag (row indices of the training rows), written by the main thread for every lane. */
  bagAt: number;
  /** Tree lanes: lanes[0] is poolAt, indicesAt, scratchAt, sideAt above. */
  lanes: LanePlan[];
}

/** Where one tree lane's arrays sit. */
export interface LanePlan {
  poolAt: number;
  partialAt: number;
  splittableAt: number;
  indicesAt: number;
  scratchAt: number;
  sideAt: number;
}

/** The plan as seen by a thread growing trees on lane t: its pool, indices, scratch and side table. */
export function lanePlan(plan: HistogramPlan, t: number): HistogramPlan {
  return { ...plan, ...plan.lanes[t] };
}

/**
 * Row chunks of one histogram at most. A leaf's histogram is the sum, in chunk order, of its rows'
 * histograms in chunks of consecutive rows; the chunks depend on the leaf's row count and the data's
 * shape only (HistogramBuilder.chunks), never on the threads, so that threads can build different
 * chunks of one histogram over all features (each row read once) and the sums stay those of one thread.
 */
export const MAX_CHUNKS = 4;
/**
 * A chunk has at least this many cells (rows × features) per histogram bin: adding a chunk to the
 * histogram (and clearing it first) costs two passes over the bins, a few percent of building it then
 * (one thread, synthetic 40k × 30: 2 chunks of 4,000 rows cost what one pass does, 4 of 1,000 +30 %).
 */
const CHUNK_CELLS_PER_BIN = 16;
const MIN_CHUNK_ROWS = 1024;

/** Chunk k's first row of begin .. end cut into `chunks` (k = chunks: end). */
export function chunkCut(begin: number, end: number, k: number, chunks: number): number {
  return begin + Math.floor(((end - begin) * k) / chunks);
}

/** The histogram pool and the kernel that fills it, on one (possibly shared) memory. */
export class HistogramBuilder {
  readonly pool: Float64Array[];
  /**
   * Per pool slot, per feature: 0 once the feature had no split of positive gain in the slot's leaf or
   * an ancestor; such a feature cannot split the leaf's descendants either, in LightGBM's rule
   * (is_splittable), and their histograms skip it.
   */
  readonly splittable: Uint8Array[];
  /** Row chunks 1 .. MAX_CHUNKS − 1 of the histogram being built (chunk 0 goes straight into its slot). */
  readonly partials: Float64Array[];
  private readonly chunkRows: number;
  private readonly addKernel: (dst: number, src: number, n: number) => void;
  private readonly kernel: BuildFn;
  private readonly clear: (at: number, n: number) => void;
  private readonly subtractKernel: (dst: number, src: number, n: number) => void;
  private readonly indicesAt: number;

  constructor(kernels: Kernels, readonly plan: HistogramPlan) {
    const histLength = plan.binOffset[plan.nFeatures] * HIST_STRIDE;
    this.pool = Array.from({ length: plan.poolSize }, (_, i) => new Float64Array(kernels.buffer, plan.poolAt + i * histLength * 8, histLength));
    this.splittable = Array.from({ length: plan.poolSize }, (_, i) => new Uint8Array(kernels.buffer, plan.splittableAt + i * plan.nFeatures, plan.nFeatures));
    this.partials = Array.from({ length: MAX_CHUNKS - 1 }, (_, i) => new Float64Array(kernels.buffer, plan.partialAt + i * histLength * 8, histLength));
    const totalBins = plan.binOffset[plan.nFeatures];
    this.chunkRows = Math.max(MIN_CHUNK_ROWS, Math.ceil((CHUNK_CELLS_PER_BIN * totalBins) / plan.nFeatures));
    this.addKernel = kernels.add;
    this.kernel = kernels.build8;
    this.clear = kernels.clear;
    this.subtractKernel = kernels.subtract;
    this.indicesAt = plan.indicesAt;
  }

  /**
   * pool[parent] −= pool[child] over the given features (ascending) with splittable[f] = 1: the
   * sibling's histogram without touching its rows. Runs of neighbouring features go to the kernel as
   * one stretch of bins.
   */
  subtract(parent: number, child: number, features: Int32Array, splittable: Uint8Array): void {
    this.forRuns(features, splittable, this.pool[parent].byteOffset, this.pool[child].byteOffset, this.subtractKernel);
  }

  /**
   * Row chunks of a histogram of `rows` rows (1: built in one pass): 1, 2 or 4, so that two threads
   * (the machine's cores) get equal shares of them.
   */
  chunks(rows: number): number {
    let k = 1;
    while (k < MAX_CHUNKS && rows >= 2 * k * this.chunkRows) k *= 2;
    return k;
  }

  /**
   * Chunk k of `chunks` of the histogram of rows indices[begin .. end), features f0 .. f1-1: chunk 0
   * into pool[slot], chunk k > 0 into partials[k − 1] (addChunks then sums them into the slot).
   */
  buildChunk(slot: number, k: number, chunks: number, begin: number, end: number, pairsAt: number, f0: number, f1: number): void {
    const { binOffset, nFeatures } = this.plan;
    const hist = k === 0 ? this.pool[slot] : this.partials[k - 1];
    this.clear(hist.byteOffset + binOffset[f0] * HIST_STRIDE * 8, (binOffset[f1] - binOffset[f0]) * HIST_STRIDE * 8);
    const from = chunkCut(begin, end, k, chunks);
    const to = chunkCut(begin, end, k + 1, chunks);
    this.kernel(hist.byteOffset, this.plan.rowCodesAt, this.indicesAt, from, to, pairsAt, nFeatures, f0, f1, this.plan.binAtAt);
  }

  /**
   * pool[slot] += partials[0], then += partials[1], … (chunks 1 .. chunks − 1 in order) over the given
   * features (ascending) with splittable[f] = 1; the others' bins are never read again.
   */
  addChunks(slot: number, chunks: number, features: Int32Array, splittable: Uint8Array): void {
    const to = this.pool[slot].byteOffset;
    for (let k = 1; k < chunks; k++) this.forRuns(features, splittable, to, this.partials[k - 1].byteOffset, this.addKernel);
  }

  /** kernel(dst + at, src + at, n) over each run of neighbouring features with splittable[f] = 1. */
  private forRuns(features: Int32Array, splittable: Uint8Array, dst: number, src: number, kernel: (dst: number, src: number, n: number) => void): void {
    const binOffset = this.plan.binOffset;
    for (let i = 0; i < features.length; ) {
      const f = features[i++];
      if (splittable[f] === 0) continue;
      let last = f;
      while (i < features.length && features[i] === last + 1 && splittable[features[i]] === 1) last = features[i++];
      const at = binOffset[f] * HIST_STRIDE * 8;
      kernel(dst + at, src + at, (binOffset[last + 1] - binOffset[f]) * HIST_STRIDE);
    }
  }

  /**
   * Features f0 .. f1-1 of pool[slot] = their histogram over the rows indices[begin .. end) for the
   * (gradient, hessian) pairs at byte address pairsAt (one class's slice of the memory's pairs).
   * Other features' bins are left alone, so threads may fill disjoint feature ranges of one histogram.
   */
  build(slot: number, begin: number, end: number, pairsAt: number, f0: number, f1: number): void {
    const { binOffset, nFeatures } = this.plan;
    const hist = this.pool[slot];
    this.clear(hist.byteOffset + binOffset[f0] * HIST_STRIDE * 8, (binOffset[f1] - binOffset[f0]) * HIST_STRIDE * 8);
    this.kernel(hist.byteOffset, this.plan.rowCodesAt, this.indicesAt, begin, end, pairsAt, nFeatures, f0, f1, this.plan.binAtAt);
  }
}

export class TrainingMemory {
  readonly histograms: HistogramBuilder;
  /**
   * Class-major (gradient, hessian) pairs: class c of row r at 2(c·nRows + r) and the next index, so
   * that histogram building reads a row's pair with one 16-byte load (one cache line, not two).
   */
  readonly pairs: Float64Array;
  /** Raw scores of the training rows (class-major), their targets and weights (null: unweighted). */
  readonly scores: Float64Array;
  readonly y: Float64Array;
  readonly weights: Float64Array | null;
  readonly indices: Int32Array;
  /** The current bag, for lanes of other threads (bagAt in the plan). */
  readonly bag: Int32Array;
  /** Byte address and size of the feature team's control block (feature-team.ts). */
  readonly teamAt: number;
  readonly kernels: Kernels;
  private readonly scratch: Int32Array;
  private readonly codes: Uint8Array;
  private readonly sideOfBin: Uint8Array;
  private readonly partitionKernel: PartitionFn;
  private readonly nRows: number;

  /** teamBytes: room for the feature team's control block; weighted: room for row weights; lanes: tree lanes (default 1). */
  constructor(
    layout: FeatureLayout, data: BinnedRows, numScores: number, poolSize: number, opts: { teamBytes?: number; weighted?: boolean; lanes?: number } = {},
  ) {
    const n = data.nRows;
    const nf = layout.bins.length;
    const totalBins = layout.binOffset[nf];
    const histBytes = totalBins * HIST_STRIDE * 8;
    const sizes = {
      pool: histBytes * poolSize,
      partials: histBytes * (MAX_CHUNKS - 1),
      splittable: align16(nf * poolSize),
      pairs: numScores * n * 16,
      scores: align16(numScores * n * 8),
      y: align16(n * 8),
      weights: align16(opts.weighted ? n * 8 : 0),
      indices: align16(n * 4),
      scratch: align16(n * 4),
      codes: align16(n * nf),
      rowCodes: align16(n * nf),
      binAt: align16(nf * 4),
      sideOfBin: 256,
      team: align16(opts.teamBytes ?? 0),
      bag: align16(n * 4),
      /** Lanes beyond the first: pool, splittable flags, indices, scratch, side table each. */
      lanes: ((opts.lanes ?? 1) - 1) * (histBytes * (poolSize + MAX_CHUNKS - 1) + align16(nf * poolSize) + 2 * align16(n * 4) + 256),
    };
    const kernels = new Kernels(Object.values(sizes).reduce((a, b) => a + b, 0), true);
    const buffer = kernels.buffer;
    let at = 0;
    const carve = (bytes: number) => {
      const offset = at;
      at += bytes;
      return offset;
    };
    const poolAt = carve(sizes.pool);
    const partialAt = carve(sizes.partials);
    const splittableAt = carve(sizes.splittable);
    this.pairs = new Float64Array(buffer, carve(sizes.pairs), 2 * numScores * n);
    this.scores = new Float64Array(buffer, carve(sizes.scores), numScores * n);
    this.y = new Float64Array(buffer, carve(sizes.y), n);
    const weightsAt = carve(sizes.weights);
    this.weights = opts.weighted ? new Float64Array(buffer, weightsAt, n) : null;
    this.indices = new Int32Array(buffer, carve(sizes.indices), n);
    this.scratch = new Int32Array(buffer, carve(sizes.scratch), n);
    this.codes = new Uint8Array(buffer, carve(sizes.codes), n * nf);
    const rowCodes = new Uint8Array(buffer, carve(sizes.rowCodes), n * nf);
    const binAt = new Int32Array(buffer, carve(sizes.binAt), nf);
    this.sideOfBin = new Uint8Array(buffer, carve(sizes.sideOfBin), 256);
    this.teamAt = carve(sizes.team);
    this.bag = new Int32Array(buffer, carve(sizes.bag), n);
    const lanes: LanePlan[] = [{ poolAt, partialAt, splittableAt, indicesAt: this.indices.byteOffset, scratchAt: this.scratch.byteOffset, sideAt: this.sideOfBin.byteOffset }];
    for (let t = 1; t < (opts.lanes ?? 1); t++) {
      lanes.push({ poolAt: carve(histBytes * poolSize), partialAt: carve(histBytes * (MAX_CHUNKS - 1)), splittableAt: carve(align16(nf * poolSize)), indicesAt: carve(align16(n * 4)), scratchAt: carve(align16(n * 4)), sideAt: carve(256) });
    }
    this.codes.set(data.codes);
    for (let f = 0; f < nf; f++) {
      binAt[f] = layout.binOffset[f] * HIST_STRIDE * 8;
      const base = f * n;
      for (let r = 0; r < n; r++) rowCodes[r * nf + f] = data.codes[base + r];
    }
    this.kernels = kernels;
    this.histograms = new HistogramBuilder(kernels, {
      nRows: n, nFeatures: nf, binOffset: layout.binOffset, poolAt, poolSize, partialAt, splittableAt, rowCodesAt: rowCodes.byteOffset, binAtAt: binAt.byteOffset, indicesAt: this.indices.byteOffset,
      scratchAt: this.scratch.byteOffset, codesAt: this.codes.byteOffset, sideAt: this.sideOfBin.byteOffset,
      numScores, scoresAt: this.scores.byteOffset, pairsAt: this.pairs.byteOffset, yAt: this.y.byteOffset,
      weightsAt: this.weights ? weightsAt : -1, bagAt: this.bag.byteOffset, lanes,
    });
    this.partitionKernel = kernels.partition;
    this.nRows = n;
  }

  get pool(): Float64Array[] {
    return this.histograms.pool;
  }

  /**
   * hist (a pool member) = histogram over all features of the rows indices[begin .. begin+count),
   * for one class's slice of this memory's (gradient, hessian) pairs.
   */
  buildHistogram(hist: Float64Array, begin: number, count: number, pairs: Float64Array): void {
    const slot = this.pool.indexOf(hist);
    if (slot < 0) throw new Error('GBDT: not a histogram of this memory');
    this.histograms.build(slot, begin, begin + count, pairs.byteOffset, 0, this.histograms.plan.nFeatures);
  }

  /** Sets the bin → side table for a partition on feature f; returns the byte address of f's codes. */
  sideTable(f: number, goesLeft: Uint8Array): number {
    this.sideOfBin.set(goesLeft);
    return this.codesAt(f);
  }

  codesAt(f: number): number {
    return this.codes.byteOffset + f * this.nRows;
  }

  /**
   * Stable in-place partition of indices[begin .. end) on feature f: rows whose bin has goesLeft[bin] = 1
   * first. Returns the end of the left part.
   */
  partition(begin: number, end: number, f: number, goesLeft: Uint8Array): number {
    this.sideOfBin.set(goesLeft);
    const codes = this.codes.byteOffset + f * this.nRows;
    return this.partitionKernel(this.indices.byteOffset, begin, end, codes, this.sideOfBin.byteOffset, this.scratch.byteOffset);
  }
}
