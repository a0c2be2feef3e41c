/** A fitted random forest / extra-trees model: flat trees, input columns, importances, JSON form. */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import {
  deserializeFlatForest,
  predictFlatForest,
  serializeFlatForest,
  type FlatForest,
  type SerializedFlatForest,
} from './flat-forest.js';
import { alignedValues, type InputColumn } from './input-columns.js';
import { ExplanationUnavailable, TREE_PARTS, type ExplainOptions, type Explanation } from '../../explain/explanation.js';
import { expectedValue, pathWork, rowsFor, treeShap, type ShapTrees, type SplitRows } from '../../explain/tree-shap.js';

export type ForestKind = 'random_forest' | 'extra_trees';

export const FOREST_ALGORITHMS: Record<ForestKind, AlgorithmInfo> = {
  random_forest: {
    key: 'random_forest',
    name: 'Random Forest',
    description: 'Average of fully grown decision trees, each fitted on a bootstrap sample with random feature subsets per split.',
  },
  extra_trees: {
    key: 'extra_trees',
    name: 'Extremely Randomized Trees',
    description: 'Average of fully grown decision trees with randomly drawn split thresholds, fitted on all rows.',
  },
};

export class ForestModel implements TrainedModel {
  readonly algorithm: AlgorithmInfo;
  readonly warnings: readonly string[] = [];

  constructor(
    readonly kind: ForestKind,
    readonly task: Task,
    readonly params: Readonly<Record<string, unknown>>,
    private readonly inputs: InputColumn[],
    private readonly forest: FlatForest,
    private readonly importance: number[],
  ) {
    this.algorithm = FOREST_ALGORITHMS[kind];
  }

  get nTrees(): number {
    return this.forest.treeRoots.length;
  }

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  decide(scores: Float64Array): Float64Array {
    return pointPredictions(this.task, scores);
  }

  /** Regression: the mean of the trees; classification: the mean of their leaves' class shares. */
  predictScores(frame: Frame): Float64Array {
    return predictFlatForest(this.forest, alignedValues(this.inputs, frame), frame.nRows);
  }

  featureImportance(): Record<string, number> {
    return Object.fromEntries(this.inputs.map((c, j) => [c.name, this.importance[j]]));
  }

  private work = -1;

  readonly explainsByTreeParts = true;

  explainWork(): number {
    if (!this.forest.cover) return 0; // explain() says why it cannot
    if (this.work < 0) {
      // The trees TreeSHAP runs on: without the class left out by difference, zero leaves counted as the kernel skips them.
      const { trees, byDifference } = this.plan();
      this.work = pathWork(byDifference?.trees ?? trees);
    }
    return this.work;
  }

  /** The trees as TreeSHAP's node table (leaves scaled by 1/trees: the forest's average), and the frame's rows with the split rules. */
  shapTrees(frame: Frame): { trees: ShapTrees; rows: SplitRows } {
    const f = this.forest;
    const trees = this.plan().trees;
    const rows = rowsFor(trees, alignedValues(this.inputs, frame), frame.nRows, { threshold: f.threshold, defaultLeft: f.missingLeft });
    return { trees, rows };
  }

  // A forest is explained as TREE_PARTS parts (explanation.ts), each needing the same node table: built once.
  private explainPlan: { trees: ShapTrees; expected: Float64Array; byDifference: ByDifference | null } | null = null;

  private plan(): { trees: ShapTrees; expected: Float64Array; byDifference: ByDifference | null } {
    if (this.explainPlan) return this.explainPlan;
    const f = this.forest;
    if (!f.cover) {
      throw new ExplanationUnavailable('This model was trained before Sibyl kept the training covers of its trees, which explanations need; train it again to get explanations.');
    }
    const k = f.nOutputs;
    const nNodes = f.feature.length;
    const leafValue = new Float64Array(nNodes * k);
    const scale = 1 / f.treeRoots.length;
    for (let node = 0; node < nNodes; node++) {
      if (f.feature[node]! >= 0) continue;
      const at = f.threshold[node]!;
      for (let c = 0; c < k; c++) leafValue[node * k + c] = f.leafOutputs[at + c]! * scale;
    }
    const trees: ShapTrees = {
      roots: f.treeRoots, left: f.left, right: f.right, feature: f.feature, cover: f.cover, leafValue,
      treeOutput: new Int32Array(f.treeRoots.length).fill(-1), outputs: k, ensemble: 'forest',
    };
    const byDifference = this.task.kind === 'classification' && k > 1 && sharesSumToOne(trees) ? leaveOneClassOut(trees) : null;
    return (this.explainPlan = { trees, expected: expectedValue(trees), byDifference });
  }

