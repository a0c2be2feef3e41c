/** GbdtLearner: the boosting loop (objective, bagging, feature sampling, early stopping); its budget is nEstimators rounds. */
import type { FitOptions, Frame, Learner, Task, TrainedModel } from '../../frame.js';
import { type FeatureBins, fitBins, isUseful } from './bin-mapper.js';
import { type BinnedRows, type FeatureLayout, binRows, makeLayout } from './binned-data.js';
import { compileForest } from './compiled-forest.js';
import { holdoutSplit } from './holdout.js';
import { GBDT_ALGORITHM, GbdtModel } from './model.js';
import { BinaryLogloss, HuberRegression, L2Regression, MulticlassSoftmax, type Objective } from './objectives.js';
import { type GbdtParams, type ResolvedGbdtParams, resolveParams } from './params.js';
import { Rng } from './rng.js';
import type { Tree } from './tree.js';
import { TreeLearner } from './tree-learner.js';
import { TrainingMemory } from './training-memory.js';
import { FeatureTeam, MAX_THREADS, teamBytes } from './feature-team.js';

/** Rows × features below which a fit stays on one thread. */
const MIN_CELLS_PER_THREAD = 50_000;

export class GbdtLearner implements Learner {
  readonly algorithm = GBDT_ALGORITHM;
  readonly params: ResolvedGbdtParams;

  /**
   * threads: threads for one fit (feature-parallel histograms and split search, feature-team.ts); the
   * model does not depend on it. Default 1: sessions already run one fit per core.
   */
  readonly threads: number;

  constructor(params?: Partial<GbdtParams>, opts: { threads?: number } = {}) {
    this.params = resolveParams(params);
    this.threads = opts.threads ?? 1;
    if (!(Number.isInteger(this.threads) && this.threads >= 1 && this.threads <= MAX_THREADS)) {
      throw new Error(`GBDT: threads must be an integer in 1..${MAX_THREADS}`);
    }
  }

  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): TrainedModel {
    const p = this.params;
    checkTarget(target, task, frame.nRows);
    if (opts.weights) checkWeights(opts.weights, frame.nRows);
    const objective = makeObjective(p, task);
    const all = Int32Array.from({ length: frame.nRows }, (_, i) => i);
    const { train, valid } = p.earlyStoppingRounds > 0
      ? holdoutSplit(target, task.kind === 'classification' ? task.classes.length : 0, p.validationFraction, opts.seed)
      : { train: all, valid: new Int32Array(0) };
    const layout = fitLayout(frame, train, p.maxBins, opts.seed);
    const trainData = binRows(frame, layout, train);
    const validData = binRows(frame, layout, valid);
    const yTrain = pick(target, train);
    const yValid = pick(target, valid);
    const wTrain = opts.weights ? pick(opts.weights, train) : null;
    const wValid = opts.weights ? pick(opts.weights, valid) : null;
    // Small fits gain nothing from helper threads: a job would last less than waking one.
    const threads = trainData.nRows * layout.bins.length >= MIN_CELLS_PER_THREAD * this.threads ? this.threads : 1;
    const memory = new TrainingMemory(layout, trainData, objective.numScores, p.numLeaves, { teamBytes: teamBytes(layout.bins.length, threads) });
    const team = new FeatureTeam(memory.histograms, memory.kernels.wasmMemory, memory.teamAt, layout, p, threads);
    try {
      return this.boost(frame, task, p, objective, layout, trainData, validData, yTrain, yValid, wTrain, wValid, memory, team, opts);
    } finally {
      team.close();
    }
  }

  /** The boosting rounds on prepared data. */
  private boost(
    frame: Frame, task: Task, p: ResolvedGbdtParams, objective: Objective, layout: FeatureLayout, trainData: BinnedRows, validData: BinnedRows,
    yTrain: Float64Array, yValid: Float64Array, wTrain: Float64Array | null, wValid: Float64Array | null,
    memory: TrainingMemory, team: FeatureTeam, opts: FitOptions,
  ): TrainedModel {
    const { grad, hess } = memory;
    const k = objective.numScores;
    const init = objective.initScores(yTrain, wTrain);
    const nt = trainData.nRows;
    const scores = filledScores(init, nt);
    const validScores = filledScores(init, validData.nRows);
    const useValid = validData.nRows > 0;
    const learner = new TreeLearner(layout, trainData, p, memory, team);
    const bagRng = new Rng(opts.seed + 1);
    const featureRng = new Rng(opts.seed + 2);
    const bagging = p.baggingFreq > 0 && p.baggingFraction < 1;
    const inBag = new Uint8Array(nt);
    let bag: Int32Array | null = null;

    const trees: Tree[] = [];
    let bestLoss = Infinity;
    let bestRounds = 0;
    for (let round = 0; round < p.nEstimators; round++) {
      if (bagging && round % p.baggingFreq === 0) {
        bag = bagRng.sample(nt, Math.max(1, Math.round(nt * p.baggingFraction)));
        inBag.fill(0);
        for (const r of bag) inBag[r] = 1;
      }
      const features = sampleFeatures(layout, p.featureFraction, featureRng);
      objective.gradients(scores, yTrain, wTrain, grad, hess);
      const roundTrees: Tree[] = [];
      for (let c = 0; c < k; c++) {
        const tree = learner.grow(grad.subarray(c * nt, (c + 1) * nt), hess.subarray(c * nt, (c + 1) * nt), bag, features);
        roundTrees.push(tree);
        // Now, while the learner's partition still describes this tree's leaves.
        if (tree.numLeaves > 1) addTreeScores(tree, learner, classScores(scores, c, nt), bag ? inBag : null, trainData, layout);
      }
      // LightGBM stops once no tree of a round can split: later rounds would only repeat constants.
      if (roundTrees.every((t) => t.numLeaves === 1)) break;
      roundTrees.forEach((tree, c) => {
        if (tree.numLeaves === 1) addTreeScores(tree, null, classScores(scores, c, nt), null, trainData, layout);
        if (useValid) addTreeScores(tree, null, classScores(validScores, c, validData.nRows), null, validData, layout);
      });
      trees.push(...roundTrees);
      if (useValid) {
        const loss = objective.loss(validScores, yValid, wValid);
        if (loss < bestLoss) {
          bestLoss = loss;
          bestRounds = round + 1;
        } else if (round + 1 - bestRounds >= p.earlyStoppingRounds) break;
      } else bestRounds = round + 1;
    }
    trees.length = bestRounds * k;

    const names = Array.from(layout.column, (c) => frame.columns[c].name);
    const forest = compileForest(trees, layout, names, k, init);
    return new GbdtModel(task, this.params, objective.name, forest, gainImportance(frame, layout, trees), bestRounds);
  }
}

