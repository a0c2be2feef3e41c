/**
 * Exact TreeSHAP: the Shapley values of v(S) = E[f(x) | x_S], where the expectation over the features
 * outside S follows the tree's own training covers (at a node splitting on a feature not in S, both
 * children weighted by their share of the node's training rows) — the values of shap's tree_shap and
 * LightGBM's pred_contrib (Lundberg, Erion & Lee 2018).
 *
 * Computed leaf by leaf. A leaf's path runs through d distinct features j, each with a zero fraction z_j
 * (the product of its cover shares along the path) and, for a row, a one fraction o_j ∈ {0, 1} (does
 * the row take every branch on j towards the leaf). With S = {j : o_j = 1} and
 *   Ψ(T) = Σ_{U ⊆ T} |U|!(d−|U|−1)!/d! · Π_{j ∉ U} z_j,
 * the leaf (value v) adds −v·Ψ(S) to every path feature outside S ("cold") and v·(1−z_i)/z_i·Ψ(S∖{i})
 * to each i in S ("hot"). Ψ depends on the row only through S, so when rows are many (Fast TreeSHAP v2,
 * Yang 2021) each leaf's Ψ is tabulated once for all 2^d subsets and a hot feature costs one look-up;
 * otherwise Ψ comes from the polynomial Π_{j∈S}(x + z_j)·Π_{j∉S} z_j in O(d·|S|).
 *
 * A row's cold terms are not added leaf by leaf: all leaves below the node where the row first leaves
 * a feature's branch have that feature cold, so the node subtracts the sum of v·Ψ(S) over its cold
 * child's leaves from that feature, summed bottom-up once per tree and row (O(nodes), not O(leaves·d)).
 * Each tree is laid out in preorder, so one forward pass over its nodes finds the row's masks (which
 * path features it has left) and one backward pass adds leaves and sums; the split rules are read
 * from typed arrays, never through a call per node. Trees are taken one at a time over all rows, so
 * one tree's tables stay in cache; a tree whose paths meet more distinct features than a 30-bit mask
 * holds goes to the recursive Algorithm 2 (tree-shap-recursive.ts).
 */
import { treeShapRecursive } from './tree-shap-recursive.js';
import { psiTable } from './psi-table.js';
import { LinearPlan, LinearScratch, linearTreeShap } from './tree-shap-linear.js';
import { WasmTreeShap } from './tree-shap-wasm.js';
import { grow, growFields } from './growable.js';

/** Trees of one ensemble in one node table; each tree's outputs are added to the ensemble's. */
export interface ShapTrees {
  /** Root node of each tree. */
  roots: Int32Array;
  /** Children of a split node; −1 for a leaf. */
  left: Int32Array;
  right: Int32Array;
  /** Feature index (into the explanation's features) of a split node. */
  feature: Int32Array;
  /** Training weight (rows, or their weights) that reached each node; a split node's is its children's sum. */
  cover: Float64Array;
  /** Leaves: values per output, node-major (node × outputs); the ensemble's scale (learning rate, tree weight applied). */
  leafValue: Float64Array;
  /** Output each tree adds to: −1 = every output (leafValue holds a vector), t = only output t (leafValue scalar at node × outputs + t). */
  treeOutput: Int32Array;
  outputs: number;
  /**
   * 'forest': a forest's averaged trees, grown deep (many leaves, long paths); 'boosted': a GBDT's
   * shallow trees. Only the wasm kernel's choice of which leaves get a Ψ table differs (TreePlan.addLeaf).
   */
  ensemble: 'forest' | 'boosted';
}

/**
 * The rows to explain and the split rule of every split node as data: row r goes left at node n when
 * its value v = x[r × columns + feature[n]] is ≤ threshold[n], NaN going left when defaultLeft[n] = 1;
 * a categorical node (catOffset[n] ≥ 0) sends v left when bit v of the bitset at catBits[catOffset[n]] is set.
 */
export interface SplitRows {
  nRows: number;
  /** Each split node's column (ShapTrees.feature). */
  feature: Int32Array;
  /** nRows × columns, row-major. */
  x: Float64Array;
  columns: number;
  threshold: Float64Array;
  defaultLeft: Uint8Array;
  catOffset: Int32Array | null;
  catBits: Uint32Array | null;
}