  /** Exact TreeSHAP of the forest's average: class probabilities (classification) or the value. */
  explain(frame: Frame, opts?: ExplainOptions): Explanation {
    const { trees, rows } = this.shapTrees(frame);
    const { expected, byDifference } = this.plan();
    const k = trees.outputs;
    const classification = this.task.kind === 'classification';
    const batchRows = opts?.batchRows ?? frame.nRows;
    const parts = opts?.treeParts && { indices: opts.treeParts, of: TREE_PARTS };
    const nf = this.inputs.length;
    const values = byDifference
      ? withLeftOutClass(byDifference, treeShap(byDifference.trees, nf, rows, 'auto', batchRows, parts), rows.nRows * (parts ? parts.indices.length : 1), nf)
      : treeShap(trees, nf, rows, 'auto', batchRows, parts);
    return {
      scale: classification ? 'probability' : 'value',
      outputClasses: classification ? Array.from({ length: k }, (_, c) => c) : [null],
      features: this.inputs.map((c) => c.name),
      nRows: frame.nRows,
      base: Float64Array.from(expected),
      values,
      exact: true,
    };
  }

  toJSON(): SerializedModel {
    return {
      ...artifactHeader(this.kind, this.task, this.params),
      inputs: this.inputs,
      importance: this.importance,
      forest: serializeFlatForest(this.forest),
    };
  }
}

/** Whether every leaf's class shares add up to the same total (the forest's 1/trees): then the classes' contributions sum to 0. */
function sharesSumToOne(t: ShapTrees): boolean {
  const k = t.outputs;
  const scale = 1 / t.roots.length;
  for (let node = 0; node < t.left.length; node++) {
    if (t.left[node]! >= 0) continue;
    let total = 0;
    for (let c = 0; c < k; c++) total += t.leafValue[node * k + c]!;
    if (Math.abs(total - scale) > 1e-12 * scale) return false;
  }
  return true;
}

/** The trees with every class's leaf values but the left-out class's; that class's contributions are minus the others' sum. */
interface ByDifference {
  trees: ShapTrees;
  /** The class left out, and the others in the order of trees' outputs. */
  dropped: number;
  kept: Int32Array;
}

/**
 * TreeSHAP of all classes but one, that class by difference. Exact: contributions are linear in
 * the leaf values, and the classes' shares add up to the same constant at every leaf, whose
 * contributions are all 0. The class left out is the one that is alone at the most leaves (ties: the
 * lowest): those leaves then hold only zeros, which the TreeSHAP kernel skips, and a pure leaf (all
 * fully grown classification trees' leaves) has one value other than 0, the only output it adds hot
 * terms to (tree-shap-kernel.wat). Saves 1/k of the per-leaf work or more (half, for two classes).
 */
function leaveOneClassOut(t: ShapTrees): ByDifference {
  const k = t.outputs;
  const nodes = t.left.length;
  const alone = new Int32Array(k);
  for (let node = 0; node < nodes; node++) {
    if (t.left[node]! >= 0) continue;
    let only = -1;
    for (let c = 0; c < k; c++) {
      if (t.leafValue[node * k + c] === 0) continue;
      only = only === -1 ? c : -2;
    }
    if (only >= 0) alone[only]!++;
  }
  let dropped = 0;
  for (let c = 1; c < k; c++) if (alone[c]! > alone[dropped]!) dropped = c;
  const kept = Int32Array.from({ length: k - 1 }, (_, i) => (i < dropped ? i : i + 1));
  const leafValue = new Float64Array(nodes * (k - 1));
  for (let node = 0; node < nodes; node++) for (let i = 0; i < k - 1; i++) leafValue[node * (k - 1) + i] = t.leafValue[node * k + kept[i]!]!;
  return { trees: { ...t, leafValue, outputs: k - 1 }, dropped, kept };
}

/** All k classes' contributions from the k − 1 explained (rows × (k − 1) × features; tree parts one after another count as more rows). */
function withLeftOutClass(b: ByDifference, some: Float64Array, nRows: number, nFeatures: number): Float64Array {
  const k = b.kept.length + 1;
  const values = new Float64Array(nRows * k * nFeatures);
  for (let r = 0; r < nRows; r++) {
    const last = (r * k + b.dropped) * nFeatures;
    for (let i = 0; i < k - 1; i++) {
      const from = (r * (k - 1) + i) * nFeatures;
      const to = (r * k + b.kept[i]!) * nFeatures;
      for (let f = 0; f < nFeatures; f++) {
        values[to + f] = some[from + f]!;
        values[last + f]! -= some[from + f]!;
      }
    }
  }
  return values;
}

export function loadForest(json: SerializedModel): ForestModel {
  if (json.format !== 'sibyl-model' || (json.kind !== 'random_forest' && json.kind !== 'extra_trees')) {
    throw new Error(`not a forest model: kind ${json.kind}`);
  }
  if (json.version !== ARTIFACT_VERSION) throw new Error(`unsupported forest model version ${json.version}`);
  return new ForestModel(
    json.kind,
    json.task as Task,
    json.params ?? {},
    json.inputs as InputColumn[],
    deserializeFlatForest(json.forest as SerializedFlatForest),
    json.importance as number[],
  );
}
