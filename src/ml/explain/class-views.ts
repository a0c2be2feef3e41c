/**
 * The class views of a tree with vector leaves (tree-shap-wasm.ts classViews): for each output with a
 * leaf other than 0, the splits above those leaves, the leaves, and the children of those splits the
 * view leaves out, each list in preorder, one view after another. One bottom-up pass gives every node
 * the bit set of outputs with a leaf other than 0 below it; the lists are then laid out from the sets
 * in two passes (count, write) that visit each node once per output in its set — the views' total
 * size, not outputs × nodes as a pass per output did (letter forest: 2.6·10⁶ view splits against
 * 25 × 1.2·10⁶ nodes a forest).
 */
import type { KernelTree } from './tree-shap-wasm.js';

type ViewTree = Pick<KernelTree, 'nodes' | 'leftAt' | 'rightAt' | 'slotAt' | 'leafNode'>;

function grown(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return a.length >= n ? a : new Int32Array(2 * n);
}

export class ClassViews {
  /** Nodes (preorder numbers) of the views' splits, leaves (their slotAt) and left-out children. */
  splits = new Int32Array(64);
  leaves = new Int32Array(64);
  zero = new Int32Array(64);
  /** View v's lists start at start[3v] (splits), start[3v + 1] (leaves), start[3v + 2] (left-out children); view nv's are the ends. */
  start = new Int32Array(64);
  /** The output each view explains, ascending. */
  output = new Int32Array(64);
  count = 0;
  /** Per node, `words` i32 of the bit set of outputs with a leaf other than 0 in its subtree. */
  private sets = new Int32Array(64);
  private words = 1;
  /** Per output, where its next split, leaf and left-out child go (3 a output). */
  private cursor = new Int32Array(64);

  /** The views of tree p whose leaves' values for k outputs are leafValue[leafNode × k + output]. */
  build(p: ViewTree, leafValue: Float64Array, k: number): void {
    const m = p.nodes;
    const words = (k + 31) >> 5;
    this.words = words;
    this.sets = grown(this.sets, m * words);
    const sets = this.sets;
    for (let a = m - 1; a >= 0; a--) {
      const la = p.leftAt[a]!;
      const at = a * words;
      if (la >= 0) {
        const ra = p.rightAt[a]!;
        for (let w = 0; w < words; w++) sets[at + w] = sets[la * words + w]! | sets[ra * words + w]!;
        continue;
      }
      sets.fill(0, at, at + words);
      const from = p.leafNode[p.slotAt[a]!]! * k;
      for (let c = 0; c < k; c++) if (leafValue[from + c] !== 0) sets[at + (c >> 5)]! |= 1 << (c & 31);
    }
    this.cursor = grown(this.cursor, 3 * k);
    this.cursor.fill(0, 0, 3 * k);
    this.layOut(p, false);
    // Counts → starts, views only for outputs with a leaf other than 0 (those in the root's set).
    this.start = grown(this.start, 3 * (k + 1));
    this.output = grown(this.output, k);
    let nv = 0;
    let s = 0;
    let l = 0;
    let z = 0;
    for (let c = 0; c < k; c++) {
      if (!this.has(0, c)) continue;
      this.start[3 * nv] = s;
      this.start[3 * nv + 1] = l;
      this.start[3 * nv + 2] = z;
      this.output[nv++] = c;
      const [cs, cl, cz] = [this.cursor[3 * c]!, this.cursor[3 * c + 1]!, this.cursor[3 * c + 2]!];
      this.cursor[3 * c] = s;
      this.cursor[3 * c + 1] = l;
      this.cursor[3 * c + 2] = z;
      s += cs;
      l += cl;
      z += cz;
    }
    this.start[3 * nv] = s;
    this.start[3 * nv + 1] = l;
    this.start[3 * nv + 2] = z;
    this.count = nv;
    this.splits = grown(this.splits, s);
    this.leaves = grown(this.leaves, l);
    this.zero = grown(this.zero, z);
    this.layOut(p, true);
  }

  private has(node: number, c: number): boolean {
    return (this.sets[node * this.words + (c >> 5)]! & (1 << (c & 31))) !== 0;
  }

  /** Every node to the lists of the outputs in its set, in preorder: counted (cursors from 0) or written at the cursors. */
  private layOut(p: ViewTree, write: boolean): void {
    const { sets, words, cursor } = this;
    for (let a = 0; a < p.nodes; a++) {
      const la = p.leftAt[a]!;
      const ra = p.rightAt[a]!;
      for (let w = 0; w < words; w++) {
        for (let bits = sets[a * words + w]!; bits !== 0; bits &= bits - 1) {
          const c = 32 * w + 31 - Math.clz32(bits & -bits);
          if (la < 0) {
            if (write) this.leaves[cursor[3 * c + 1]!] = p.slotAt[a]!;
            cursor[3 * c + 1]!++;
            continue;
          }
          if (write) this.splits[cursor[3 * c]!] = a;
          cursor[3 * c]!++;
          if (!this.has(la, c)) {
            if (write) this.zero[cursor[3 * c + 2]!] = la;
            cursor[3 * c + 2]!++;
          }
          if (!this.has(ra, c)) {
            if (write) this.zero[cursor[3 * c + 2]!] = ra;
            cursor[3 * c + 2]!++;
          }
        }
      }
    }
  }
}