/** Which child row r takes at split node `node`: true = left. */
export type Decide = (node: number, row: number) => boolean;

/** The split rules as a function (the recursive fallback and tests' brute force walk with it). */
export function decideOf(s: SplitRows): Decide {
  return (node, row) => goesLeft(s, node, s.x[row * s.columns + s.feature[node]!]!);
}

function goesLeft(s: SplitRows, node: number, v: number): boolean {
  const cat = s.catOffset ? s.catOffset[node]! : -1;
  if (cat >= 0) return ((s.catBits![cat + (v >>> 5)]! >>> (v & 31)) & 1) === 1;
  return v !== v ? s.defaultLeft[node] === 1 : v <= s.threshold[node]!;
}

/** SplitRows over columns (one per feature, indexed as ShapTrees.feature), copied row-major. */
export function rowsFor(
  t: ShapTrees,
  columns: ArrayLike<number>[],
  nRows: number,
  rules: { threshold: Float64Array; defaultLeft: Uint8Array; catOffset?: Int32Array; catBits?: Uint32Array },
): SplitRows {
  const nf = columns.length;
  const x = new Float64Array(nRows * nf);
  for (let f = 0; f < nf; f++) {
    const col = columns[f]!;
    for (let r = 0; r < nRows; r++) x[r * nf + f] = col[r]!;
  }
  return {
    nRows, feature: t.feature, x, columns: nf, threshold: rules.threshold, defaultLeft: rules.defaultLeft,
    catOffset: rules.catOffset ?? null, catBits: rules.catBits ?? null,
  };
}

/**
 * How leaves are evaluated: `auto` tabulates a leaf's Ψ when that is cheaper for this many rows and
 * runs the rows through the wasm kernel (tree-shap-wasm.ts); `js` makes the same choices with the
 * loops below; the others force one way in JS (tests check that all agree).
 */
export type TreeShapMethod = 'auto' | 'js' | 'table' | 'direct' | 'linear' | 'recursive';

/** visit(node, depth) for every node of every tree, depth first (roots at depth 0). */
function walkDepths(t: ShapTrees, visit: (node: number, depth: number) => void, trees?: ArrayLike<number>): void {
  const stack: number[] = [];
  const count = trees ? trees.length : t.roots.length;
  for (let j = 0; j < count; j++) {
    stack.push(t.roots[trees ? trees[j]! : j]!, 0);
    while (stack.length) {
      const d = stack.pop()!;
      const n = stack.pop()!;
      visit(n, d);
      if (t.left[n]! >= 0) stack.push(t.left[n]!, d + 1, t.right[n]!, d + 1);
    }
  }
}

/** Leaves whose paths meet at most this many distinct features are counted as tabulated by pathWork. */
const WORK_TABLE_SLOTS = 10;

/** Pairs of quadrature nodes (f64x2 lanes) the wasm kernel's quadrature takes for a leaf with d path features. */
function quadraturePairs(d: number): number {
  return (((d + 1) >> 1) + 1) >> 1;
}

/**
 * Work of explaining one row, in steps, for the kernel treeShap picks: a tree explained leaf by leaf
 * costs one step per node (the masks) and, for the bottom-up sums, one per split and output with a
 * leaf other than 0 below it (a tree with vector leaves goes output by output, each output's view
 * holding only the splits above its leaves: tree-shap-wasm.ts classViews; a one-output tree's splits
 * all count once, as its leaves' zeros are not looked for) plus, per leaf and output whose
 * value is not 0, d + 1 look-ups when its d distinct path features are few enough to tabulate, else
 * the wasm kernel's quadrature, (d + 1) × (pairs of nodes + 1) (tree-shap-kernel.wat $quadrature).
 * Leaves whose values are all 0 cost nothing past their node: the kernel skips them, and outputs at 0
 * get no hot terms (most leaves of a fully grown classification forest). Without leaf values (an empty
 * leafValue) every leaf counts for every output. A tree explained node by node (paths through more
 * than 16 distinct features) costs 5·⌈d/2⌉ steps per node and output. Requests are bounded by this
 * count (explain/explanation.ts), never by the clock.
 */
