/**
 * Grows one fully-grown decision tree on binned features (CART: Gini for classes, variance for
 * regression), depth-first over an in-place row partition. Best-split mode sorts the node's rows by
 * bin and scans every boundary, trying missing values on both sides; random-split mode (extra trees)
 * draws one threshold per feature between the node's smallest and largest bin.
 */
import type { BinnedFrame } from './binning.js';
import type { SeededRandom } from '../../core/random.js';

export interface TreeParams {
  /** Non-constant features examined per split. */
  maxFeatures: number;
  minSamplesLeaf: number;
  maxDepth: number;
  randomThresholds: boolean;
}

export type TreeTarget =
  | { kind: 'classification'; y: Int32Array; nClasses: number }
  | { kind: 'regression'; y: Float64Array };

/** Nodes in creation order, root = 0; a leaf has feature −1. */
export interface GrownTree {
  feature: number[];
  /** Rows go left when their bin ≤ splitBin; bin 0 (missing) goes left iff missingLeft. */
  splitBin: number[];
  /** Smallest bin of the node's rows above splitBin (−1: none, only missing rows go right). */
  nextBin: number[];
  missingLeft: boolean[];
  left: number[];
  right: number[];
  /** Leaf output: class distribution (classification) or [mean] (regression). */
  leafValue: (number[] | null)[];
  /** Training weight (bootstrap count × sample weight) that reached the node: TreeSHAP's cover. */
  cover: number[];
}

const NO_SPLIT = -Infinity;
/** Nodes up to this size are sorted by insertion (most nodes of a fully grown tree are small). */
const INSERTION_SORT_MAX = 24;

export class TreeGrower {
  private readonly nFeatures: number;
  private readonly nBins: Int32Array;
  private readonly k: number;
  private readonly rows: Int32Array;
  private readonly sorted: Int32Array;
  private readonly keys: Uint32Array;
  private readonly binCount: Int32Array;
  private readonly featureOrder: Int32Array;
  private readonly total: Float64Array;
  private readonly leftA: Float64Array;
  private readonly rightA: Float64Array;
  private readonly leftB: Float64Array;
  private readonly rightB: Float64Array;
  // Best split of the current node (fields instead of objects: this runs millions of times).
  private bestScore = NO_SPLIT;
  private bestFeature = -1;
  private bestBin = 0;
  private bestNextBin = 0;
  private bestMissingLeft = false;
  private nodeWeight = 0;
  private nodeSum = 0;
  private nodeSqSum = 0;

  constructor(
    private readonly data: BinnedFrame,
    private readonly target: TreeTarget,
    private readonly params: TreeParams,
  ) {
    this.nFeatures = data.bins.length;
    this.nBins = Int32Array.from(data.binLow, (b) => b.length);
    this.k = target.kind === 'classification' ? target.nClasses : 1;
    this.rows = new Int32Array(data.nRows);
    this.sorted = new Int32Array(data.nRows);
    this.keys = new Uint32Array(data.nRows);
    this.binCount = new Int32Array(257);
    this.featureOrder = Int32Array.from({ length: this.nFeatures }, (_, i) => i);
    this.total = new Float64Array(this.k);
    this.leftA = new Float64Array(this.k);
    this.rightA = new Float64Array(this.k);
    this.leftB = new Float64Array(this.k);
    this.rightB = new Float64Array(this.k);
  }

