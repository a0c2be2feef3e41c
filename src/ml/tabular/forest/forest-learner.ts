/**
 * Random forest (bootstrap + best split among √p features for classes, all for regression) and
 * extra trees (all rows, random thresholds), with scikit-learn's defaults: 300 fully grown trees,
 * min_samples_leaf 1; probability = mean of the leaves' class distributions.
 */
import type { AlgorithmInfo, FitOptions, Frame, Learner, Task } from '../../frame.js';
import { binFrame, MAX_BINS } from './binning.js';
import { FlatForestBuilder } from './flat-forest.js';
import { FOREST_ALGORITHMS, ForestModel, type ForestKind } from './forest-model.js';
import { describeColumns } from './input-columns.js';
import { SeededRandom } from '../../core/random.js';
import { TreeGrower, type TreeTarget } from './tree-grower.js';

export interface ForestParams {
  nTrees: number;
  /** 'sqrt' = ⌊√p⌋, a number in (0, 1] = that share of the features; undefined = √p for classes, all for regression. */
  maxFeatures?: 'sqrt' | number;
  minSamplesLeaf: number;
  /** Cap on depth so pathological data cannot blow up memory; trees are otherwise fully grown. */
  maxDepth: number;
  bootstrap: boolean;
  maxBins: number;
}

const COMMON_DEFAULTS = { nTrees: 300, minSamplesLeaf: 1, maxDepth: 40, maxBins: MAX_BINS };
export const DEFAULT_RANDOM_FOREST_PARAMS: ForestParams = { ...COMMON_DEFAULTS, bootstrap: true };
export const DEFAULT_EXTRA_TREES_PARAMS: ForestParams = { ...COMMON_DEFAULTS, bootstrap: false };

abstract class ForestLearner implements Learner<ForestParams> {
  readonly algorithm: AlgorithmInfo;
  readonly params: ForestParams;

  protected constructor(
    private readonly kind: ForestKind,
    defaults: ForestParams,
    params: Partial<ForestParams>,
  ) {
    this.algorithm = FOREST_ALGORITHMS[kind];
    this.params = { ...defaults, ...params };
  }

  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): ForestModel {
    const n = frame.nRows;
    if (n === 0) throw new Error('cannot fit a forest on zero rows');
    if (target.length !== n) throw new Error(`target has ${target.length} values for ${n} rows`);
    const treeTarget = toTreeTarget(target, task);
    const nOutputs = treeTarget.kind === 'classification' ? treeTarget.nClasses : 1;
    const binned = binFrame(frame, this.params.maxBins);
    const p = frame.columns.length;
    const grower = new TreeGrower(binned, treeTarget, {
      maxFeatures: this.featuresPerSplit(p, task),
      minSamplesLeaf: this.params.minSamplesLeaf,
      maxDepth: this.params.maxDepth,
      randomThresholds: this.kind === 'extra_trees',
    });
    const builder = new FlatForestBuilder(nOutputs, binned.binLow, binned.binHigh, treeTarget.kind === 'classification');
    const rng = new SeededRandom(opts.seed);
    const rowWeight = new Float64Array(n);
    const importance = new Float64Array(p);
    const treeImportance = new Float64Array(p);
    for (let t = 0; t < this.params.nTrees; t++) {
      this.sampleRows(rowWeight, opts.weights, rng);
      treeImportance.fill(0);
      builder.add(grower.grow(rowWeight, rng, treeImportance));
      const sum = treeImportance.reduce((a, b) => a + b, 0);
      if (sum > 0) for (let j = 0; j < p; j++) importance[j] += treeImportance[j] / sum;
    }
    const total = importance.reduce((a, b) => a + b, 0);
    const normalised = Array.from(importance, (v) => (total > 0 ? v / total : 0));
    return new ForestModel(this.kind, task, { ...this.params }, describeColumns(frame), builder.build(), normalised);
  }

  private featuresPerSplit(p: number, task: Task): number {
    const setting = this.params.maxFeatures ?? (task.kind === 'classification' ? 'sqrt' : 1);
    const count = setting === 'sqrt' ? Math.floor(Math.sqrt(p)) : Math.floor(setting * p);
    return Math.min(p, Math.max(1, count));
  }

  /** Bootstrap draw counts (or 1 per row) times the caller's sample weights. */
  private sampleRows(rowWeight: Float64Array, weights: Float64Array | undefined, rng: SeededRandom): void {
    const n = rowWeight.length;
    if (this.params.bootstrap) {
      rowWeight.fill(0);
      for (let i = 0; i < n; i++) rowWeight[rng.int(n)] += 1;
    } else rowWeight.fill(1);
    if (weights) for (let i = 0; i < n; i++) rowWeight[i] *= weights[i];
  }
}

export class RandomForestLearner extends ForestLearner {
  constructor(params: Partial<ForestParams> = {}) {
    super('random_forest', DEFAULT_RANDOM_FOREST_PARAMS, params);
  }
}

export class ExtraTreesLearner extends ForestLearner {
  constructor(params: Partial<ForestParams> = {}) {
    super('extra_trees', DEFAULT_EXTRA_TREES_PARAMS, params);
  }
}

function toTreeTarget(target: Float64Array, task: Task): TreeTarget {
  if (task.kind === 'regression') {
    if (target.some((v) => !Number.isFinite(v))) throw new Error('regression target contains missing or infinite values');
    return { kind: 'regression', y: target };
  }
  const k = task.classes.length;
  const y = new Int32Array(target.length);
  for (let i = 0; i < target.length; i++) {
    const c = target[i];
    if (!Number.isInteger(c) || c < 0 || c >= k) throw new Error(`class index ${c} at row ${i} is not in 0..${k - 1}`);
    y[i] = c;
  }
  return { kind: 'classification', y, nClasses: k };
}