export function pathWork(t: ShapTrees): number {
  let maxFeature = 0;
  for (let n = 0; n < t.feature.length; n++) if (t.left[n]! >= 0 && t.feature[n]! > maxFeature) maxFeature = t.feature[n]!;
  const seen = new Int32Array(maxFeature + 1);
  const k = t.outputs;
  const valued = t.leafValue.length > 0;
  let only = -1;
  let leafWork = 0;
  let nodes = 0;
  let widest = 0;
  let viewSplits = 0;
  // Outputs leaf `node` adds hot terms to (without leaf values: every output of its tree).
  const treeOutputs = (node: number): number => (!valued ? (only >= 0 ? 1 : k) : liveOutputs(t, node, only));
  // Vector leaves (only < 0, k > 1) go as one view per output (tree-shap-wasm.ts classViews): a split costs a step
  // for every output with a leaf other than 0 below it; returns the bit set of those outputs (k ≤ 30; wider: all).
  const all = k >= 31 ? -1 : (1 << k) - 1;
  const walk = (node: number, distinct: number): number => {
    nodes++;
    if (t.left[node]! < 0) {
      leafWork += (distinct <= WORK_TABLE_SLOTS ? distinct + 1 : (distinct + 1) * (quadraturePairs(distinct) + 1)) * treeOutputs(node);
      if (distinct > widest) widest = distinct;
      return only >= 0 || !valued || k >= 31 ? all : liveSet(t, node);
    }
    const f = t.feature[node]!;
    const fresh = seen[f] === 0 ? 1 : 0;
    seen[f]!++;
    const below = walk(t.left[node]!, distinct + fresh) | walk(t.right[node]!, distinct + fresh);
    seen[f]!--;
    viewSplits += below === -1 ? k : popcount(below);
    return below;
  };
  let work = 0;
  for (let i = 0; i < t.roots.length; i++) {
    only = t.treeOutput.length > i && t.treeOutput[i]! >= 0 ? t.treeOutput[i]! : -1;
    const outputs = only >= 0 ? 1 : k;
    leafWork = 0;
    nodes = 0;
    widest = 0;
    viewSplits = 0;
    walk(t.roots[i]!, 0);
    if (widest > MAX_TABLE_SLOTS) work += 5 * ((widest + 1) >> 1) * nodes * outputs;
    else work += outputs === 1 ? nodes + leafWork : nodes + viewSplits + leafWork;
  }
  return work;
}

/** E[f] per output: each tree's leaves weighted by their covers. */
export function expectedValue(t: ShapTrees): Float64Array {
  const k = t.outputs;
  const out = new Float64Array(k);
  const stack: number[] = [];
  for (let i = 0; i < t.roots.length; i++) {
    const root = t.roots[i]!;
    const total = t.cover[root]!;
    const only = t.treeOutput[i]!;
    stack.push(root);
    while (stack.length) {
      const n = stack.pop()!;
      if (t.left[n]! >= 0) {
        stack.push(t.left[n]!, t.right[n]!);
        continue;
      }
      const share = total > 0 ? t.cover[n]! / total : 0;
      if (only >= 0) out[only]! += share * t.leafValue[n * k + only]!;
      else for (let c = 0; c < k; c++) out[c]! += share * t.leafValue[n * k + c]!;
    }
  }
  return out;
}

/** Most distinct features on one path that the row masks (32-bit integers) hold. */
const MAX_SLOTS = 30;
/** Largest leaf table: 2^16 subsets. */
const MAX_TABLE_SLOTS = 16;

/**
 * A tree with vector leaves (class views, tree-shap-wasm.ts) whose tables come to more than this many
 * bytes tabulates a leaf only where a table costs VECTOR_TABLE_COST an entry against the kernel's
 * quadrature (4 otherwise). Such tables are many and wide (letter forest, 1,000 records: 9.8 GB of
 * tables a batch, 33 MB a tree on average, beyond the 32 MB L3), each entry read about twice, nearly
 * every read a cache miss (reads kept within a table's first 8 entries, wrong numbers, took a third off
 * the kernel's time). With 64, letter forest tables only up to d = 9 at 1,000 records (was 14): CPU ms
 * per 1,000 records 37,700 / 34,643 → 23,452 / 24,323 (alternating, load 1.1–1.7; 16, 32, 128 and no
 * tables at all were slower); numbers differ by ≤ 2.9·10⁻¹⁶ of the largest contribution. Small trees'
 * tables stay in cache and keep the rule (vehicle forest: 0.2 MB a tree, at most 0.9 MB; it was ~10 %
 * slower with 64); the bound lies between the two.
 */