  /** rowWeight: bootstrap count × sample weight per row (0 = not in this tree's sample). */
  grow(rowWeight: Float64Array, rng: SeededRandom, importance: Float64Array): GrownTree {
    const tree: GrownTree = { feature: [], splitBin: [], nextBin: [], missingLeft: [], left: [], right: [], leafValue: [], cover: [] };
    let n = 0;
    for (let i = 0; i < rowWeight.length; i++) if (rowWeight[i] > 0) this.rows[n++] = i;
    const stack: number[] = [0, n, 0, this.newNode(tree)]; // start, end, depth, node
    while (stack.length) {
      const node = stack.pop()!;
      const depth = stack.pop()!;
      const end = stack.pop()!;
      const start = stack.pop()!;
      const pure = this.computeTotals(start, end, rowWeight);
      const parentScore = this.parentScore();
      tree.cover[node] = this.nodeWeight;
      this.bestScore = NO_SPLIT;
      if (!pure && depth < this.params.maxDepth && end - start >= 2 * this.params.minSamplesLeaf) {
        this.findSplit(start, end, rowWeight, rng);
      }
      if (this.bestScore === NO_SPLIT) {
        tree.leafValue[node] = this.leafValue();
        continue;
      }
      importance[this.bestFeature] += Math.max(0, this.bestScore - parentScore);
      const mid = this.partition(start, end);
      const l = this.newNode(tree);
      const r = this.newNode(tree);
      tree.feature[node] = this.bestFeature;
      tree.splitBin[node] = this.bestBin;
      tree.nextBin[node] = this.bestNextBin;
      tree.missingLeft[node] = this.bestMissingLeft;
      tree.left[node] = l;
      tree.right[node] = r;
      stack.push(mid, end, depth + 1, r, start, mid, depth + 1, l);
    }
    return tree;
  }

  private newNode(tree: GrownTree): number {
    tree.feature.push(-1);
    tree.splitBin.push(0);
    tree.nextBin.push(-1);
    tree.missingLeft.push(false);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.leafValue.push(null);
    tree.cover.push(0);
    return tree.feature.length - 1;
  }

