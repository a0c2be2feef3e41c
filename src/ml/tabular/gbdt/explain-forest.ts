/**
 * TreeSHAP for the compiled GBDT: its flat trees laid out as one ShapTrees node table (split nodes,
 * then leaves, per tree), split nodes' covers summed from their leaves' training rows.
 */
import type { Frame } from '../../frame.js';
import { TREE_PARTS, type Explanation, type ExplanationScale } from '../../explain/explanation.js';
import { expectedValue, rowsFor, treeShap, type ShapTrees, type SplitRows } from '../../explain/tree-shap.js';
import type { Forest } from './compiled-forest.js';

/** What explaining a forest needs from its trees alone: the node table and the trees' expected values. */
export interface GbdtExplainPlan {
  trees: TreeTable;
  expected: Float64Array;
}

/** The forest's explain plan (GbdtModel keeps it: a forest is explained as TREE_PARTS parts, explanation.ts, each needing it). */
export function gbdtExplainPlan(forest: Forest): GbdtExplainPlan {
  const trees = gbdtTreeTable(forest);
  return { trees, expected: expectedValue(trees) };
}

/** batchRows: the rows of the whole batch `frame` is part of; treeParts: only those parts' trees, each part's values in turn (explanation.ts ExplainOptions). */
export function explainForest(
  forest: Forest, plan: GbdtExplainPlan, frame: Frame, scale: ExplanationScale, batchRows = frame.nRows, treeParts?: readonly number[],
): Explanation {
  const { trees, rows } = gbdtShapTrees(forest, frame, plan.trees);
  const k = forest.numScores;
  const parts = treeParts && { indices: treeParts, of: TREE_PARTS };
  const values = treeShap(trees, forest.features.length, rows, 'auto', batchRows, parts);
  const expected = Float64Array.from(plan.expected);
  for (let c = 0; c < k; c++) expected[c]! += forest.initScores[c]!;
  const outputClasses = scale === 'logOdds' ? [1] : scale === 'margin' ? Array.from({ length: k }, (_, c) => c) : [null];
  return { scale, outputClasses, features: forest.features.map((f) => f.name), nRows: frame.nRows, base: expected, values, exact: true };
}

/** The forest as one node table (`table`, when built already), and the frame's rows with the split rules of its nodes. */
export function gbdtShapTrees(forest: Forest, frame: Frame, table?: TreeTable): { trees: ShapTrees; rows: SplitRows } {
  const t = table ?? gbdtTreeTable(forest);
  return { trees: t, rows: rowsFor(t, forest.inputColumns(frame), frame.nRows, t.rules) };
}

type TreeTable = ShapTrees & { rules: { threshold: Float64Array; defaultLeft: Uint8Array; catOffset: Int32Array; catBits: Uint32Array } };

/** The trees as one node table, with each split node's rule (the compiled forest's, renumbered). */
export function gbdtTreeTable(forest: Forest): TreeTable {
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
    ensemble: 'boosted',
  };
  const rules = { threshold: new Float64Array(nNodes), defaultLeft: new Uint8Array(nNodes), catOffset: new Int32Array(nNodes).fill(-1), catBits: a.catBits };
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
      rules.threshold[base + j] = a.threshold[o]!;
      rules.defaultLeft[base + j] = a.defaultLeft[o]!;
      rules.catOffset[base + j] = a.catOffset[o]!;
    }
    // Children are always created after their parent: covers summed from the last split node back.
    for (let j = splits - 1; j >= 0; j--) t.cover[base + j] = t.cover[t.left[base + j]!]! + t.cover[t.right[base + j]!]!;
    base += splits + leaves;
  }
  return { ...t, rules };
}
