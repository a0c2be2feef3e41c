/**
 * TreeSHAP's leaf-by-leaf row loops (tree-shap.ts) run in WebAssembly: tree-shap-kernel.wat, assembled
 * by scripts/build-wasm.mjs. tree-shap.ts summarises a tree (its TreePlan: preorder, leaves' path
 * features, where each Ψ table goes; all independent of the rows); this module copies that summary
 * into the kernel's memory as compact records (splits and leaves in two lists, a split's left child
 * numbered next to it, leaves whose values are all 0 left out), has the kernel fill the Ψ tables there
 * ($psiTable, f64x2 lanes: ~3× faster than psi-table.ts), adds each untabulated leaf's quadrature
 * factors, and lets the kernel take every row through it. Its contributions collect in the kernel's
 * memory and are moved to the caller's after each run of trees (moveTo: a tree part's values, or all
 * trees'), so one kernel, with the rows copied in once, serves every part of a call. Same results as
 * the JS loops to rounding (GBDTs: the same bits as the kernel before; one-output forests, whose tables
 * now carry the leaf value as GBDT tables do, differ by ≤ 4·10⁻¹⁶ of the largest contribution).
 *
 * Rows go through the kernel two at a time, one per f64x2 / i64x2 lane (tree-shap-kernel.wat): the
 * forward and backward passes decode a split once for both rows and do each step as one SIMD operation,
 * and take two such pairs per split record (a node's masks and sums: both pairs' side by side); the
 * leaves take one pair at a time, the rows one after the other where their hot sets differ. Its
 * contributions are kept row pair by row pair (output, feature, then the two rows) and moveTo puts them
 * back row by row; an odd last row goes with a row of zeros, an odd last pair with a pair of zero rows,
 * whose contributions are dropped.
 *
 * Where a 1,000-record batch's CPU goes, credit forest (callgrind instruction counts of 100 rows
 * planned for 1,000, and --cpu-prof): the one big kernel function of before spilled its locals to the
 * stack, 56 instructions per split and row forward and 50 backward; as small functions, one row at a
 * time, 37 and 35; two rows in lanes, ~17 and ~16 a row. Filling the Ψ tables went from 83 to ~30
 * instructions an entry (loops specialised per lane count). The whole explanation of 1,000 records:
 * 37.1·10⁹ instructions before, 19.2·10⁹ now, but ~2/3 of the CPU time, not 1/2. What is left is the
 * leaves (~60 % of the CPU time, about half of the instructions): ~16 instructions a hot term and, per row and leaf, a
 * mispredicted exit of the hot-term loop (callgrind's branch simulation: ~1 per leaf and row) and a
 * Ψ table read that misses L1 (a tree's tables are ~1 MB; reading every table within its first 8
 * entries instead, wrong numbers, saves ~20 % of the time at load 3.5).
 *
 * Twin leaves (tree-shap-kernel.wat $twins1): in a one-output forest tree, a split whose children are
 * both leaves with a value and a Ψ table (fully grown regression trees: 2/3 of the concrete forest's
 * leaves) is one record in place of three nodes, with tables combining both leaves' (their paths differ
 * only in that split, so a hot slot's two terms are one look-up): concrete forest, 1,000 records,
 * 17.2·10⁹ → 14.8·10⁹ instructions (callgrind, explanation alone), CPU −15 % back to back (load 4–7);
 * results differ by ≤ 2·10⁻¹⁵ of the largest contribution (the two leaves' terms added before, not
 * after, they reach the contributions). GBDT trees keep their bits: they are left as they were.
 *
 * Tried and left out, all slower or no better: (1) per-leaf contribution tables (v2 taken to whole
 * vectors: for every hot set the leaf's hot and cold terms over all features, so a leaf adds one
 * f64x2 vector per row and a tree whose leaves all have one skips the backward pass): ~10 % less CPU
 * on the concrete forest (8 features), ~2–5 % on the credit and vehicle forests, 9–15 % more on the
 * letter and vehicle GBDTs (16–18 features: the tables are 2^d × features f64, GBs written per batch,
 * and a row's vector costs more than its few hot terms); (2) a hot-term loop over all d slots with a
 * select instead of over the set bits (no loop exit to mispredict): ~50 % more CPU; (3) two rows at a
 * time through the forward pass of the old single function, scalar (commit a2ee6dd, reverted): within
 * the noise; (4) both rows of a pair in one hot-term loop over the slots hot in either (one loop exit
 * per leaf, not two; lanes masked): bit-identical, −5 % instructions at 1,000 records but +9 % in
 * leaves1 at 300, and no faster back to back (credit forest 1737/1725 vs 1692/1725 ms): V8 compiles
 * it to ~28 instructions a slot against ~13 a hot term of the 4×-unrolled scalar loop; (5) a leaf whose
 * sibling holds only zeros (57 % of the credit forest's live leaves) taken with its split, as twins
 * are: −5 % instructions (credit forest 20.9 → 19.8·10⁹) but 6–12 % more CPU back to back (a branch
 * for V8's f64 select, and still slower without it). Table memory: every table read within its first 8
 * entries (wrong numbers) now saves only 7–8 % of the credit forest's CPU (load ~5), the bound on
 * any table layout or blocking.
 *
 * Packed hot sets (tree-shap-kernel.wat $packed1, $twins1): the hot sets of consecutive leaves of a
 * one-output tree (GBDT or forest) whose visited leaves all have a table, and of its twin records,
 * are packed into one 64-bit word per row while their d add up to at most 64 (credit forest: d ≈ 8,
 * ~7 leaves a word); a per-tree bit table gives each bit's feature, (1 − z)/z and leaf (table,
 * first bit, slots), so a row pays one hot-term loop exit per word, not per leaf. The terms reach
 * each contribution in the same order: the same bits on every model of bench:explanations (credit,
 * concrete and vehicle forests; credit, concrete, vehicle and letter GBDTs). Credit forest, 1,000
 * records, callgrind with branch simulation (explanation alone): mispredicted conditional branches
 * 98.6 → 28.6·10⁶, instructions 17.8 → 19.8·10⁹ (a term costs more: its leaf's fields come from the
 * bit table); concrete forest 14.9 → 18.3·10⁹ instructions. CPU ms per 1,000 records (best of 3, a
 * small driver, load 2–4.7): credit forest 1264 → 945, concrete forest 1052 → 861 (of which the
 * twins: 890/894/891 → 827/840/835, three back-to-back alternations at load ~4.9), letter GBDT
 * 964 → 665; the vehicle forest's vector leaves ($leavesK) keep their loop. Trees with a leaf
 * without a table (few rows, wide paths) keep $leaves1. Tried with it and left out (credit forest,
 * callgrind of the whole driver run, 1,000 records; CPU ms best of 3, three back-to-back
 * alternations, load 2–3.7): (6) each leaf's hot sets kept in a scratch array, a term's index their
 * xor with its slot's bit instead of shifting and masking the word: 21.2 → 20.7·10⁹ instructions
 * but CPU 1043/988/1019 → 1109/1043/1037 (a store more per leaf and row); (7) the forward pass
 * without NaN checks ($forward) for row pairs without a missing value (91 % of the credit batch's):
 * 21.2 → 21.8·10⁹ instructions (within callgrind's run-to-run spread), CPU 1159/1094/981 →
 * 1126/1035/1106, no gain to measure. The bit table (32 bytes a bit, ~64 kB a credit forest tree)
 * is not worth compacting: every read of it within its first 8 entries (wrong numbers) gave CPU
 * 1015/932/953 against 1029/1025/934 (load 2–3). Not done then: the same words for vector leaves
 * ($leavesK: forests with three classes or more, e.g. vehicle; a pure leaf has one live output);
 * done since by class views (below).
 *
 * Vector leaves as class views (classViews, tree-shap-kernel.wat $rowsViews): a forest of three
 * classes or more has trees whose leaves hold every class's share; $leavesK wrote all kk sums of a
 * leaf for every row and $backwardK added and subtracted kk sums at every split, though a fully
 * grown tree's leaves are pure (letter forest, 300 trees, 25 outputs after the class left out by
 * difference: 578,890 leaves with one output other than 0, 33,390 with none, none with two).
 * Where the letter forest's CPU went (--cpu-prof, 200 records, one run): $leavesK 60 %, $backwardK
 * 15 %, quadrature 9 %, Ψ tables 3 %. Now each output is a one-output view of the tree — its leaves
 * other than 0, tables carrying the value, through $packed1 when all have a table, else $leaves1,
 * and the splits above them through $backward1 — after one forward pass for all views. The
 * views' splits add up to 2.61·10⁶ against 0.61·10⁶ splits × 25 (vehicle forest: 53,623 against
 * 32,725 × 3). pathWork (tree-shap.ts) charges what this does: letter forest 46.8 → 20.0·10⁶ steps a
 * record (21 → 49 records a request), vehicle forest 404,306 → 326,429 (2,473 → 3,063). CPU ms per
 * 1,000 records (a small driver, one run each for letter, best of 3 for vehicle; main and branch
 * alternating under the quiet lock): letter forest main 103,245 (load 5.5) / 138,594 (5.2) /
 * 129,305 (2.6) against 40,542 (5.0) / 46,600 (1.6); vehicle forest main 466 / 464 / 541 against
 * 283 / 421; wall ms on two scoring threads, letter forest 120,056 → 21,260, vehicle forest 297 →
 * 212 (load 2.2–3.9). What is left of the letter forest's time is its leaves: at 200
 * records $leaves1 45 % and the quadrature 16 % (paths through up to all 16 features, so the
 * widest leaves are not tabulated even for 1,000 rows), $backward1 8 %. Results differ from
 * $leavesK's by rounding only (a table times the value, not Ψ times it per row): at 1,000 records
 * ≤ 2.8·10⁻¹⁶ of the largest contribution on the letter forest, 1.6·10⁻¹⁶ on the vehicle forest.
 * Tried and left out: each view's leaves split, those with a table through $packed1 and the rest
 * through $leaves1 (a view with one leaf too wide to tabulate takes $leaves1 whole): letter forest
 * 46,862 / 51,264 (load 2.3) against 40,542 / 46,600 whole, no gain; why not was not measured.
 *
 * Then (letter forest, 1,000 records, main → branch alternating under the quiet lock, load 1.1–1.9):
 * the views laid out from one bottom-up pass of class bit sets (class-views.ts; was a pass over the
 * tree per class), $quadrature's products in v128 locals (same bits), and fewer tables for trees with
 * vector leaves whose tables pass 4 MB (tree-shap.ts VECTOR_TABLE_BYTES): CPU ms 41,183 / 40,906 →
 * 24,197 / 25,872, wall on two scoring threads 21,374 → 12,378; vehicle forest (same plan and bits
 * as main) CPU 488 / 651 → 433 / 579, wall 218 → 221. At 1,000 records the letter forest's time was
 * $packed1 64 %, $leaves1 16 %, $backward1 9 % (--cpu-prof), not the quadrature of the 200-record
 * profile: at 1,000 rows only 2,298 of its 578,890 view leaves lacked a table. Its tables (33 MB a
 * tree) missed the caches on nearly every read; with fewer tables the quadrature takes more leaves.
 * Tried and left out: (1) row pairs in blocks, each view's leaves run for all pairs of a block before
 * the next view (B = 8 or 32 twos of pairs), and then each group of packed leaves for all pairs of
 * the block before the next group (its tables read for 16–64 row pairs at once; sums per block,
 * shared by the views, left-out children zeroed per view in the kernel): the same bits, but letter
 * forest 24,977 / 24,976 against 23,452 / 24,323 unblocked with the fewer tables, and within the
 * noise before them (each table entry is read about twice a batch, so a block's reads still miss);
 * (2) fewer tables for every vector-leaf tree (64× rule): vehicle forest ~10 % slower (its tables,
 * 0.2 MB a tree, stay in cache).
 *
 * After the packed words, where the instructions went (callgrind, 1,000 records, explanation alone;
 * the JIT code's functions told apart by their wasm jump-table slot): credit forest 19.33·10⁹ —
 * $packed1 11.28 (of which the hot terms ~25 instructions each, ~4.3 a leaf and row, 8.7·10⁹; per
 * leaf and row pair 39 + 4), forward 2.91, backward 2.66, $fill3 0.98; concrete forest 17.89·10⁹ —
 * $twins1 9.07 (159 + 16 instructions per twin record and row pair outside its terms, 32–37 a term),
 * $packed1 4.15, backward 1.56, forward 1.46. CPU shares before the packed words (passes skipped,
 * wrong numbers; credit forest 1252 ms): leaves ~70 %, forward and backward ~21 %, Ψ tables and the
 * plans ~7 %. Changed, all the same bits on every bench:explanations model: (a) twin records in both
 * lanes at once and their terms in $packed1's form (state h | r << 1 | Q << 2 indexes C and F by the
 * same shift and mask, no table addresses per row in scratch): 69 + 5 instructions a record and pair,
 * 24–28 a term; concrete forest CPU 817/825 → 684/685 ms (load 0.6–0.8); (b) $packed1's leaf in
 * i64x2 lanes: 31 + 5 a leaf and pair; (c) the forward and backward passes two row pairs per record:
 * per split and four rows 70 → 56 instructions forward (credit forest, NaN checks), 64 → 50 backward.
 * All three: callgrind credit forest 19.33 → 17.93·10⁹, concrete 17.89 → 13.44·10⁹; CPU ms against
 * main, two back-to-back alternations (load 1.2–1.3): credit forest 994/985 → 888/893, concrete
 * 825/824 → 646/642, vehicle 349/344 → 336/340; GBDTs within the noise (letter 684/719 → 646/645,
 * vehicle 100/99 → 98/92, credit 23/23 → 24/22). Measured and left alone: (8) a path for leaves whose
 * hot set is empty or full: of a credit forest leaf's rows 0.9 % empty, 0.1 % full (|S| 4.3 of d 8.3
 * on average), of a concrete forest leaf's 7.2 % and 0.2 % (2.3 of 5.8); (9) leaf values shifted by
 * a constant per tree (Shapley values of a constant are 0) so that the most frequent value is 0 and
 * its leaves are skipped: the credit forest's most frequent value is 0 already (86,483 of 166,410
 * leaves; the mode 86,534), the concrete forest's (regression) at 902 leaves; (10) a term's index
 * times 8 as ((W xor 2^p) rotr (first − 3)) & (low << 3), one shift less in the source: the same
 * instruction counts (V8 already folds the ·8 into the load's address). Not tried: four rows
 * per mask vector (i32x4; the leaves four lanes), by the counts above ~30 % off the forward and
 * backward passes' remaining instructions at most.
 */
