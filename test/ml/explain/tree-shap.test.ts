/**
 * Explanations on real fixture data: contributions add up to each model's raw output (GBDT, forest,
 * linear, blend, calibrated), and TreeSHAP agrees with Shapley values computed by brute force — every
 * subset of the features, v(S) = E[f(x) | x_S] by the recursive cover-weighted expectation — on a small
 * GBDT with categorical splits and missing values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Frame } from '../../../src/ml/frame.js';
import type { TrainedModel } from '../../../src/ml/estimator.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import type { GbdtModel } from '../../../src/ml/tabular/gbdt/model.js';
import { gbdtShapTrees } from '../../../src/ml/tabular/gbdt/explain-forest.js';
import { decideOf, expectedValue, pathWork, treeShap, type Decide, type ShapTrees } from '../../../src/ml/explain/tree-shap.js';
import { explain, explainedPredictions, type Explanation } from '../../../src/ml/explain/explanation.js';
import { RandomForestLearner } from '../../../src/ml/tabular/forest/index.js';
import type { ForestModel } from '../../../src/ml/tabular/forest/forest-model.js';
import { LinearLearner } from '../../../src/ml/tabular/linear/index.js';
import { BlendModel } from '../../../src/ml/tabular/contest/blend-model.js';
import { loadModel } from '../../../src/ml/model-loader.js';
import { selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';

const logit = (p: number) => Math.log(p / (1 - p));

function columns(frame: Frame, names: string[]): Frame {
  return { nRows: frame.nRows, columns: frame.columns.filter((c) => names.includes(c.name)) };
}

/** The model's raw output the explanation claims to add up to, from its public scores. */
function rawFromScores(e: Explanation, scores: Float64Array, k: number): Float64Array {
  const out = new Float64Array(e.nRows * e.outputClasses.length);
  for (let r = 0; r < e.nRows; r++) {
    e.outputClasses.forEach((c, j) => {
      if (e.scale === 'value') out[r] = scores[r]!;
      else if (e.scale === 'logOdds') out[r] = logit(scores[r * k + 1]!);
      else if (e.scale === 'probability') out[r * k + j] = scores[r * k + c!]!;
      else out[r * k + j] = Math.log(scores[r * k + c!]!); // margins up to a per-row constant: compared after centring
    });
  }
  return out;
}

function assertAdditive(model: TrainedModel, frame: Frame, tolerance: number): Explanation {
  const e = explain(model, frame);
  const k = model.task.kind === 'classification' ? model.task.classes.length : 1;
  const sums = explainedPredictions(e);
  const raw = rawFromScores(e, model.predictScores(frame), k);
  const m = e.outputClasses.length;
  for (let r = 0; r < e.nRows; r++) {
    // Softmax margins are known from probabilities only up to a constant per row.
    const shift = e.scale === 'margin' ? (raw[r * m]! - sums[r * m]!) : 0;
    for (let j = 0; j < m; j++) {
      const got = sums[r * m + j]! + shift;
      const want = raw[r * m + j]!;
      assert.ok(Math.abs(got - want) <= tolerance * Math.max(1, Math.abs(want)), `row ${r} output ${j}: contributions sum to ${got}, model says ${want}`);
    }
  }
  assert.ok(e.values.every(Number.isFinite));
  return e;
}

test('GBDT (binary, categorical and missing values: credit_data): contributions add up to the log-odds', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner().fit(split.train, split.yTrain, split.task, { seed: 0 });
  const e = assertAdditive(model, split.test, 1e-9);
  assert.equal(e.scale, 'logOdds');
  assert.ok(e.exact);
});

test('GBDT (multiclass: vehicle) and regression (concrete): per-class margins and values add up', () => {
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const m = new GbdtLearner({ nEstimators: 40 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 });
  assert.equal(assertAdditive(m, vehicle.test, 1e-9).outputClasses.length, 4);
  const concrete = benchFold(fixtureTable('regression', 'concrete'), 0);
  const r = new GbdtLearner().fit(concrete.train, concrete.yTrain, concrete.task, { seed: 0 });
  assertAdditive(r, concrete.test, 1e-9);
});