const VECTOR_TABLE_BYTES = 4 << 20;
const VECTOR_TABLE_COST = 64;

/** SHAPLEY[d × 32 + k] = k!(d−k−1)!/d!, the weight of a k-subset of the other d−1 path features; 0 for k ≥ d. */
const SHAPLEY = (() => {
  const w = new Float64Array(32 * 32);
  for (let d = 1; d < 32; d++) {
    let v = 1 / d;
    for (let k = 0; k < d; k++) {
      w[d * 32 + k] = v;
      v *= (k + 1) / (d - k - 1);
    }
  }
  return w;
})();

/** The outputs (k ≤ 30) with a value other than 0 at leaf `node`, as bits. */
function liveSet(t: ShapTrees, node: number): number {
  let set = 0;
  for (let c = 0; c < t.outputs; c++) if (t.leafValue[node * t.outputs + c] !== 0) set |= 1 << c;
  return set;
}

function popcount(x: number): number {
  let n = 0;
  for (let b = x; b !== 0; b &= b - 1) n++;
  return n;
}

/** Outputs with a value other than 0 at leaf `node`: of output `only`, or of all outputs (only < 0). */
function liveOutputs(t: ShapTrees, node: number, only: number): number {
  const k = t.outputs;
  if (only >= 0) return t.leafValue[node * k + only] !== 0 ? 1 : 0;
  let live = 0;
  for (let c = 0; c < k; c++) if (t.leafValue[node * k + c] !== 0) live++;
  return live;
}

/**
 * One tree in preorder (a node's left subtree right after it, then its right subtree) with its leaves
 * as path summaries: the distinct features met on the way, their zero fractions, and Ψ tables.
 */
class TreePlan {
  /** Preorder position → node of the ensemble. */
  order = new Int32Array(64);
  /** Preorder children of a split node (−1 for a leaf). */
  leftAt = new Int32Array(64);
  rightAt = new Int32Array(64);
  /** A split node's slot (position of its feature among its path's distinct features); a leaf's index in this plan. */
  slotAt = new Int32Array(64);
  /** A split node's input column. */
  columnAt = new Int32Array(64);
  nodes = 0;
  leaves = 0;
  leafNode = new Int32Array(64);
  /** Distinct path features of leaf l at leafAt[l] … leafAt[l] + leafSlots[l] − 1 of feature / zero / hotScale. */
  leafSlots = new Int32Array(64);
  leafAt = new Int32Array(64);
  /** Start of leaf l's Ψ table (2^d entries; times the leaf's value when the tree has one output), −1 when evaluated directly. */
  tableAt = new Int32Array(64);
  /** The leaf's value when the tree has one output. */
  leafScalar = new Float64Array(64);
  /** 1 when all the leaf's values are 0: it adds nothing (no hot terms, v·Ψ(S) = 0), so it gets no table and the kernel skips it. */
  leafZero = new Uint8Array(64);
  feature = new Int32Array(256);
  zero = new Float64Array(256);
  /** (1 − z)/z: a feature in S gets v · hotScale · Ψ(S∖{i}). */
  hotScale = new Float64Array(256);
  used = 0;
  table = new Float64Array(1024);
  tableUsed = 0;
  /** The tree's one output (its tables are then scaled by the leaf values), or −1. */
  only = -1;
  /** The tree's ensemble (ShapTrees.ensemble). */
  ensemble: ShapTrees['ensemble'] = 'boosted';
  // The walk's path: distinct features and their zero fractions so far.
  private pathFeature = new Int32Array(MAX_SLOTS + 1);
  private pathZero = new Float64Array(MAX_SLOTS + 1);