import kernelBytes from './tree-shap-kernel.wasm.js';
import type { SplitRows } from './tree-shap.js';
import { GAUSS_NODES, GAUSS_WEIGHTS } from './psi-table.js';
import { ClassViews } from './class-views.js';

type PsiTableFn = (zero: number, d: number, scale: number, out: number, p: number, ratio: number, nodes: number, weights: number, n2: number) => void;

type RowsFn = (
  x: number, nc: number, pairs: number, missing: number, splits: number, ns: number, catBits: number, categorical: number,
  leaves: number, nl: number, values: number, mask: number, sum: number, w: number, g: number, shapley: number,
  zeroDelta: number, phi: number, pairStride: number, twins: number, nt: number, bits: number,
  twinBits: number,
) => void;

type RowsViewsFn = (
  x: number, nc: number, pairs: number, missing: number, splits: number, ns: number, catBits: number, categorical: number,
  views: number, nv: number, mask: number, w: number, g: number, shapley: number, zeroDelta: number, phi: number, pairStride: number,
) => void;

/** What the kernel reads of a tree's summary (tree-shap.ts TreePlan). */
export interface KernelTree {
  nodes: number;
  leaves: number;
  order: Int32Array;
  leftAt: Int32Array;
  rightAt: Int32Array;
  slotAt: Int32Array;
  columnAt: Int32Array;
  leafSlots: Int32Array;
  leafAt: Int32Array;
  tableAt: Int32Array;
  leafScalar: Float64Array;
  leafNode: Int32Array;
  leafZero: Uint8Array;
  feature: Int32Array;
  zero: Float64Array;
  hotScale: Float64Array;
  used: number;
  table: Float64Array;
  tableUsed: number;
  only: number;
  ensemble: 'forest' | 'boosted';
}