function checkTarget(target: Float64Array, task: Task, nRows: number): void {
  if (target.length !== nRows) throw new Error(`GBDT: target has ${target.length} values for ${nRows} rows`);
  if (nRows === 0) throw new Error('GBDT: no training rows');
  if (task.kind === 'regression') {
    if (target.some((v) => !Number.isFinite(v))) throw new Error('GBDT: regression target has missing or infinite values');
    return;
  }
  const k = task.classes.length;
  const seen = new Set<number>();
  for (const v of target) {
    if (!Number.isInteger(v) || v < 0 || v >= k) throw new Error(`GBDT: class index ${v} outside 0..${k - 1}`);
    seen.add(v);
  }
  if (seen.size < 2) {
    throw new Error(`GBDT: the training target has a single class (${task.classes[target[0]]}); classification needs at least two`);
  }
}

function checkWeights(w: Float64Array, nRows: number): void {
  if (w.length !== nRows) throw new Error(`GBDT: ${w.length} weights for ${nRows} rows`);
  let sum = 0;
  for (const v of w) {
    if (!(v >= 0) || !Number.isFinite(v)) throw new Error(`GBDT: weights must be finite and ≥ 0 (got ${v})`);
    sum += v;
  }
  if (sum === 0) throw new Error('GBDT: weights are all zero');
}

function makeObjective(p: ResolvedGbdtParams, task: Task): Objective {
  const o = p.objective;
  if (task.kind === 'classification') {
    const k = task.classes.length;
    if (o === 'auto') return k === 2 ? new BinaryLogloss() : new MulticlassSoftmax(k);
    if (o === 'binary' && k === 2) return new BinaryLogloss();
    if (o === 'multiclass') return new MulticlassSoftmax(k);
    throw new Error(`GBDT: objective ${o} does not fit a ${k}-class classification task`);
  }
  if (o === 'auto' || o === 'l2') return new L2Regression();
  if (o === 'huber') return new HuberRegression(p.huberDelta);
  throw new Error(`GBDT: objective ${o} does not fit a regression task`);
}

function fitLayout(frame: Frame, train: Int32Array, maxBins: number, seed: number): FeatureLayout {
  const columns: number[] = [];
  const bins: FeatureBins[] = [];
  frame.columns.forEach((col, j) => {
    const b = fitBins(col, train, maxBins, seed + j);
    if (isUseful(b)) {
      columns.push(j);
      bins.push(b);
    }
  });
  return makeLayout(columns, bins);
}

function pick(v: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = v[rows[i]];
  return out;
}

/** Class c's slice of class-major scores. */
function classScores(scores: Float64Array, c: number, n: number): Float64Array {
  return scores.subarray(c * n, (c + 1) * n);
}

function filledScores(init: Float64Array, n: number): Float64Array {
  const s = new Float64Array(init.length * n);
  init.forEach((v, c) => s.fill(v, c * n, (c + 1) * n));
  return s;
}

/** LightGBM's feature_fraction: a fresh subset of features for every tree (at least one). */
function sampleFeatures(layout: FeatureLayout, fraction: number, rng: Rng): Int32Array {
  const n = layout.column.length;
  if (fraction >= 1) return Int32Array.from({ length: n }, (_, i) => i);
  return rng.sample(n, Math.max(1, Math.round(n * fraction)));
}

/**
 * Adds a tree's output to each row's score: rows in the bag through the learner's leaf partition,
 * the others (out-of-bag or validation rows) by walking the tree on their bins.
 */
function addTreeScores(
  tree: Tree, learner: TreeLearner | null, scores: Float64Array, inBag: Uint8Array | null, data: BinnedRows, layout: FeatureLayout,
): void {
  if (learner) {
    const part = learner.partition;
    for (let l = 0; l < tree.numLeaves; l++) {
      const v = tree.leafValue[l];
      const end = part.begin[l] + part.count[l];
      for (let i = part.begin[l]; i < end; i++) scores[part.indices[i]] += v;
    }
    if (!inBag) return;
  }
  for (let r = 0; r < data.nRows; r++) {
    if (inBag && inBag[r]) continue;
    scores[r] += tree.leafValue[tree.leafOfBinned(data.codes, data.nRows, r, layout)];
  }
}

/** Total split gain per input column (0 for columns never split on). */
function gainImportance(frame: Frame, layout: FeatureLayout, trees: Tree[]): Record<string, number> {
  const gain = new Float64Array(frame.columns.length);
  for (const t of trees) for (let j = 0; j < t.numNodes; j++) gain[layout.column[t.feature[j]]] += t.gain[j];
  return Object.fromEntries(frame.columns.map((c, j) => [c.name, gain[j]]));
}