  /** Whether build computes the Ψ tables (false: only places them; the wasm kernel fills them in its memory). */
  private fill = true;
  /** Whether the tree has vector leaves (a forest of three classes or more: explained as class views). */
  private vector = false;

  /** Summarises tree `tree`; false when a path meets more than MAX_SLOTS distinct features. */
  build(t: ShapTrees, tree: number, rows: number, method: TreeShapMethod, fill = true): boolean {
    this.fill = fill;
    const root = t.roots[tree]!;
    this.only = t.treeOutput[tree]!;
    this.ensemble = t.ensemble;
    this.vector = this.only < 0 && t.outputs > 1;
    this.nodes = 0;
    this.leaves = 0;
    this.used = 0;
    this.tableUsed = 0;
    if (!this.walk(t, root, 0, rows, method)) return false;
    if (this.vector && !fill && method === 'auto' && 8 * this.tableUsed > VECTOR_TABLE_BYTES) this.fewerTables(rows);
    return true;
  }

  /** Tables kept only where they cost VECTOR_TABLE_COST an entry less than the kernel's quadrature; the others' tables move up. */
  private fewerTables(rows: number): void {
    this.tableUsed = 0;
    for (let l = 0; l < this.leaves; l++) {
      if (this.tableAt[l]! < 0) continue;
      const d = this.leafSlots[l]!;
      if (VECTOR_TABLE_COST * (1 << d) > rows * (d + 1) * (quadraturePairs(d) + 1)) {
        this.tableAt[l] = -1;
        continue;
      }
      this.tableAt[l] = this.tableUsed;
      this.tableUsed += 1 << d;
    }
  }

  private walk(t: ShapTrees, node: number, slots: number, rows: number, method: TreeShapMethod): boolean {
    const at = this.nodes++;
    if (at === this.order.length) {
      growFields<TreePlan>(this, ['order', 'leftAt', 'rightAt', 'slotAt', 'columnAt'], 2 * at);
    }
    this.order[at] = node;
    const left = t.left[node]!;
    if (left < 0) {
      this.leftAt[at] = -1;
      this.rightAt[at] = -1;
      this.slotAt[at] = this.addLeaf(node, slots, rows, method, this.only >= 0 ? t.leafValue[node * t.outputs + this.only]! : 1, liveOutputs(t, node, -1) === 0);
      return true;
    }
    const f = t.feature[node]!;
    let s = 0;
    while (s < slots && this.pathFeature[s] !== f) s++;
    let next = slots;
    if (s === slots) {
      if (slots === MAX_SLOTS) return false;
      this.pathFeature[s] = f;
      this.pathZero[s] = 1;
      next++;
    }
    this.slotAt[at] = s;
    this.columnAt[at] = f;
    const cover = t.cover[node]!;
    const before = this.pathZero[s]!;
    this.pathZero[s] = before * (cover > 0 ? t.cover[left]! / cover : 0.5);
    this.leftAt[at] = this.nodes;
    if (!this.walk(t, left, next, rows, method)) return false;
    const right = t.right[node]!;
    this.pathZero[s] = before * (cover > 0 ? t.cover[right]! / cover : 0.5);
    this.rightAt[at] = this.nodes;
    if (!this.walk(t, right, next, rows, method)) return false;
    this.pathZero[s] = before;
    return true;
  }