test('random forest (classification: pima_diabetes with missing values; regression: auto_mpg) adds up to its averages', () => {
  const pima = benchFold(fixtureTable('classification', 'pima_diabetes'), 0);
  const c = new RandomForestLearner({ nTrees: 30 }).fit(pima.train, pima.yTrain, pima.task, { seed: 0 });
  assert.equal(assertAdditive(c, pima.test, 1e-9).scale, 'probability');
  const mpg = benchFold(fixtureTable('regression', 'auto_mpg'), 0);
  const r = new RandomForestLearner({ nTrees: 30 }).fit(mpg.train, mpg.yTrain, mpg.task, { seed: 0 });
  assertAdditive(r, mpg.test, 1e-9);
});

test('linear model (credit_data: one-hot categories) is coefficient × (x − training mean), exactly additive', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new LinearLearner().fit(split.train, split.yTrain, split.task, { seed: 0 });
  const e = assertAdditive(model, split.test, 1e-9);
  // The base is the score at the training means: the mean contribution over the training rows is 0.
  const t = explain(model, split.train);
  const nf = t.features.length;
  for (let f = 0; f < nf; f++) {
    let mean = 0;
    for (let r = 0; r < t.nRows; r++) mean += t.values[r * nf + f]! / t.nRows;
    assert.ok(Math.abs(mean) < 1e-9, `feature ${t.features[f]}: mean training contribution ${mean}`);
  }
  assert.equal(e.scale, 'logOdds');
});

test('a blend (GBDT + forest + linear) adds up to its averaged probabilities, and survives a save and load', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const fit = { seed: 0 };
  const blend = new BlendModel(split.task, [
    new GbdtLearner({ nEstimators: 50 }).fit(split.train, split.yTrain, split.task, fit),
    new RandomForestLearner({ nTrees: 20 }).fit(split.train, split.yTrain, split.task, fit),
    new LinearLearner().fit(split.train, split.yTrain, split.task, fit),
  ]);
  const e = assertAdditive(blend, split.test, 1e-9);
  assert.equal(e.scale, 'probability');
  const loaded = loadModel(JSON.parse(JSON.stringify(blend.toJSON()))) as TrainedModel;
  assert.deepEqual(explain(loaded, split.test).values, e.values);
});

/** v(S) = E[f(x) | x_S]: at a split on a feature of S follow the row, otherwise average the children by cover. */
function conditional(t: ShapTrees, decide: Decide, row: number, inS: (f: number) => boolean, output: number): number {
  let total = 0;
  const walk = (node: number, only: number): number => {
    if (t.left[node]! < 0) return only >= 0 && only !== output ? 0 : t.leafValue[node * t.outputs + output]!;
    if (inS(t.feature[node]!)) return walk(decide(node, row) ? t.left[node]! : t.right[node]!, only);
    const l = t.left[node]!;
    const r = t.right[node]!;
    return (t.cover[l]! * walk(l, only) + t.cover[r]! * walk(r, only)) / t.cover[node]!;
  };
  for (let i = 0; i < t.roots.length; i++) total += walk(t.roots[i]!, t.treeOutput[i]!);
  return total;
}

function bruteForceShapley(t: ShapTrees, decide: Decide, nf: number, row: number, output = 0): Float64Array {
  const phi = new Float64Array(nf);
  const fact = (n: number): number => (n <= 1 ? 1 : n * fact(n - 1));
  const v = new Float64Array(1 << nf);
  for (let s = 0; s < 1 << nf; s++) v[s] = conditional(t, decide, row, (f) => ((s >> f) & 1) === 1, output);
  for (let f = 0; f < nf; f++) {
    for (let s = 0; s < 1 << nf; s++) {
      if ((s >> f) & 1) continue;
      let size = 0;
      for (let g = 0; g < nf; g++) size += (s >> g) & 1;
      phi[f]! += ((fact(size) * fact(nf - size - 1)) / fact(nf)) * (v[s | (1 << f)]! - v[s]!);
    }
  }
  return phi;
}

