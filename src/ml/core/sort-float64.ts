/**
 * Ascending in-place sort of float64 values without NaN, in exactly the order Float64Array.prototype.sort
 * gives (−0 before +0), by a least-significant-digit radix sort on the values' bits: linear time. The
 * binners sort every training value (the GBDT: a sample of up to 200,000) of every numeric column once
 * per fit (core/binning.ts); with the comparison sort that was about a tenth of a 40k-row GBDT fit.
 * The sort runs in WebAssembly (sort-kernel.wat beside this file): with 64-bit keys in registers it takes
 * about two thirds of the CPU of the same sort in JS on two 32-bit words (30 sorts of 200k values).
 */
import kernelBytes from './sort-kernel.wasm.js';

/** Below this many values the comparison sort is as fast (the radix passes have fixed costs). */
const RADIX_MIN = 1024;
/** The kernel's digit counts: 6 passes × 2048 digits, i32. */
const COUNTS_BYTES = 6 * 2048 * 4;
const PAGE_BYTES = 65536;

/**
 * Sorts of up to this many values reuse one memory per thread (4 MB; the GBDT sorts samples of at most
 * 200,000): a fresh memory per sort cost its page faults, ~50 ms of system CPU per 400k × 30 fit.
 * Larger sorts (the forests bin whole columns) get a memory of their own, freed after.
 */
const KEPT_VALUES = 1 << 18;

let compiled: WebAssembly.Module | null = null;
let kept: { memory: WebAssembly.Memory; sort: SortFn } | null = null;

type SortFn = (values: number, tmp: number, n: number, counts: number) => number;

function sorter(n: number): { memory: WebAssembly.Memory; sort: SortFn } {
  if (n <= KEPT_VALUES && kept) return kept;
  compiled ??= new WebAssembly.Module(kernelBytes);
  const memory = new WebAssembly.Memory({ initial: Math.ceil((COUNTS_BYTES + 16 * Math.max(n, KEPT_VALUES)) / PAGE_BYTES) });
  const { exports } = new WebAssembly.Instance(compiled, { env: { memory } });
  const made = { memory, sort: exports.sort as SortFn };
  if (n <= KEPT_VALUES) kept = made;
  return made;
}

export function sortFloat64(values: Float64Array): Float64Array {
  const n = values.length;
  if (n < RADIX_MIN) return values.sort();
  const { memory, sort } = sorter(n);
  const valuesAt = COUNTS_BYTES;
  const tmpAt = valuesAt + 8 * n;
  // The kernel counts digits into zeroed counts.
  new Int32Array(memory.buffer, 0, COUNTS_BYTES / 4).fill(0);
  new Float64Array(memory.buffer, valuesAt, n).set(values);
  values.set(new Float64Array(memory.buffer, sort(valuesAt, tmpAt, n, 0), n));
  return values;
}