  private addLeaf(node: number, d: number, rows: number, method: TreeShapMethod, scale: number, zeroLeaf: boolean): number {
    const l = this.leaves++;
    if (l === this.leafNode.length) {
      growFields<TreePlan>(this, ['leafNode', 'leafSlots', 'leafAt', 'tableAt', 'leafScalar', 'leafZero'], 2 * l);
    }
    this.leafNode[l] = node;
    this.leafSlots[l] = d;
    this.leafScalar[l] = scale;
    this.leafZero[l] = zeroLeaf ? 1 : 0;
    const at = this.used;
    this.leafAt[l] = at;
    this.used += d;
    if (this.used > this.feature.length) {
      growFields<TreePlan>(this, ['feature', 'zero', 'hotScale'], 2 * this.used);
    }
    let positive = true;
    for (let j = 0; j < d; j++) {
      const z = this.pathZero[j]!;
      this.feature[at + j] = this.pathFeature[j]!;
      this.zero[at + j] = z;
      this.hotScale[at + j] = (1 - z) / z;
      if (!(z > 0)) positive = false;
    }
    // A table costs ~2^d·d once and saves ~d²/2 per row over the direct way; it needs z > 0 (Ψ(S∖{i}) is divided by z_i).
    // (The wasm kernel evaluates the leaves left without a table by quadrature, tree-shap-wasm.ts.)
    // The wasm kernel's alternative is its quadrature, ~10·(d + 1)·(pairs + 1) instructions a row against ~25 an entry to fill a table:
    // a table pays from fewer rows (a quarter of the break-even, for the cache misses of its larger tables). Forest trees only:
    // GBDT trees, 31 leaves, keep the rule their numbers were checked with, bit for bit. Trees with vector leaves (class views,
    // tree-shap-wasm.ts) whose tables come to more than VECTOR_TABLE_BYTES keep fewer (fewerTables).
    const kernelRule = !this.fill && this.ensemble === 'forest';
    const pays = kernelRule ? 4 * (1 << d) <= rows * (d + 1) * (quadraturePairs(d) + 1) : 3 * (1 << d) <= rows * d;
    const table = !zeroLeaf && positive && d > 0 && d <= MAX_TABLE_SLOTS && (method === 'table' || (method !== 'direct' && pays));
    if (table) {
      const start = this.tableUsed;
      this.tableUsed += 1 << d;
      if (this.fill) {
        if (this.tableUsed > this.table.length) this.table = grow(this.table, 2 * this.tableUsed);
        psiTable(this.zero, at, d, scale, this.table, start);
      }
      this.tableAt[l] = start;
    } else this.tableAt[l] = -1;
    return l;
  }
}

/**
 * Contributions of rows 0..nRows-1: phi[(row × outputs + output) × nFeatures + feature]. For each row and
 * output, Σ_features phi + expectedValue = the ensemble's raw output. Leaves are tabulated for
 * `batchRows` rows (the whole batch when these rows are a part of it): a row's numbers depend only on
 * the row and that count, not on the other rows. With `parts`, only the trees of parts parts.indices
 * of parts.of (the trees in the order they are taken, output by output, cut into that many runs of
 * ⌊n/of⌋ or ⌈n/of⌉ consecutive trees), and the values are each of those parts' contributions alone,
 * one part after another: the same bits as explaining each part by itself, with the rows copied
 * into the wasm kernel once for all of them.
 */
