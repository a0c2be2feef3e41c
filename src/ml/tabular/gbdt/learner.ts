/** GbdtLearner: the boosting loop (objective, bagging, feature sampling, early stopping); its budget is nEstimators rounds. */
import type { FitOptions, Frame, Learner, Task, TrainedModel } from '../../frame.js';
import type { BinnedRows, FeatureLayout } from './binned-data.js';
import { prepareData } from './prepare-data.js';
import { compileForest } from './compiled-forest.js';
import { holdoutSplit } from './holdout.js';
import { GBDT_ALGORITHM, GbdtModel } from './model.js';
import { BinaryLogloss, HuberRegression, L2Regression, MulticlassSoftmax, type Objective } from './objectives.js';
import { type GbdtParams, type ResolvedGbdtParams, resolveParams } from './params.js';
import { Rng } from './rng.js';
import type { Tree } from './tree.js';
import { AHEAD_SLOTS, TreeLearner } from './tree-learner.js';
import { TrainingMemory } from './training-memory.js';
import { FeatureTeam, MAX_THREADS, teamBytes } from './feature-team.js';
import { teamStats, teamTuning } from './team-tuning.js';

export class GbdtLearner implements Learner {
  readonly algorithm = GBDT_ALGORITHM;
  readonly params: ResolvedGbdtParams;

  /**
   * threads: threads for one fit (a multiclass round's trees grown side by side, or feature-parallel
   * histograms and split search, feature-team.ts); the model does not depend on it. Default 1: the
   * contest runs one fit per core; a session refits its champion alone, on 2 (jobs/compute/model-compute.ts).
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
    // Small fits gain nothing from helper threads: a job would last less than waking one.
    const threads = frame.nRows * frame.columns.length >= teamTuning.minCellsPerThread * this.threads ? this.threads : 1;
    const { layout, trainData, validData } = prepareData(frame, train, valid, p.maxBins, opts.seed, threads);
    // A round of at least one tree per thread: the threads grow whole trees (one lane each), not parts of one.
    const lanes = teamTuning.growClasses && threads > 1 && objective.numScores >= threads ? threads : 1;
    const memory = new TrainingMemory(layout, trainData, objective.numScores, p.numLeaves + AHEAD_SLOTS, {
      teamBytes: teamBytes(layout.bins.length, p.numLeaves), weighted: opts.weights !== undefined, lanes,
    });
    // Targets and weights of the training rows in the fit's shared memory, where every thread reads them.
    const yTrain = pickInto(target, train, memory.y);
    const yValid = pickInto(target, valid, new Float64Array(valid.length));
    const wTrain = opts.weights ? pickInto(opts.weights, train, memory.weights!) : null;
    const wValid = opts.weights ? pickInto(opts.weights, valid, new Float64Array(valid.length)) : null;
    // Before the team starts: it copies the objective's state (Huber's delta is set here).
    const init = objective.initScores(yTrain, wTrain);
    const team = new FeatureTeam(memory, layout, p, objective, threads);
    try {
      return this.boost(frame, task, p, objective, init, layout, trainData, validData, yValid, wValid, memory, team, opts);
    } finally {
      team.close();
    }
  }

  /** The boosting rounds on prepared data. */
  private boost(
    frame: Frame, task: Task, p: ResolvedGbdtParams, objective: Objective, init: Float64Array, layout: FeatureLayout,
    trainData: BinnedRows, validData: BinnedRows,
    yValid: Float64Array, wValid: Float64Array | null,
    memory: TrainingMemory, team: FeatureTeam, opts: FitOptions,
  ): TrainedModel {
    const { pairs, scores } = memory;
    const k = objective.numScores;
    const nt = trainData.nRows;
    init.forEach((v, c) => scores.fill(v, c * nt, (c + 1) * nt));
    const validScores = filledScores(init, validData.nRows);
    const useValid = validData.nRows > 0;
    const learner = new TreeLearner(layout, nt, p, memory, team);
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
      const timing = teamStats.phaseCpu;
      let cpu = timing ? cpuMicros() : 0;
      team.gradients();
      if (timing) teamStats.gradientCpuUs += cpuMicros() - cpu;
      const treeCpu: number[] = [];
      if (timing) teamStats.roundTreeCpuUs.push(treeCpu);
      const roundTrees: Tree[] = team.growsClasses ? team.growClasses(k, bag, features) : [];
      if (bag && team.growsClasses) {
        roundTrees.forEach((tree, c) => {
          if (tree.numLeaves > 1) addTreeScores(tree, classScores(scores, c, nt), inBag, trainData, layout);
        });
      }
      for (let c = roundTrees.length; c < k; c++) {
        if (timing) cpu = cpuMicros();
        const tree = learner.grow(pairs.subarray(2 * c * nt, 2 * (c + 1) * nt), bag, features);
        roundTrees.push(tree);
        // Now, while the learner's partition still describes this tree's leaves.
        if (tree.numLeaves > 1) {
          const part = learner.partition;
          team.addLeafValues(tree.numLeaves, part.begin, part.count, tree.leafValue, c, bag ? bag.length : nt);
          if (bag) addTreeScores(tree, classScores(scores, c, nt), inBag, trainData, layout);
        }
        if (timing) treeCpu.push(cpuMicros() - cpu);
      }
      // LightGBM stops once no tree of a round can split: later rounds would only repeat constants.
      if (roundTrees.every((t) => t.numLeaves === 1)) break;
      roundTrees.forEach((tree, c) => {
        if (tree.numLeaves === 1) addTreeScores(tree, classScores(scores, c, nt), null, trainData, layout);
        if (useValid) addTreeScores(tree, classScores(validScores, c, validData.nRows), null, validData, layout);
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

/** Process CPU time in microseconds (for teamStats.phaseCpu). */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
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

function pickInto(v: Float64Array, rows: Int32Array, out: Float64Array): Float64Array {
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
 * Adds a tree's output to the scores of the rows not in `inBag` (null: every row) by walking the tree
 * on their bins: out-of-bag and validation rows (rows in the bag get theirs through the leaf partition).
 */
function addTreeScores(tree: Tree, scores: Float64Array, inBag: Uint8Array | null, data: BinnedRows, layout: FeatureLayout): void {
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
