/**
 * The hot loops of training (histogram building, leaf partitioning) and of prediction (tree walks) as
 * WebAssembly: bounds-check-free, branch-free where the branch is a coin flip. Their source is
 * kernels.wat beside this file (what each function computes is documented there); the build
 * (scripts/build-wasm.mjs) assembles it into the module kernels.wasm.js, whose bytes are compiled once here.
 * Why WebAssembly, measured when the kernels replaced the same loops in plain JS (bench/gbdt-speed.ts,
 * 40k rows × 30 features, 200 rounds): training CPU 4.2 s → 2.3 s; a 1,000-row batch of 200 trees
 * ~10 ms → ~5 ms. The kernels have been made faster since (bench:gbdt-speed prints today's figures).
 */
import kernelBytes from './kernels.wasm.js';

/** Rows score4 walks side by side; nRows passed to it must be a multiple (score1 takes any). */
export const SCORE_LANES = 4;

const PAGE_BYTES = 65536;
/** 4 GB: the most a 32-bit wasm memory can address (and what kernels.wat declares). */
const MAX_PAGES = 65536;
let compiled: WebAssembly.Module | null = null;

function kernelModule(): WebAssembly.Module {
  if (compiled) return compiled;
  compiled = new WebAssembly.Module(kernelBytes);
  return compiled;
}

/**
 * Features f0 .. f1-1 of the rows idx[begin .. end) into hist; codes row-major u8, pairs (gradient,
 * hessian) per row, binAt[f] the byte offset of f's first bin. The result means nothing (kernels.wat: the
 * bytes it touches ahead of use, returned so that their loads are kept).
 */
export type BuildFn = (
  hist: number, codes: number, idx: number, begin: number, end: number, pairs: number, nf: number, f0: number, f1: number, binAt: number,
) => number;
export type PartitionFn = (idx: number, begin: number, end: number, codes: number, table: number, tmp: number) => number;
/** The forest in its walk layout (walk-layout.ts); for score4, nRows a multiple of SCORE_LANES. */
export type ScoreFn = (
  x: number, nf: number, nRows: number, treeRoot: number, nTrees: number, nodes: number, value: number, catBits: number,
  out: number, k: number,
) => void;

/** The forest in its leaf-mask layout (leaf-mask-layout.ts), rows as bins (binColumn) and categorical bins. */
export type MaskScoreFn = (
  bins: number, vectors: number, nRows: number, trees: number, nTrees: number, value: number, cats: number,
  catBins: number, nCat: number, catBits: number, out: number, k: number,
) => void;
/** bins[r·stride] = the bin of the f64 col[r] among 2^steps sorted cuts (nanBin for NaN). */
export type BinColumnFn = (col: number, nRows: number, cuts: number, steps: number, bins: number, stride: number, nanBin: number) => void;

/** A wasm memory (the global WebAssembly typings are not in this project's lib). */
export type KernelMemory = WebAssembly.Memory;

/** The kernels over one wasm memory; every array they touch must be a view on `buffer`. */
export class Kernels {
  /** Histogram building from row-major one-byte bin codes. */
  readonly build8: BuildFn;
  readonly partition: PartitionFn;
  /** partition leaving the right part in tmp (kernels.wat). */
  readonly partitionApart: PartitionFn;
  /** Tree walks four rows at a time, and one at a time (for the rows left over). */
  readonly score4: ScoreFn;
  readonly score1: ScoreFn;
  /** Leaf masks: the exit leaves found by byte compares of pre-binned rows, without a walk. */
  readonly scoreMasks: MaskScoreFn;
  readonly binColumn: BinColumnFn;
  /** Zeroes n bytes from address at. */
  readonly clear: (at: number, n: number) => void;
  /** dst[i] −= src[i] for n float64s at byte addresses dst, src. */
  readonly subtract: (dst: number, src: number, n: number) => void;
  /** dst[i] += src[i] for n float64s at byte addresses dst, src. */
  readonly add: (dst: number, src: number, n: number) => void;
  private readonly memory: WebAssembly.Memory;

  /**
   * A fresh memory of at least `bytes`, growable; or with `fixed`, of exactly that many pages (a fit's
   * training memory, which helper threads attach to). Memories are shared (SharedArrayBuffer-backed)
   * either way, as the module's import declares one memory type for all uses.
   */
  constructor(bytes: number, fixed?: boolean);
  constructor(memory: WebAssembly.Memory);
  constructor(bytesOrMemory: number | WebAssembly.Memory, fixed = false) {
    if (typeof bytesOrMemory !== 'number') this.memory = bytesOrMemory;
    else {
      const n = pages(bytesOrMemory);
      this.memory = new WebAssembly.Memory({ initial: n, maximum: fixed ? n : MAX_PAGES, shared: true });
    }
    const { exports } = new WebAssembly.Instance(kernelModule(), { env: { memory: this.memory } });
    this.build8 = exports.build8 as BuildFn;
    this.partition = exports.partition as PartitionFn;
    this.partitionApart = exports.partitionApart as PartitionFn;
    this.score4 = exports.score4 as ScoreFn;
    this.score1 = exports.score1 as ScoreFn;
    this.scoreMasks = exports.scoreMasks as MaskScoreFn;
    this.binColumn = exports.binColumn as BinColumnFn;
    this.clear = exports.clear as (at: number, n: number) => void;
    this.subtract = exports.subtract as (dst: number, src: number, n: number) => void;
    this.add = exports.add as (dst: number, src: number, n: number) => void;
  }

  /** The memory itself (for a shared one: what helper threads attach to). */
  get wasmMemory(): WebAssembly.Memory {
    return this.memory;
  }

  /** The current memory; growing replaces it (contents kept), so views must be re-made after ensureBytes. */
  get buffer(): ArrayBufferLike {
    return this.memory.buffer;
  }

  ensureBytes(bytes: number): void {
    const have = this.memory.buffer.byteLength / PAGE_BYTES;
    const need = pages(bytes);
    if (need > have) this.memory.grow(need - have);
  }
}

function pages(bytes: number): number {
  const n = Math.max(1, Math.ceil(bytes / PAGE_BYTES));
  if (n > MAX_PAGES) throw new Error('GBDT: data too large for the 4 GB kernel memory');
  return n;
}

/** b rounded up to a multiple of 16: a 16-byte record or vector at such an address never straddles a cache line. */
export function align16(b: number): number {
  return Math.ceil(b / 16) * 16;
}

/**
 * A fresh kernel memory holding copies of the given arrays, each at a 16-byte aligned address (a
 * 16-byte record or vector never straddles a cache line): their addresses, and the first free byte after them.
 */
export function kernelsHolding<K extends string>(arrays: Record<K, ArrayBufferView>): { kernels: Kernels; at: Record<K, number>; end: number } {
  const entries = Object.entries(arrays) as [K, ArrayBufferView][];
  const kernels = new Kernels(entries.reduce((sum, [, a]) => sum + align16(a.byteLength), 0));
  const at = {} as Record<K, number>;
  let offset = 0;
  for (const [key, a] of entries) {
    new Uint8Array(kernels.buffer, offset, a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    at[key] = offset;
    offset += align16(a.byteLength);
  }
  return { kernels, at, end: offset };
}