export function treeShap(
  t: ShapTrees, nFeatures: number, rows: SplitRows, method: TreeShapMethod = 'auto', batchRows = rows.nRows, parts?: { indices: readonly number[]; of: number },
): Float64Array {
  const k = t.outputs;
  const nRows = rows.nRows;
  const size = nRows * k * nFeatures;
  const plan = new TreePlan();
  const linear = new LinearPlan();
  const scratch = new LinearScratch();
  let mask = new Int32Array(64);
  let sum = new Float64Array(64 * k);
  const values = new Float64Array(MAX_SLOTS);
  const g = new Float64Array(MAX_SLOTS + 2);
  const { x, columns: nc, threshold, defaultLeft } = rows;
  const catOffset = rows.catOffset ?? new Int32Array(0);
  const catBits = rows.catBits ?? new Uint32Array(0);
  const categorical = rows.catOffset !== null;
  const acc = new Float64Array(nRows * nFeatures);
  let accOutput = -1;
  const out = new Float64Array((parts ? parts.indices.length : 1) * size);
  let phi = out;
  const flush = (): void => {
    if (accOutput < 0) return;
    for (let r = 0; r < nRows; r++) {
      const to = (r * k + accOutput) * nFeatures;
      const from = r * nFeatures;
      for (let f = 0; f < nFeatures; f++) phi[to + f]! += acc[from + f]!;
    }
    acc.fill(0);
  };
  // Trees taken output by output (GBDT interleaves the classes' trees), so acc is flushed once per output.
  const sorted = Int32Array.from({ length: t.roots.length }, (_, i) => i).sort((a, b) => t.treeOutput[a]! - t.treeOutput[b]! || a - b);
  const n = sorted.length;
  const runs = parts ? parts.indices.map((p) => sorted.subarray(Math.floor((p * n) / parts.of), Math.floor(((p + 1) * n) / parts.of))) : [sorted];
  const auto = method === 'auto' || method === 'js';
  const kernel = method === 'auto' ? new WasmTreeShap(rows, k, nFeatures, SHAPLEY) : null;
  for (let part = 0; part < runs.length; part++) {
    const trees = runs[part]!;
    phi = out.subarray(part * size, (part + 1) * size);
    accOutput = -1;
    const deep: number[] = [];
    for (let ti = 0; ti < trees.length; ti++) {
      const i = trees[ti]!;
      const root = t.roots[i]!;
      if (t.left[root]! < 0) continue; // a single leaf moves no feature
      // Trees with paths through more distinct features than a table holds go node by node (tree-shap-linear.ts):
      // O(nodes·d/2) a row beats the direct polynomial's O(d·|S|) at each of their untabulated leaves.
      if (method === 'linear' || (auto && linear.depthOf(t, i) > MAX_TABLE_SLOTS)) {
        if (linear.build(t, i)) linearTreeShap(linear, scratch, rows, phi, k, nFeatures);
        else deep.push(i);
        continue;
      }
      if (method === 'recursive' || !plan.build(t, i, batchRows, method, kernel === null)) {
        deep.push(i);
        continue;
      }
      if (kernel) {
        kernel.tree(plan, t.leafValue);
        continue;
      }
      const m = plan.nodes;
      if (m > mask.length) {
        mask = new Int32Array(2 * m);
        sum = new Float64Array(2 * m * k);
      }
      const only = plan.only;
      // One-output trees add into acc (rows × features, small enough to stay in cache), moved into phi when the output changes.
      if (only !== accOutput) {
        flush();
        accOutput = only;
      }
      const { order, leftAt, rightAt, slotAt, columnAt, leafSlots, leafAt, tableAt, leafScalar, leafNode, feature, zero, hotScale, table } = plan;
      for (let r = 0; r < nRows; r++) {
        const xAt = r * nc;
        // Forward: bit j of a node's mask is cleared once the row has left the path at slot j's feature.
        mask[0] = -1;
        for (let a = 0; a < m; a++) {
          const la = leftAt[a]!;
          if (la < 0) continue;
          const node = order[a]!;
          const v = x[xAt + columnAt[a]!]!;
          let left: boolean;
          const cat = categorical ? catOffset[node]! : -1;
          if (cat >= 0) left = ((catBits[cat + (v >>> 5)]! >>> (v & 31)) & 1) === 1;
          else left = v !== v ? defaultLeft[node] === 1 : v <= threshold[node]!;
          const mk = mask[a]!;
          const cleared = mk & ~(1 << slotAt[a]!);
          mask[la] = left ? mk : cleared;
          mask[rightAt[a]!] = left ? cleared : mk;
        }
        // Backward: leaves add their hot terms and pass v·Ψ(S) up; a node where the row first leaves its
        // feature's branch subtracts its cold child's sum from that feature.
        if (only >= 0) {
          const base = r * nFeatures;
          for (let a = m - 1; a >= 0; a--) {
            const la = leftAt[a]!;
            if (la >= 0) {
              const ra = rightAt[a]!;
              sum[a] = sum[la]! + sum[ra]!;
              const s = slotAt[a]!;
              if ((mask[a]! >>> s) & 1) {
                const cold = (mask[la]! >>> s) & 1 ? ra : la;
                acc[base + columnAt[a]!]! -= sum[cold]!;
              }
              continue;
            }
            const l = slotAt[a]!;
            const d = leafSlots[l]!;
            const at = leafAt[l]!;
            const sm = mask[a]! & ((1 << d) - 1);
            const tb = tableAt[l]!;
            if (tb >= 0) {
              // The leaf's value is folded into its table.
              sum[a] = table[tb + sm]!;
              for (let b = sm; b !== 0; b &= b - 1) {
                const j = 31 - Math.clz32(b & -b);
                acc[base + feature[at + j]!]! += hotScale[at + j]! * table[tb + (sm ^ (1 << j))]!;
              }
              continue;
            }
            const v = leafScalar[l]!;
            sum[a] = v * direct(zero, at, d, sm, g, values);
            for (let b = sm; b !== 0; b &= b - 1) {
              const j = 31 - Math.clz32(b & -b);
              acc[base + feature[at + j]!]! += v * values[j]!;
            }
          }
          continue;
        }
        // Vector leaves: the same with every output at once (sum holds k values per node).
        const base = r * k * nFeatures;
        for (let a = m - 1; a >= 0; a--) {
          const la = leftAt[a]!;
          if (la >= 0) {
            const ra = rightAt[a]!;
            const s = slotAt[a]!;
            for (let c = 0; c < k; c++) sum[a * k + c] = sum[la * k + c]! + sum[ra * k + c]!;
            if ((mask[a]! >>> s) & 1) {
              const cold = ((mask[la]! >>> s) & 1 ? ra : la) * k;
              const f = base + columnAt[a]!;
              for (let c = 0; c < k; c++) phi[f + c * nFeatures]! -= sum[cold + c]!;
            }
            continue;
          }
          const l = slotAt[a]!;
          const d = leafSlots[l]!;
          const at = leafAt[l]!;
          const sm = mask[a]! & ((1 << d) - 1);
          const tb = tableAt[l]!;
          let psi: number;
          if (tb >= 0) {
            psi = table[tb + sm]!;
            for (let b = sm; b !== 0; b &= b - 1) {
              const j = 31 - Math.clz32(b & -b);
              values[j] = hotScale[at + j]! * table[tb + (sm ^ (1 << j))]!;
            }
          } else psi = direct(zero, at, d, sm, g, values);
          const lv = leafNode[l]! * k;
          for (let c = 0; c < k; c++) sum[a * k + c] = t.leafValue[lv + c]! * psi;
          for (let b = sm; b !== 0; b &= b - 1) {
            const j = 31 - Math.clz32(b & -b);
            const w = values[j]!;
            const f = base + feature[at + j]!;
            for (let c = 0; c < k; c++) phi[f + c * nFeatures]! += t.leafValue[lv + c]! * w;
          }
        }
      }
    }
    flush();
    kernel?.moveTo(phi);
    if (deep.length) {
      let deepest = 0;
      walkDepths(t, (_, d) => { if (d > deepest) deepest = d; }, deep);
      treeShapRecursive(t, nFeatures, nRows, decideOf(rows), phi, deep, deepest);
    }
  }
  return out;
}