  /** Node class weights / weighted sums; returns true when the node cannot be split (pure). */
  private computeTotals(start: number, end: number, w: Float64Array): boolean {
    const rows = this.rows;
    let weight = 0;
    if (this.target.kind === 'classification') {
      const y = this.target.y;
      const total = this.total;
      total.fill(0);
      for (let i = start; i < end; i++) {
        const r = rows[i];
        total[y[r]] += w[r];
        weight += w[r];
      }
      let sq = 0;
      let nonEmpty = 0;
      for (let c = 0; c < this.k; c++) {
        sq += total[c] * total[c];
        if (total[c] > 0) nonEmpty++;
      }
      this.nodeWeight = weight;
      this.nodeSqSum = sq;
      return nonEmpty <= 1;
    }
    const y = this.target.y;
    let sum = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      sum += w[r] * y[r];
      weight += w[r];
      if (y[r] < lo) lo = y[r];
      if (y[r] > hi) hi = y[r];
    }
    this.nodeWeight = weight;
    this.nodeSum = sum;
    return lo === hi;
  }

  /** The split score of "no split", so score − parentScore is the weighted impurity decrease. */
  private parentScore(): number {
    return this.target.kind === 'classification'
      ? this.nodeSqSum / this.nodeWeight
      : (this.nodeSum * this.nodeSum) / this.nodeWeight;
  }

  private leafValue(): number[] {
    if (this.target.kind === 'regression') return [this.nodeSum / this.nodeWeight];
    return Array.from(this.total, (t) => t / this.nodeWeight);
  }

  private findSplit(start: number, end: number, w: Float64Array, rng: SeededRandom): void {
    const order = this.featureOrder;
    let examined = 0;
    for (let j = 0; j < this.nFeatures && examined < this.params.maxFeatures; j++) {
      const pick = j + rng.int(this.nFeatures - j);
      const f = order[pick];
      order[pick] = order[j];
      order[j] = f;
      const informative = this.params.randomThresholds
        ? this.randomSplit(f, start, end, w, rng)
        : this.bestSplit(f, start, end, w);
      if (informative) examined++;
    }
  }

  /** Sorts the node's rows by bin into `sorted`; returns false when the feature is constant here. */
  private sortByBin(f: number, start: number, end: number): boolean {
    const bins = this.data.bins[f];
    const rows = this.rows;
    const sorted = this.sorted;
    const n = end - start;
    const nb = this.nBins[f];
    if (n <= INSERTION_SORT_MAX) {
      for (let i = 0; i < n; i++) {
        const r = rows[start + i];
        const b = bins[r];
        let j = i - 1;
        while (j >= 0 && bins[sorted[j]] > b) {
          sorted[j + 1] = sorted[j];
          j--;
        }
        sorted[j + 1] = r;
      }
    } else if (n > 4 * nb) {
      const count = this.binCount;
      count.fill(0, 0, nb + 1);
      for (let i = start; i < end; i++) count[bins[rows[i]] + 1]++;
      for (let b = 1; b <= nb; b++) count[b] += count[b - 1];
      for (let i = start; i < end; i++) sorted[count[bins[rows[i]]]++] = rows[i];
    } else {
      // Pack (bin, position) so a numeric sort orders by bin.
      const keys = this.keys.subarray(0, n);
      for (let i = 0; i < n; i++) keys[i] = (bins[rows[start + i]] << 23) | i;
      keys.sort();
      for (let i = 0; i < n; i++) sorted[i] = rows[start + (keys[i] & 0x7fffff)];
    }
    return bins[sorted[0]] !== bins[sorted[n - 1]];
  }

  private consider(score: number, f: number, bin: number, nextBin: number, missingLeft: boolean): void {
    if (score > this.bestScore) {
      this.bestScore = score;
      this.bestFeature = f;
      this.bestBin = bin;
      this.bestNextBin = nextBin;
      this.bestMissingLeft = missingLeft;
    }
  }

  private bestSplit(f: number, start: number, end: number, w: Float64Array): boolean {
    if (!this.sortByBin(f, start, end)) return false;
    if (this.target.kind === 'classification') this.scanClasses(f, end - start, w, this.target.y);
    else this.scanRegression(f, end - start, w, this.target.y);
    return true;
  }

  /**
   * Variant A sends missing rows left (they sort first), variant B sends them right; both are
   * updated incrementally (Σ class weight² per side) so each boundary costs O(1).
   */
  private scanClasses(f: number, n: number, w: Float64Array, y: Int32Array): void {
    const bins = this.data.bins[f];
    const sorted = this.sorted;
    const k = this.k;
    const { total, leftA, rightA, leftB, rightB } = this;
    const minLeaf = this.params.minSamplesLeaf;
    leftA.fill(0);
    let i = 0;
    while (i < n && bins[sorted[i]] === 0) {
      leftA[y[sorted[i]]] += w[sorted[i]];
      i++;
    }
    const nMissing = i;
    const hasMissing = nMissing > 0;
    let sqLA = 0;
    let sqRA = 0;
    let wLA = 0;
    for (let c = 0; c < k; c++) {
      rightA[c] = total[c] - leftA[c];
      sqLA += leftA[c] * leftA[c];
      sqRA += rightA[c] * rightA[c];
      wLA += leftA[c];
    }
    let wRA = this.nodeWeight - wLA;
    let sqLB = 0;
    let sqRB = this.nodeSqSum;
    let wLB = 0;
    let wRB = this.nodeWeight;
    if (hasMissing) {
      leftB.fill(0);
      rightB.set(total);
    }
    for (; i < n; i++) {
      const r = sorted[i];
      const c = y[r];
      const wr = w[r];
      sqLA += wr * (2 * leftA[c] + wr);
      sqRA += wr * (wr - 2 * rightA[c]);
      leftA[c] += wr;
      rightA[c] -= wr;
      wLA += wr;
      wRA -= wr;
      if (hasMissing) {
        sqLB += wr * (2 * leftB[c] + wr);
        sqRB += wr * (wr - 2 * rightB[c]);
        leftB[c] += wr;
        rightB[c] -= wr;
        wLB += wr;
        wRB -= wr;
      }
      const bin = bins[r];
      const nextBin = i + 1 === n ? -1 : bins[sorted[i + 1]];
      if (nextBin === bin) continue;
      const nLeftA = i + 1;
      if (nextBin > 0 && nLeftA >= minLeaf && n - nLeftA >= minLeaf) this.consider(sqLA / wLA + sqRA / wRA, f, bin, nextBin, true);
      const nLeftB = nLeftA - nMissing;
      if (hasMissing && nLeftB >= minLeaf && n - nLeftB >= minLeaf) {
        this.consider(sqLB / wLB + sqRB / wRB, f, bin, nextBin, false);
      }
    }
  }

  private scanRegression(f: number, n: number, w: Float64Array, y: Float64Array): void {
    const bins = this.data.bins[f];
    const sorted = this.sorted;
    const minLeaf = this.params.minSamplesLeaf;
    let sMissing = 0;
    let wMissing = 0;
    let i = 0;
    while (i < n && bins[sorted[i]] === 0) {
      const r = sorted[i];
      sMissing += w[r] * y[r];
      wMissing += w[r];
      i++;
    }
    const nMissing = i;
    const hasMissing = nMissing > 0;
    const sTotal = this.nodeSum;
    const wTotal = this.nodeWeight;
    let sL = sMissing; // variant B's left = variant A's left minus the missing rows
    let wL = wMissing;
    for (; i < n; i++) {
      const r = sorted[i];
      sL += w[r] * y[r];
      wL += w[r];
      const bin = bins[r];
      const nextBin = i + 1 === n ? -1 : bins[sorted[i + 1]];
      if (nextBin === bin) continue;
      const nLeftA = i + 1;
      if (nextBin > 0 && nLeftA >= minLeaf && n - nLeftA >= minLeaf) {
        const sR = sTotal - sL;
        this.consider((sL * sL) / wL + (sR * sR) / (wTotal - wL), f, bin, nextBin, true);
      }
      const nLeftB = nLeftA - nMissing;
      if (hasMissing && nLeftB >= minLeaf && n - nLeftB >= minLeaf) {
        const sLB = sL - sMissing;
        const wLB = wL - wMissing;
        const sRB = sTotal - sLB;
        this.consider((sLB * sLB) / wLB + (sRB * sRB) / (wTotal - wLB), f, bin, nextBin, false);
      }
    }
  }

  /** Extra-trees split: one random threshold (and random side for missing values) per feature. */
  private randomSplit(f: number, start: number, end: number, w: Float64Array, rng: SeededRandom): boolean {
    const bins = this.data.bins[f];
    const rows = this.rows;
    let lo = 256;
    let hi = 0;
    let hasMissing = false;
    for (let i = start; i < end; i++) {
      const b = bins[rows[i]];
      if (b === 0) hasMissing = true;
      else {
        if (b < lo) lo = b;
        if (b > hi) hi = b;
      }
    }
    if (hi === 0 || (lo === hi && !hasMissing)) return false;
    const splitBin = lo === hi ? hi : lo + rng.int(hi - lo);
    const missingLeft = lo === hi ? false : rng.next() < 0.5;
    let nLeft = 0;
    let wL = 0;
    let score: number;
    if (this.target.kind === 'classification') {
      const y = this.target.y;
      const left = this.leftA;
      left.fill(0);
      for (let i = start; i < end; i++) {
        const r = rows[i];
        const b = bins[r];
        if (b === 0 ? missingLeft : b <= splitBin) {
          left[y[r]] += w[r];
          wL += w[r];
          nLeft++;
        }
      }
      let sqL = 0;
      let sqR = 0;
      for (let c = 0; c < this.k; c++) {
        const rc = this.total[c] - left[c];
        sqL += left[c] * left[c];
        sqR += rc * rc;
      }
      score = sqL / wL + sqR / (this.nodeWeight - wL);
    } else {
      const y = this.target.y;
      let sL = 0;
      for (let i = start; i < end; i++) {
        const r = rows[i];
        const b = bins[r];
        if (b === 0 ? missingLeft : b <= splitBin) {
          sL += w[r] * y[r];
          wL += w[r];
          nLeft++;
        }
      }
      const sR = this.nodeSum - sL;
      score = (sL * sL) / wL + (sR * sR) / (this.nodeWeight - wL);
    }
    const minLeaf = this.params.minSamplesLeaf;
    const nextBin = lo === hi ? -1 : splitBin + 1;
    if (nLeft >= minLeaf && end - start - nLeft >= minLeaf) this.consider(score, f, splitBin, nextBin, missingLeft);
    return true;
  }

  /** Reorders rows[start, end) so the left child's rows come first; returns the boundary. */
  private partition(start: number, end: number): number {
    const bins = this.data.bins[this.bestFeature];
    const splitBin = this.bestBin;
    const missingLeft = this.bestMissingLeft;
    const rows = this.rows;
    let i = start;
    let j = end - 1;
    while (i <= j) {
      const b = bins[rows[i]];
      if (b === 0 ? missingLeft : b <= splitBin) i++;
      else {
        const t = rows[i];
        rows[i] = rows[j];
        rows[j] = t;
        j--;
      }
    }
    return i;
  }
}