const PAGE = 65536;
let compiled: WebAssembly.Module | null = null;

function align(n: number): number {
  return (n + 15) & ~15;
}

/**
 * One 32-byte entry of a bit table (tree-shap-kernel.wat $packed1, $twins1) at i32 index e: the term's
 * (1 − z)/z, its table's address, its feature's byte offset, the first bit of its leaf in the word and
 * the mask of the leaf's bits there.
 */
function writeBitEntry(f64: Float64Array, i32: Int32Array, e: number, hot: number, table: number, featureAt: number, first: number, mask: number): void {
  f64[e >> 1] = hot;
  i32[e + 2] = table;
  i32[e + 3] = featureAt;
  i32[e + 4] = first;
  i32[e + 5] = 0;
  i32[e + 6] = mask;
  i32[e + 7] = 0;
}

/** One explanation's kernel: an instance with its own memory holding the rows, the contributions and one tree at a time. */
export class WasmTreeShap {
  private readonly memory: WebAssembly.Memory;
  private readonly rowsFn: RowsFn;
  private readonly rowsViewsFn: RowsViewsFn;
  private readonly psiTableFn: PsiTableFn;
  /** Byte address of the Gauss–Legendre nodes and weights/(1 − t) for q points (q = 1..16), ⌈q/2⌉ f64x2 each, padded with t = 0 and weight 0. */
  private readonly gaussAt: number[] = [];
  private readonly shapley = 0;
  private readonly w = 32 * 32 * 8;
  private readonly g = this.w + 32 * 8;
  private readonly x: number;
  private readonly phi: number;
  private readonly catBits: number;
  private readonly treeAt: number;
  private readonly phiLength: number;
  /** Row pairs (an odd last row goes with a row of zeros whose contributions are dropped). */
  private readonly pairs: number;
  /** Whether the rows hold missing values (NaN): the kernel's forward pass then checks for them. */
  private readonly missing: number;

