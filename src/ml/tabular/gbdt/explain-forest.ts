/**
 * TreeSHAP for the compiled GBDT: its flat trees laid out as one ShapTrees node table (split nodes,
 * then leaves, per tree), split nodes' covers summed from their leaves' training rows.
 */
import type { Frame } from '../../frame.js';
import type { Explanation, ExplanationScale } from '../../explain/explanation.js';
import { expectedValue, treeShap, type Decide, type ShapTrees } from '../../explain/tree-shap.js';
import type { Forest } from './compiled-forest.js';

export function explainForest(forest: Forest, frame: Frame, scale: ExplanationScale): Explanation {
  const { trees, decide } = gbdtShapTrees(forest, frame);
  const k = forest.numScores;
  const values = treeShap(trees, forest.features.length, frame.nRows, decide);
  const expected = expectedValue(trees);
  for (let c = 0; c < k; c++) expected[c]! += forest.initScores[c]!;
  const outputClasses = scale === 'logOdds' ? [1] : scale === 'margin' ? Array.from({ length: k }, (_, c) => c) : [null];
  return { scale, outputClasses, features: forest.features.map((f) => f.name), nRows: frame.nRows, base: expected, values, exact: true };
}

/** The forest as one node table, and the decision of each split node for the frame's rows. */
export function gbdtShapTrees(forest: Forest, frame: Frame): { trees: ShapTrees; decide: Decide } {
  const t = gbdtTreeTable(forest);
  return { trees: t, decide: gbdtDecisions(forest, t, frame) };
}

/** The trees as one node table; `flatNode` maps a split node back to the compiled forest's. */
export function gbdtTreeTable(forest: Forest): ShapTrees & { flatNode: Int32Array } {
  const a = forest.arrays;
  const leafCover = forest.leafCover!;
  const k = forest.numScores;
  const nTrees = forest.numTrees;
  const nNodes = a.nodeOffset[nTrees]! + a.leafOffset[nTrees]!;
  const t: ShapTrees = {
    roots: new Int32Array(nTrees),
    left: new Int32Array(nNodes).fill(-1),
    right: new Int32Array(nNodes).fill(-1),
    feature: new Int32Array(nNodes),
    cover: new Float64Array(nNodes),
    leafValue: new Float64Array(nNodes * k),
    treeOutput: new Int32Array(nTrees),
    outputs: k,
  };
  // The flat forest's node of each unified split node (−1 for leaves), for the decisions.
  const flatNode = new Int32Array(nNodes).fill(-1);
  let base = 0;
  for (let tree = 0; tree < nTrees; tree++) {
    const n0 = a.nodeOffset[tree]!;
    const splits = a.nodeOffset[tree + 1]! - n0;
    const l0 = a.leafOffset[tree]!;
    const leaves = a.leafOffset[tree + 1]! - l0;
    const output = tree % k;
    t.treeOutput[tree] = output;
    t.roots[tree] = base; // split node 0, or the single leaf
    const id = (child: number) => (child >= 0 ? base + child : base + splits + ~child);
    for (let l = 0; l < leaves; l++) {
      t.cover[base + splits + l] = leafCover[l0 + l]!;
      t.leafValue[(base + splits + l) * k + output] = a.leafValue[l0 + l]!;
    }
    for (let j = 0; j < splits; j++) {
      const o = n0 + j;
      const f = a.feature[o]!;
      t.feature[base + j] = f < 0 ? ~f : f;
      t.left[base + j] = id(a.children[2 * o]!);
      t.right[base + j] = id(a.children[2 * o + 1]!);
      flatNode[base + j] = o;
    }
    // Children are always created after their parent: covers summed from the last split node back.
    for (let j = splits - 1; j >= 0; j--) t.cover[base + j] = t.cover[t.left[base + j]!]! + t.cover[t.right[base + j]!]!;
    base += splits + leaves;
  }
  return { ...t, flatNode };
}

function gbdtDecisions(forest: Forest, t: ShapTrees & { flatNode: Int32Array }, frame: Frame): Decide {
  const a = forest.arrays;
  const flatNode = t.flatNode;
  const nf = forest.features.length;
  const columns = forest.inputColumns(frame);
  const n = frame.nRows;
  const x = new Float64Array(n * nf);
  for (let f = 0; f < nf; f++) {
    const col = columns[f]!;
    for (let r = 0; r < n; r++) x[r * nf + f] = col[r]!;
  }
  const decide: Decide = (node, row) => {
    const o = flatNode[node]!;
    const f = t.feature[node]!;
    const v = x[row * nf + f]!;
    const cat = a.catOffset[o]!;
    if (cat >= 0) return ((a.catBits[cat + (v >>> 5)]! >>> (v & 31)) & 1) === 1;
    return v !== v ? a.defaultLeft[o] === 1 : v <= a.threshold[o]!;
  };
  return decide;
}