test('TreeSHAP equals brute-force Shapley values over all subsets (GBDT, 6 features incl. categorical, missing values)', () => {
  const table = fixtureTable('classification', 'credit_data');
  const split = benchFold(table, 0);
  const names = split.train.columns.map((c) => c.name);
  const categorical = split.train.columns.filter((c) => c.kind === 'categorical').map((c) => c.name).slice(0, 2);
  const numeric = split.train.columns.filter((c) => c.kind === 'numeric').map((c) => c.name).slice(0, 4);
  const keep = [...numeric, ...categorical];
  assert.equal(keep.length, 6, `credit_data columns: ${names.join(', ')}`);
  const train = columns(split.train, keep);
  const test_ = columns(split.test, keep);
  const model = new GbdtLearner({ nEstimators: 15, numLeaves: 15 }).fit(train, split.yTrain, split.task, { seed: 0 }) as GbdtModel;
  const rows = Math.min(25, test_.nRows);
  const { trees, rows: input } = gbdtShapTrees(model.forest, selectRows(test_, Int32Array.from({ length: rows }, (_, i) => i)));
  const decide = decideOf(input);
  const nf = model.forest.features.length;
  const phi = treeShap(trees, nf, input);
  // Every way of evaluating a leaf: tabulated subsets, the direct polynomial, the recursive Algorithm 2.
  const methods = (['table', 'direct', 'linear', 'recursive'] as const).map((m) => [m, treeShap(trees, nf, input, m)] as const);
  let repeated = 0;
  for (let r = 0; r < rows; r++) {
    const want = bruteForceShapley(trees, decide, nf, r);
    for (let f = 0; f < nf; f++) {
      assert.ok(Math.abs(phi[r * nf + f]! - want[f]!) < 1e-10, `row ${r} feature ${f}: TreeSHAP ${phi[r * nf + f]} brute force ${want[f]}`);
      for (const [m, other] of methods) assert.ok(Math.abs(other[r * nf + f]! - want[f]!) < 1e-10, `${m}: row ${r} feature ${f}: ${other[r * nf + f]} brute force ${want[f]}`);
    }
    // Efficiency: v(all) − v(∅) = Σ φ, and v(∅) is the expected value.
    const all = conditional(trees, decide, r, () => true, 0);
    assert.ok(Math.abs(all - expectedValue(trees)[0]! - want.reduce((a, b) => a + b, 0)) < 1e-10);
    if (phi[r * nf + nf - 1] !== 0) repeated++;
  }
  assert.ok(repeated > 0, 'the categorical features take part');
});

/** Leaves of a vector-leaf forest, those with one output other than 0 (pure) and those with several (mixed). */
function leafPurity(trees: ShapTrees): { leaves: number; pure: number; mixed: number } {
  const k = trees.outputs;
  const counts = { leaves: 0, pure: 0, mixed: 0 };
  for (let n = 0; n < trees.left.length; n++) {
    if (trees.left[n]! >= 0) continue;
    counts.leaves++;
    let nonZero = 0;
    for (let c = 0; c < k; c++) if (trees.leafValue[n * k + c] !== 0) nonZero++;
    if (nonZero === 1) counts.pure++;
    if (nonZero > 1) counts.mixed++;
  }
  return counts;
}

test('TreeSHAP equals brute-force Shapley values for every class of a fully grown forest (vehicle, 4 classes, 6 features: pure leaves, zero leaves skipped, one class by difference)', () => {
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const keep = vehicle.train.columns.filter((c) => c.kind === 'numeric').map((c) => c.name).slice(0, 6);
  const train = columns(vehicle.train, keep);
  const model = new RandomForestLearner({ nTrees: 4 }).fit(train, vehicle.yTrain, vehicle.task, { seed: 0 }) as ForestModel;
  const frame = selectRows(columns(vehicle.test, keep), Int32Array.from({ length: 20 }, (_, i) => i));
  const { trees, rows: input } = model.shapTrees(frame);
  const k = trees.outputs;
  assert.equal(k, 4);
  // Fully grown: every leaf holds one class, so in every output most leaves are 0.
  const { leaves, pure } = leafPurity(trees);
  assert.ok(pure > 0.9 * leaves, `pure leaves ${pure} of ${leaves}`);
  const e = explain(model, frame);
  const nf = keep.length;
  assert.deepEqual(e.features, keep);
  const decide = decideOf(input);
  for (let r = 0; r < frame.nRows; r++) {
    for (let c = 0; c < k; c++) {
      const want = bruteForceShapley(trees, decide, nf, r, c);
      for (let f = 0; f < nf; f++) {
        const got = e.values[(r * k + c) * nf + f]!;
        assert.ok(Math.abs(got - want[f]!) < 1e-12, `row ${r} class ${c} feature ${f}: TreeSHAP ${got} brute force ${want[f]}`);
      }
    }
  }
});