  constructor(private readonly rows: SplitRows, private readonly outputs: number, private readonly nFeatures: number, shapley: Float64Array) {
    compiled ??= new WebAssembly.Module(kernelBytes);
    const instance = new WebAssembly.Instance(compiled, {});
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.rowsFn = instance.exports.rows as RowsFn;
    this.rowsViewsFn = instance.exports.rowsViews as RowsViewsFn;
    this.psiTableFn = instance.exports.psiTable as PsiTableFn;
    let at = align(this.g + 34 * 8);
    const gauss: number[] = [];
    for (let q = 1; q <= 16; q++) {
      const t = GAUSS_NODES[q - 1]!;
      const w = GAUSS_WEIGHTS[q - 1]!;
      const width = (q + 1) & ~1;
      this.gaussAt.push(at);
      for (let i = 0; i < width; i++) gauss.push(i < q ? t[i]! : 0);
      for (let i = 0; i < width; i++) gauss.push(i < q ? w[i]! / (1 - t[i]!) : 0);
      at += 16 * width;
    }
    const gaussStart = this.gaussAt[0]!;
    this.x = align(at);
    // Pairs go through the kernel two at a time: an odd last pair goes with a pair of zero rows.
    this.pairs = 2 * ((rows.nRows + 3) >> 2);
    // The kernel's contributions: row pair by row pair, output, feature, then the pair's two rows (f64x2 lanes).
    this.phiLength = 2 * this.pairs * outputs * nFeatures;
    this.phi = align(this.x + 2 * this.pairs * rows.columns * 8);
    this.catBits = align(this.phi + this.phiLength * 8);
    this.treeAt = align(this.catBits + (rows.catBits ? rows.catBits.length * 4 : 0));
    this.ensure(this.treeAt);
    const buffer = this.memory.buffer;
    new Float64Array(buffer, this.shapley, 32 * 32).set(shapley);
    new Float64Array(buffer, gaussStart, gauss.length).set(gauss);
    new Float64Array(buffer, this.x, rows.x.length).set(rows.x);
    let missing = 0;
    for (let i = 0; i < rows.x.length; i++) if (rows.x[i] !== rows.x[i]) missing = 1;
    this.missing = missing;
    if (rows.catBits) new Uint32Array(buffer, this.catBits, rows.catBits.length).set(rows.catBits);
  }

