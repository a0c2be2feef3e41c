/**
 * The forest as the wasm score kernel walks it (kernels.wat, score4 and score1): made when a forest is copied
 * into kernel memory, never saved (a model's saved form stays ForestArrays).
 *
 * Why this shape: a walk step used to load the feature, the threshold, the children and the default
 * side from four arrays, the child index only after the comparison. Here each node is one 16-byte
 * record (four to a cache line, one load away): [threshold f64 | word i32 | right child i32], nodes
 * of a tree in pre-order, so the left child is the next record and the right child's index sits in
 * the record read for the comparison. Leaves are records too, whose step leads back to themselves,
 * so lanes that reach a leaf early can keep stepping without a branch until every lane is done.
 *
 * word = feature << 3 | categorical << 1 | defaultLeft; the sign bit marks a leaf (word = LEAF_WORD).
 * Numeric node: left when value ≤ threshold, NaN left iff defaultLeft (the rule the kernel has always
 * applied, so scores are bit-identical to those of the saved arrays' walk). Categorical node: the threshold's low 32 bits
 * hold its first word in catBits; left when the bin's bit is set. Leaf: threshold NaN and not
 * defaultLeft, so every value (NaN too) goes right, and a leaf's right child is itself.
 */
import type { ForestArrays } from './compiled-forest.js';

export const NODE_BYTES = 16;
/** Sign bit (leaf), not defaultLeft (NaN goes right too), feature 0, numeric. */
export const LEAF_WORD = 0x80000000 | 0;

export interface WalkLayout {
  /** NODE_BYTES per node, every tree's nodes in pre-order from its root; the right child as its byte offset in nodes. */
  nodes: Uint8Array;
  /** Per node: the leaf's value (0 for split nodes), read once a walk ends there. */
  value: Float64Array;
  /** Global node index of tree t's root. */
  treeRoot: Int32Array;
  catBits: Uint32Array;
}

export function walkLayout(a: ForestArrays): WalkLayout {
  const nTrees = a.nodeOffset.length - 1;
  // Split nodes plus their leaves (one more than the splits; an empty tree is one leaf).
  const total = 2 * a.nodeOffset[nTrees] + nTrees;
  const buffer = new ArrayBuffer(total * NODE_BYTES);
  const threshold = new Float64Array(buffer);
  const ints = new Int32Array(buffer);
  const value = new Float64Array(total);
  const treeRoot = new Int32Array(nTrees);
  let next = 0;
  for (let t = 0; t < nTrees; t++) {
    const n0 = a.nodeOffset[t];
    const l0 = a.leafOffset[t];
    // child: a tree-local split node ≥ 0 or leaf ~c; returns the global index it was laid out at.
    const emit = (child: number): number => {
      const at = next++;
      const w = 4 * at + 2;
      if (child < 0) {
        threshold[2 * at] = NaN;
        ints[w] = LEAF_WORD;
        ints[w + 1] = at * NODE_BYTES;
        value[at] = a.leafValue[l0 + ~child];
        return at;
      }
      const i = n0 + child;
      const f = a.feature[i];
      if (f < 0) {
        ints[4 * at] = a.catOffset[i];
        ints[w] = (~f << 3) | 2 | a.defaultLeft[i];
      } else {
        threshold[2 * at] = a.threshold[i];
        ints[w] = (f << 3) | a.defaultLeft[i];
      }
      emit(a.children[2 * i]); // lands at at + 1
      ints[w + 1] = emit(a.children[2 * i + 1]) * NODE_BYTES;
      return at;
    };
    treeRoot[t] = emit(a.nodeOffset[t + 1] > n0 ? 0 : ~0);
  }
  if (next !== total) throw new Error(`GBDT: walk layout has ${next} nodes, expected ${total}`);
  return { nodes: new Uint8Array(buffer), value, treeRoot, catBits: a.catBits };
}