test('TreeSHAP equals brute-force Shapley values for vector leaves both pure and mixed (vehicle forest, 4 classes, 5 rows a leaf): each class explained as its own view, with and without Ψ tables', () => {
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const keep = vehicle.train.columns.filter((c) => c.kind === 'numeric').map((c) => c.name).slice(0, 6);
  const model = new RandomForestLearner({ nTrees: 3, minSamplesLeaf: 5 }).fit(columns(vehicle.train, keep), vehicle.yTrain, vehicle.task, { seed: 0 }) as ForestModel;
  const frame = selectRows(columns(vehicle.test, keep), Int32Array.from({ length: 16 }, (_, i) => i));
  const { trees, rows: input } = model.shapTrees(frame);
  const k = trees.outputs;
  assert.equal(k, 4);
  // Leaves of 5 rows or more: some hold one class, others several (a class's view then shares the leaf with other views).
  const { pure, mixed } = leafPurity(trees);
  assert.ok(pure > 5 && mixed > 5, `pure leaves ${pure}, mixed ${mixed}`);
  const nf = keep.length;
  const decide = decideOf(input);
  const want = Array.from({ length: frame.nRows }, (_, r) => Array.from({ length: k }, (_, c) => bruteForceShapley(trees, decide, nf, r, c)));
  // All 4 outputs (no class by difference), through the wasm kernel: tabulated as for these 16 rows (few tables,
  // so views go leaf by leaf with the quadrature) and as for a batch large enough to tabulate every leaf (packed views).
  for (const batchRows of [frame.nRows, 1_000_000]) {
    const phi = treeShap(trees, nf, input, 'auto', batchRows);
    for (let r = 0; r < frame.nRows; r++) {
      for (let c = 0; c < k; c++) {
        for (let f = 0; f < nf; f++) {
          const got = phi[(r * k + c) * nf + f]!;
          assert.ok(Math.abs(got - want[r]![c]![f]!) < 1e-12, `batch ${batchRows}, row ${r} class ${c} feature ${f}: TreeSHAP ${got} brute force ${want[r]![c]![f]}`);
        }
      }
    }
  }
});

test('the work a request is charged counts what the kernel does: zero leaves and outputs at 0 cost nothing past their node', () => {
  // One split on feature 0: a leaf with values [0.5, 0] and a leaf with [0, 0].
  const tree = (leafValue: Float64Array, treeOutput: Int32Array): ShapTrees => ({
    roots: Int32Array.of(0), left: Int32Array.of(1, -1, -1), right: Int32Array.of(2, -1, -1), feature: Int32Array.of(0, 0, 0),
    cover: Float64Array.of(2, 1, 1), leafValue, treeOutput, outputs: 2, ensemble: 'boosted',
  });
  const values = Float64Array.of(0, 0, 0.5, 0, 0, 0);
  // 3 nodes (masks), the split once (only output 0 has a leaf other than 0 below it), plus d + 1 = 2 look-ups
  // for the one live output of the first leaf.
  assert.equal(pathWork(tree(values, Int32Array.of(-1))), 3 + 1 + 2);
  // Without leaf values every leaf counts for every output, and the split for both.
  assert.equal(pathWork(tree(new Float64Array(0), Int32Array.of(-1))), 3 + 2 + 2 * 2 + 2 * 2);
  // A tree adding to output 0 only (GBDT multiclass): its first leaf is live, the second is not.
  assert.equal(pathWork(tree(values, Int32Array.of(0))), 3 + 2);
  assert.equal(pathWork(tree(values, Int32Array.of(1))), 3);
  // A fully grown classification forest: most leaves are pure, so it is charged well under its size.
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const forest = new RandomForestLearner({ nTrees: 20 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 }) as ForestModel;
  const full = pathWork({ ...forest.shapTrees(selectRows(vehicle.test, Int32Array.of(0))).trees, leafValue: new Float64Array(0) });
  assert.ok(forest.explainWork() < 0.6 * full, `charged ${forest.explainWork()} of ${full}`);
});