  private ensure(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / PAGE));
  }

  /** Leaves the kernel visits (those with a value other than 0), in plan order, and each leaf's preorder position. */
  private live = new Int32Array(64);
  private leafPos = new Int32Array(64);

  /** Adds tree p's contributions for every row; leafValue/outputs as in ShapTrees. */
  tree(p: KernelTree, leafValue: Float64Array): void {
    const m = p.nodes;
    if (this.live.length < p.leaves) {
      this.live = new Int32Array(2 * p.leaves);
      this.leafPos = new Int32Array(2 * p.leaves);
      this.twinLeaves = new Int32Array(2 * p.leaves);
    }
    if (this.twinAt.length < m) this.twinAt = new Int32Array(2 * m);
    for (let a = 0; a < m; a++) if (p.leftAt[a]! < 0) this.leafPos[p.slotAt[a]!] = a; // a leaf's slotAt is its index
    // Vector leaves (a forest's class shares) go class by class; from here on the tree has one output.
    if (p.only < 0 && this.outputs > 1) {
      this.classViews(p, leafValue);
      return;
    }
    // Twin leaves (tree-shap-kernel.wat $twins1): of one-output forest trees (GBDT trees keep their bits), both with a value and a table.
    let nt = 0;
    let twinBytes = 0;
    let twinBits = 0;
    for (let a = 0; a < m; a++) {
      this.twinAt[a] = -1;
      if (p.ensemble !== 'forest' || p.leftAt[a]! < 0) continue;
      const la = p.leftAt[a]!;
      const ra = p.rightAt[a]!;
      if (p.leftAt[la]! >= 0 || p.leftAt[ra]! >= 0) continue;
      const l = p.slotAt[la]!;
      const r = p.slotAt[ra]!;
      if (p.leafZero[l] || p.leafZero[r] || p.tableAt[l]! < 0 || p.tableAt[r]! < 0) continue;
      this.twinAt[a] = nt++;
      const d = p.leafSlots[l]!;
      twinBits += d + 1;
      twinBytes += 3 * 8 * (1 << d);
    }
    let L = 0;
    let T = 0;
    for (let l = 0; l < p.leaves; l++) {
      if (p.leafZero[l]) continue;
      const parent = this.leafPos[l]! - 1;
      // A left twin's parent is the node before it; a right twin's, two before (its left twin between).
      const twin = (p.leftAt[parent] === this.leafPos[l] && this.twinAt[parent]! >= 0) || (parent > 0 && p.rightAt[parent - 1] === this.leafPos[l] && this.twinAt[parent - 1]! >= 0);
      if (twin) this.twinLeaves[T++] = l;
      else this.live[L++] = l;
    }
    const ns = m - p.leaves - nt;
    // Hot sets packed into 64-bit words (tree-shap-kernel.wat $packed1): one-output trees whose visited leaves all have a table.
    let packedBits = 0;
    for (let li = 0; li < L && packedBits >= 0; li++) packedBits = p.tableAt[this.live[li]!]! >= 0 ? packedBits + p.leafSlots[this.live[li]!]! : -1;
    // Records of 48, 32 and 64 bytes (tree-shap-kernel.wat's header, $twins1); the slot arrays: feature·16 (i32), zero fraction and (1 − z)/z (f64).
    const splits = this.treeAt;
    const leaves = align(splits + ns * 48);
    const sFeat = align(leaves + L * 32);
    const sZero = align(sFeat + p.used * 4);
    const sHot = align(sZero + p.used * 8);
    const tables = align(sHot + p.used * 8);
    const values = align(tables + p.tableUsed * 8);
    const quad = align(values + L * 8);
    const quadUsed = this.quadrature(p);
    const twins = align(quad + quadUsed * 8);
    const tTables = align(twins + nt * 64);
    const bits = align(tTables + twinBytes);
    const tBits = align(bits + Math.max(0, packedBits) * 32);
    // Per node, for two pairs of rows: masks (i64 each), sums (f64x2 a pair).
    const mask = align(tBits + twinBits * 32);
    const sum = align(mask + m * 32);
    const { ratio, products } = this.psiScratch(p, sum + m * 32);
    const buffer = this.memory.buffer;
    const f64 = new Float64Array(buffer);
    const i32 = new Int32Array(buffer);
    // Skipped leaves' sums stay 0 for every row (the kernel writes only the sums of the leaves it visits and of splits).
    f64.fill(0, sum >> 3, (sum >> 3) + 4 * m);
    // A one-output tree's leaf values: of its output (GBDT), or of the ensemble's one output (a regression forest, a binary one by difference).
    const scalar = p.only >= 0 ? p.leafScalar : this.values(p, leafValue);
    let categorical = 0;
    let i = 0;
    for (let a = 0; a < m; a++) {
      if (p.leftAt[a]! < 0 || this.twinAt[a]! >= 0) continue;
      if (this.writeSplit(p, a, (splits >> 2) + 12 * i, f64, i32)) categorical = 1;
      i++;
    }
    if (packedBits >= 0) this.packed(p, this.live, 0, L, (i) => tables + 8 * p.tableAt[this.live[i]!]!, leaves, bits, f64, i32);
    for (let li = 0; li < L && packedBits < 0; li++) {
      const l = this.live[li]!;
      const tab = p.tableAt[l]!;
      this.writeLeaf(p, l, (leaves >> 2) + 8 * li, tab >= 0 ? tables + 8 * tab : -1, { sFeat, sHot, quad }, i32);
      // Tables carry the leaf's value (scalar[l], filled in below by $psiTable).
      f64[(values >> 3) + li] = tab >= 0 ? 1 : scalar[l]!;
    }
    for (let j = 0; j < p.used; j++) i32[(sFeat >> 2) + j] = p.feature[j]! * 16;
    f64.set(p.zero.subarray(0, p.used), sZero >> 3);
    f64.set(p.hotScale.subarray(0, p.used), sHot >> 3);
    // The tables, straight into this memory (the plan only placed them: TreePlan.build with fill false).
    for (let li = 0; li < L + T; li++) {
      const l = li < L ? this.live[li]! : this.twinLeaves[li - L]!;
      const tab = p.tableAt[l]!;
      if (tab < 0) continue;
      this.fillTable(p, l, scalar[l]!, tables + 8 * tab, sZero, { products, ratio });
    }
    f64.set(this.quad.subarray(0, quadUsed), quad >> 3);
    if (nt > 0) this.twins(p, { twins, tTables, tables, tBits }, f64, i32);
    const nf = this.nFeatures;
    const k = this.outputs;
    const phi = this.phi + (p.only >= 0 ? p.only : 0) * nf * 16;
    this.rowsFn(
      this.x, this.rows.columns, this.pairs, this.missing, splits, ns, this.catBits, categorical,
      leaves, L, values, mask, sum, this.w, this.g, this.shapley, sZero - sHot, phi, k * nf * 16, twins, nt,
      packedBits >= 0 ? bits : -1, tBits,
    );
  }

  /**
   * The leaf records and bit tables of $packed1 (tree-shap-kernel.wat) for leaves list[from .. from + L − 1],
   * all with a table (tableOf: the byte address of list[i]'s): consecutive leaves share a 64-bit word while
   * their d add up to at most 64.
   */
  private packed(
    p: KernelTree, list: Int32Array, from: number, L: number, tableOf: (li: number) => number, leaves: number, bits: number, f64: Float64Array, i32: Int32Array,
  ): void {
    let first = 0;
    let e = bits >> 2;
    let last = -1;
    for (let li = 0; li < L; li++) {
      const l = list[from + li]!;
      const d = p.leafSlots[l]!;
      if (first + d > 64) {
        i32[last + 3] = 32 * first;
        first = 0;
      }
      const at = (leaves >> 2) + 8 * li;
      const tab = tableOf(from + li);
      i32[at] = this.leafPos[l]! * 32;
      i32[at + 1] = 0;
      i32[at + 2] = tab;
      i32[at + 3] = 0;
      i32[at + 4] = first;
      i32[at + 5] = 0;
      i32[at + 6] = (1 << d) - 1;
      i32[at + 7] = 0;
      for (let j = 0; j < d; j++) {
        writeBitEntry(f64, i32, e, p.hotScale[p.leafAt[l]! + j]!, tab, p.feature[p.leafAt[l]! + j]! * 16, first, (1 << d) - 1);
        e += 8;
      }
      first += d;
      last = at;
    }
    if (last >= 0) i32[last + 3] = 32 * first;
  }

  // Scratch of classViews: the views' lists (class-views.ts) and each view leaf's table.
  private readonly views = new ClassViews();
  private viewTable = new Int32Array(64);

  /**
   * A tree with vector leaves (kk = outputs > 1: a forest's class shares) as one one-output view per
   * output (tree-shap-kernel.wat $rowsViews): output c's view holds the leaves whose value for c is not
   * 0, with Ψ tables carrying that value, and the splits above them; the children it leaves out get
   * sums of 0. TreeSHAP is linear in the leaf values, so the views' contributions add up to the
   * tree's; they differ from the sum vectors of before only by rounding (a table times its value, not
   * Ψ times the value per row).
   */
  private classViews(p: KernelTree, leafValue: Float64Array): void {
    const m = p.nodes;
    const k = this.outputs;
    const layout = this.views;
    layout.build(p, leafValue, k);
    const { start: viewStart, output: viewClass, splits: viewSplits, leaves: viewLeaves, zero: viewZero } = layout;
    const nv = layout.count;
    if (nv === 0) return;
    const nSplits = viewStart[3 * nv]!;
    const nLeaves = viewStart[3 * nv + 1]!;
    // A view whose leaves all have a table goes through $packed1, others leaf by leaf through $leaves1 (a
    // mixed leaf gets a table per output other than 0). Splitting a view's leaves between the two, those
    // with a table through $packed1, was no faster (letter forest; tree-shap-wasm.ts header).
    if (this.viewTable.length < nLeaves) this.viewTable = new Int32Array(2 * nLeaves);
    let tableUsed = 0;
    let packedBits = 0;
    const tabulated: number[] = [];
    for (let v = 0; v < nv; v++) {
      const l0 = viewStart[3 * v + 1]!;
      const l1 = viewStart[3 * v + 4]!;
      let all = true;
      let bits = 0;
      for (let j = l0; j < l1; j++) {
        const l = viewLeaves[j]!;
        if (p.tableAt[l]! < 0) {
          this.viewTable[j] = -1;
          all = false;
          continue;
        }
        this.viewTable[j] = tableUsed;
        tableUsed += 1 << p.leafSlots[l]!;
        bits += p.leafSlots[l]!;
      }
      tabulated.push(all ? l1 - l0 : 0);
      if (all) packedBits += bits;
    }
    const ns = m - p.leaves;
    const splits = this.treeAt;
    const views = align(splits + ns * 48);
    const vSplits = align(views + nv * 48);
    const leaves = align(vSplits + nSplits * 48);
    const sFeat = align(leaves + nLeaves * 32);
    const sZero = align(sFeat + p.used * 4);
    const sHot = align(sZero + p.used * 8);
    const tables = align(sHot + p.used * 8);
    const values = align(tables + tableUsed * 8);
    const quad = align(values + nLeaves * 8);
    const quadUsed = this.quadrature(p);
    const bits = align(quad + quadUsed * 8);
    const mask = align(bits + packedBits * 32);
    // Sums: each view its own 32 bytes a node (both row pairs).
    const sum = align(mask + m * 32);
    const { ratio, products } = this.psiScratch(p, sum + nv * m * 32);
    const buffer = this.memory.buffer;
    const f64 = new Float64Array(buffer);
    const i32 = new Int32Array(buffer);
    // The tree's split records, all of them for the forward pass; each view's are copies of its splits'.
    let categorical = 0;
    const recordOf = this.twinAt; // split node → its record's number (twinAt is free here: no twins in vector trees)
    let i = 0;
    for (let a = 0; a < m; a++) {
      if (p.leftAt[a]! < 0) continue;
      if (this.writeSplit(p, a, (splits >> 2) + 12 * i, f64, i32)) categorical = 1;
      recordOf[a] = i++;
    }
    for (let j = 0; j < nSplits; j++) {
      const from = (splits >> 2) + 12 * recordOf[viewSplits[j]!]!;
      i32.copyWithin((vSplits >> 2) + 12 * j, from, from + 12);
    }
    for (let j = 0; j < p.used; j++) i32[(sFeat >> 2) + j] = p.feature[j]! * 16;
    f64.set(p.zero.subarray(0, p.used), sZero >> 3);
    f64.set(p.hotScale.subarray(0, p.used), sHot >> 3);
    f64.set(this.quad.subarray(0, quadUsed), quad >> 3);
    const nf = this.nFeatures;
    let bitsAt = bits;
    for (let v = 0; v < nv; v++) {
      const c = viewClass[v]!;
      const [s0, l0, z0] = [viewStart[3 * v]!, viewStart[3 * v + 1]!, viewStart[3 * v + 2]!];
      const [s1, l1, z1] = [viewStart[3 * v + 3]!, viewStart[3 * v + 4]!, viewStart[3 * v + 5]!];
      const vSum = sum + v * m * 32;
      for (let z = z0; z < z1; z++) f64.fill(0, (vSum >> 3) + 4 * viewZero[z]!, (vSum >> 3) + 4 * viewZero[z]! + 4);
      // Ψ tables carrying the leaf's value for c; the other leaves' values.
      for (let j = l0; j < l1; j++) {
        const l = viewLeaves[j]!;
        const value = leafValue[p.leafNode[l]! * k + c]!;
        f64[(values >> 3) + j] = this.viewTable[j]! >= 0 ? 1 : value;
        if (this.viewTable[j]! < 0) continue;
        this.fillTable(p, l, value, tables + 8 * this.viewTable[j]!, sZero, { products, ratio });
      }
      const lt = l0 + tabulated[v]!;
      this.packed(p, viewLeaves, l0, lt - l0, (j) => tables + 8 * this.viewTable[j]!, leaves + 32 * l0, bitsAt, f64, i32);
      for (let j = lt; j < l1; j++) {
        const l = viewLeaves[j]!;
        this.writeLeaf(p, l, (leaves >> 2) + 8 * j, this.viewTable[j]! >= 0 ? tables + 8 * this.viewTable[j]! : -1, { sFeat, sHot, quad }, i32);
      }
      const rec = (views >> 2) + 12 * v;
      i32[rec] = vSplits + 48 * s0;
      i32[rec + 1] = vSplits + 48 * s1;
      i32[rec + 2] = leaves + 32 * l0;
      i32[rec + 3] = leaves + 32 * lt;
      i32[rec + 4] = bitsAt;
      i32[rec + 5] = vSum;
      i32[rec + 6] = c * nf * 16;
      i32[rec + 7] = values + 8 * lt;
      i32[rec + 8] = leaves + 32 * lt;
      i32[rec + 9] = leaves + 32 * l1;
      i32[rec + 10] = 0;
      i32[rec + 11] = 0;
      for (let j = l0; j < lt; j++) bitsAt += 32 * p.leafSlots[viewLeaves[j]!]!;
    }
    this.rowsViewsFn(
      this.x, this.rows.columns, this.pairs, this.missing, splits, ns, this.catBits, categorical,
      views, nv, mask, this.w, this.g, this.shapley, sZero - sHot, this.phi, k * nf * 16,
    );
  }

  /** Split node → its twin record's number, or −1 (other splits, leaves). */
  private twinAt = new Int32Array(64);
  private twinLeaves = new Int32Array(64);

  /**
   * Scratch of the Ψ tables (tree-shap-kernel.wat $psiTable) from byte `from` on: the widest tabulated
   * leaf's ratios and subset products; the memory grown to hold them.
   */
  private psiScratch(p: KernelTree, from: number): { ratio: number; products: number } {
    let widest = 0;
    for (let l = 0; l < p.leaves; l++) if (p.tableAt[l]! >= 0 && p.leafSlots[l]! > widest) widest = p.leafSlots[l]!;
    const lanes = 16 * ((((widest + 1) >> 1) + 1) >> 1);
    const ratio = align(from);
    const products = ratio + widest * lanes;
    this.ensure(products + (1 << widest) * lanes);
    return { ratio, products };
  }

  /**
   * Leaf l's record for $leaves1 (8 words) at word `at`: its sums, hot-set mask, Ψ table (−1: none, the
   * quadrature's factors instead), path features and ratios, and d.
   */
  private writeLeaf(p: KernelTree, l: number, at: number, table: number, scratch: { sFeat: number; sHot: number; quad: number }, i32: Int32Array): void {
    const d = p.leafSlots[l]!;
    i32[at] = this.leafPos[l]! * 32;
    i32[at + 1] = (1 << d) - 1;
    i32[at + 2] = table;
    i32[at + 3] = scratch.sFeat + 4 * p.leafAt[l]!;
    i32[at + 4] = scratch.sHot + 8 * p.leafAt[l]!;
    i32[at + 5] = this.quadAt[l]! >= 0 ? scratch.quad + 8 * this.quadAt[l]! : -1;
    i32[at + 6] = d;
    i32[at + 7] = 1 << 16;
  }

  /** Leaf l's Ψ table at byte `table`, times `value` ($psiTable, from the leaf's zero fractions at sZero). */
  private fillTable(p: KernelTree, l: number, value: number, table: number, sZero: number, scratch: { products: number; ratio: number }): void {
    const d = p.leafSlots[l]!;
    const q = (d + 1) >> 1;
    const nodes = this.gaussAt[q - 1]!;
    const n2 = (q + 1) >> 1;
    this.psiTableFn(sZero + 8 * p.leafAt[l]!, d, value, table, scratch.products, scratch.ratio, nodes, nodes + 16 * n2, n2);
  }

  /** Split node a's record ($rows' 12 words) at word `at`; true when the split is on a category. */
  private writeSplit(p: KernelTree, a: number, at: number, f64: Float64Array, i32: Int32Array): boolean {
    const { threshold, defaultLeft, catOffset } = this.rows;
    const node = p.order[a]!;
    const cat = catOffset ? catOffset[node]! : -1;
    if (cat >= 0) {
      i32[at] = cat;
      i32[at + 1] = 0;
    } else f64[at >> 1] = threshold[node]!;
    i32[at + 2] = p.columnAt[a]! * 8;
    i32[at + 3] = p.columnAt[a]! * 16;
    i32[at + 4] = a * 32;
    i32[at + 5] = p.rightAt[a]! * 32;
    i32[at + 6] = -defaultLeft[node]!;
    i32[at + 7] = -defaultLeft[node]!;
    i32[at + 8] = ~(1 << p.slotAt[a]!);
    i32[at + 9] = -1;
    i32[at + 10] = cat >= 0 ? 2 : 0;
    i32[at + 11] = 0;
    return cat >= 0;
  }

  /**
   * The twin records (tree-shap-kernel.wat $twins1), their bit tables and their tables C and F from the
   * twins' Ψ tables (already filled, values folded in), for the hot slots Q at the split but s: h = 0
   * (s cold above): C = Ψ_L(Q) + Ψ_R(Q); the row goes left: C = Ψ_L(Q + s) + Ψ_R(Q), F = hs_L·Ψ_L(Q)
   * − Ψ_R(Q); right: C = Ψ_L(Q) + Ψ_R(Q + s), F = hs_R·Ψ_R(Q) − Ψ_L(Q) — what the split's sum, the
   * leaves' hot terms and the split's cold term added apart, to rounding.
   */
  private twins(p: KernelTree, at: { twins: number; tTables: number; tables: number; tBits: number }, f64: Float64Array, i32: Int32Array): void {
    const { threshold, defaultLeft } = this.rows;
    let rec = at.twins >> 2;
    // $twins1's words: a twin's first bit, its group's last twin and emit mask, the bit table entry.
    let first = 0;
    let last = -1;
    let emitLow = 0;
    let emitHigh = 0;
    let e = at.tBits >> 2;
    let tab = at.tTables;
    const closeGroup = (): void => {
      i32[last + 10] = emitLow;
      i32[last + 11] = emitHigh;
      i32[last + 15] = 32 * first;
    };
    for (let a = 0; a < p.nodes; a++) {
      if (this.twinAt[a]! < 0) continue;
      const node = p.order[a]!;
      const l = p.slotAt[p.leftAt[a]!]!;
      const r = p.slotAt[p.rightAt[a]!]!;
      const d = p.leafSlots[l]!;
      const s = p.slotAt[a]!;
      const below = (1 << s) - 1;
      const size = 1 << (d - 1);
      if (first + d + 1 > 64) {
        closeGroup();
        first = 0;
        emitLow = 0;
        emitHigh = 0;
      }
      const c = tab;
      const f = tab + 8 * 4 * size;
      f64[rec >> 1] = threshold[node]!;
      i32[rec + 2] = p.columnAt[a]! * 8;
      i32[rec + 3] = a * 32;
      i32[rec + 4] = -defaultLeft[node]!;
      i32[rec + 5] = -defaultLeft[node]!;
      i32[rec + 6] = ((1 << d) - 1) & ~(1 << s);
      i32[rec + 7] = 0;
      i32[rec + 8] = below;
      i32[rec + 9] = 0;
      i32[rec + 10] = 0;
      i32[rec + 11] = 0;
      i32[rec + 12] = s;
      i32[rec + 13] = c;
      i32[rec + 14] = first;
      i32[rec + 15] = 0;
      // Bits first .. first + d: h, r (no term), then the other slots in order.
      const from = p.leafAt[l]!;
      for (let i = 0; i <= d; i++) {
        const j = i - 2 < s ? i - 2 : i - 1;
        if (i === 0) writeBitEntry(f64, i32, e, 1, f, p.columnAt[a]! * 16, first + 1, (1 << d) - 1);
        else writeBitEntry(f64, i32, e, i === 1 ? 0 : p.hotScale[from + j]!, c, i === 1 ? 0 : p.feature[from + j]! * 16, first, (1 << (d + 1)) - 1);
        e += 8;
        if (i === 1) continue;
        const bit = first + i;
        if (bit < 32) emitLow |= 1 << bit;
        else emitHigh |= 1 << (bit - 32);
      }
      first += d + 1;
      last = rec;
      const tl = (at.tables >> 3) + p.tableAt[l]!;
      const tr = (at.tables >> 3) + p.tableAt[r]!;
      const hl = p.hotScale[from + s]!;
      const hr = p.hotScale[p.leafAt[r]! + s]!;
      const bit = 1 << s;
      const ct = c >> 3;
      const ft = f >> 3;
      for (let q = 0; q < size; q++) {
        const full = (q & below) | ((q & ~below) << 1);
        f64[ct + 4 * q] = f64[tl + full]! + f64[tr + full]!;
        f64[ct + 4 * q + 1] = f64[tl + (full | bit)]! + f64[tr + full]!;
        f64[ct + 4 * q + 2] = 0;
        f64[ct + 4 * q + 3] = f64[tl + full]! + f64[tr + (full | bit)]!;
        f64[ft + 2 * q] = hl * f64[tl + full]! - f64[tr + full]!;
        f64[ft + 2 * q + 1] = hr * f64[tr + full]! - f64[tl + full]!;
      }
      rec += 16;
      tab += 3 * 8 * 2 * size;
    }
    if (last >= 0) closeGroup();
  }

  private scalar = new Float64Array(64);

  /** leafValue of each leaf of a tree whose ensemble has one output (a tree of output −1 there). */
  private values(p: KernelTree, leafValue: Float64Array): Float64Array {
    if (this.outputs !== 1) return this.scalar;
    if (this.scalar.length < p.leaves) this.scalar = new Float64Array(2 * p.leaves);
    for (let l = 0; l < p.leaves; l++) this.scalar[l] = leafValue[p.leafNode[l]!]!;
    return this.scalar;
  }

  private quad = new Float64Array(1024);
  private quadAt = new Int32Array(64);

  /**
   * Quadrature data (tree-shap-kernel.wat $quadrature) of the leaves without a table whose zero
   * fractions are all positive (ρ divides by them); returns the f64 count, quadAt[l] = start or −1.
   */
  private quadrature(p: KernelTree): number {
    if (this.quadAt.length < p.leaves) this.quadAt = new Int32Array(2 * p.leaves);
    let used = 0;
    for (let l = 0; l < p.leaves; l++) {
      const d = p.leafSlots[l]!;
      const at = p.leafAt[l]!;
      let positive = d > 0 && p.tableAt[l]! < 0 && !p.leafZero[l];
      for (let j = 0; j < d && positive; j++) if (!(p.zero[at + j]! > 0)) positive = false;
      if (!positive) {
        this.quadAt[l] = -1;
        continue;
      }
      const q = (d + 1) >> 1;
      const width = (q + 1) & ~1;
      const start = used;
      used += width * (1 + 2 * d);
      if (used > this.quad.length) {
        const grown = new Float64Array(2 * used);
        grown.set(this.quad);
        this.quad = grown;
      }
      this.quad.fill(0, start, used);
      const t = GAUSS_NODES[q - 1]!;
      const w = GAUSS_WEIGHTS[q - 1]!;
      for (let i = 0; i < width; i++) {
        if (i >= q) {
          // Padding lane: base 0, so it adds nothing whatever ρ and κ hold.
          for (let j = 0; j < d; j++) this.quad[start + (1 + j) * width + i] = 1;
          continue;
        }
        const ti = t[i]!;
        let base = w[i]! / (1 - ti);
        for (let j = 0; j < d; j++) {
          const z = p.zero[at + j]!;
          const b = (1 - ti) * z;
          base *= b;
          const rho = (ti + b) / b;
          this.quad[start + (1 + j) * width + i] = rho;
          this.quad[start + (1 + d + j) * width + i] = p.hotScale[at + j]! / rho;
        }
        this.quad[start + i] = base;
      }
      this.quadAt[l] = start;
    }
    return used;
  }

  /** Adds the contributions collected so far to phi (rows × outputs × features) and starts collecting again from 0. */
  moveTo(phi: Float64Array): void {
    const got = new Float64Array(this.memory.buffer, this.phi, this.phiLength);
    const n = this.outputs * this.nFeatures;
    for (let r = 0; r < this.rows.nRows; r++) {
      const to = r * n;
      const from = (r >> 1) * 2 * n + (r & 1);
      for (let i = 0; i < n; i++) phi[to + i]! += got[from + 2 * i]!;
    }
    got.fill(0);
  }
}