/**
 * A leaf's terms without a table: returns Ψ(S) and sets values[j] = (1 − z_j)/z_j · Ψ(S∖{j}) for the
 * hot slots j ∈ S (computed as (1 − z_j)·Π_{i∉S} z_i · Σ weights × (g / (x + z_j)), so z_j = 0 is fine).
 */
function direct(zero: Float64Array, at: number, d: number, s: number, g: Float64Array, values: Float64Array): number {
  // g = Π_{j∈S}(x + z_j), degree |S|; cold = Π_{j∉S} z_j.
  let degree = 0;
  let cold = 1;
  g[0] = 1;
  for (let j = 0; j < d; j++) {
    const z = zero[at + j]!;
    if ((s >> j) & 1) {
      g[degree + 1] = g[degree]!;
      for (let m = degree; m > 0; m--) g[m] = g[m - 1]! + z * g[m]!;
      g[0] = z * g[0]!;
      degree++;
    } else cold *= z;
  }
  const w = d * 32;
  let psi = 0;
  for (let m = 0; m <= degree; m++) psi += SHAPLEY[w + m]! * g[m]!;
  for (let j = 0; j < d; j++) {
    if (!((s >> j) & 1)) continue;
    // g / (x + z_j), from the top (multiplying by z ≤ 1 keeps rounding errors from growing).
    const z = zero[at + j]!;
    let q = g[degree]!;
    let sum = SHAPLEY[w + degree - 1]! * q;
    for (let m = degree - 1; m > 0; m--) {
      q = g[m]! - z * q;
      sum += SHAPLEY[w + m - 1]! * q;
    }
    values[j] = (1 - z) * cold * sum;
  }
  return psi * cold;
}