test('deep forest trees (auto_mpg, fully grown): tabulated, direct and recursive TreeSHAP agree', () => {
  const mpg = benchFold(fixtureTable('regression', 'auto_mpg'), 0);
  const model = new RandomForestLearner({ nTrees: 5 }).fit(mpg.train, mpg.yTrain, mpg.task, { seed: 0 });
  const frame = selectRows(mpg.test, Int32Array.from({ length: Math.min(40, mpg.test.nRows) }, (_, i) => i));
  const { trees, rows: input } = (model as ForestModel).shapTrees(frame);
  const names = explain(model, frame).features;
  const nf = names.length;
  const want = treeShap(trees, nf, input, 'recursive');
  let deepest = 0;
  const depthOf = (n: number, d: number): void => { deepest = Math.max(deepest, d); if (trees.left[n]! >= 0) { depthOf(trees.left[n]!, d + 1); depthOf(trees.right[n]!, d + 1); } };
  for (const root of trees.roots) depthOf(root, 0);
  assert.ok(deepest >= 8, `fully grown trees are deep (${deepest})`);
  for (const m of ['auto', 'table', 'direct', 'linear'] as const) {
    const got = treeShap(trees, nf, input, m);
    for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) < 1e-9 * Math.max(1, Math.abs(want[i]!)), `${m} [${i}]: ${got[i]} recursive ${want[i]}`);
  }
});

test('wide forest trees (spambase, 57 features): paths through more features than a table holds go node by node, and agree with Algorithm 2', () => {
  const iono = benchFold(fixtureTable('classification', 'spambase'), 0);
  const model = new RandomForestLearner({ nTrees: 12 }).fit(iono.train, iono.yTrain, iono.task, { seed: 0 });
  const frame = selectRows(iono.test, Int32Array.from({ length: 30 }, (_, i) => i));
  const { trees, rows: input } = (model as ForestModel).shapTrees(frame);
  let widest = 0;
  const seen = new Map<number, number>();
  const walk = (n: number, distinct: number): void => {
    if (trees.left[n]! < 0) { widest = Math.max(widest, distinct); return; }
    const f = trees.feature[n]!;
    const fresh = (seen.get(f) ?? 0) === 0 ? 1 : 0;
    seen.set(f, (seen.get(f) ?? 0) + 1);
    walk(trees.left[n]!, distinct + fresh);
    walk(trees.right[n]!, distinct + fresh);
    seen.set(f, seen.get(f)! - 1);
  };
  for (const root of trees.roots) walk(root, 0);
  assert.ok(widest > 16, `some path meets more than 16 distinct features (${widest})`);
  const nf = iono.train.columns.length;
  const want = treeShap(trees, nf, input, 'recursive');
  for (const m of ['auto', 'direct', 'linear'] as const) {
    const got = treeShap(trees, nf, input, m);
    for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) < 1e-9 * Math.max(1, Math.abs(want[i]!)), `${m} [${i}]: ${got[i]} recursive ${want[i]}`);
  }
  assertAdditive(model, frame, 1e-9);
});

test('models saved without covers still load and predict; explaining them says why it cannot', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 10 }).fit(split.train, split.yTrain, split.task, { seed: 0 });
  const json = model.toJSON();
  delete json.leafCover;
  const old = loadModel(json);
  assert.deepEqual(old.predictScores(split.test), model.predictScores(split.test));
  assert.throws(() => explain(old, split.test), /trained before Sibyl kept the training covers/);
});
