/**
 * The wasm kernel of TreeSHAP (tree-shap-kernel.wat via tree-shap-wasm.ts, method 'auto') against the
 * JS loops it replaces (method 'js') on real fixture data, with few enough rows that leaves go both ways
 * (Ψ tables, filled by the kernel's $psiTable against psi-table.ts's, and, for the rest, the kernel's quadrature): GBDT with categorical splits and missing
 * values (credit_data), multiclass GBDT (vehicle, one output per tree), forests with vector leaves
 * (vehicle: four classes; auto_mpg: regression); and the forest's last class taken by difference; the
 * twin leaves (both children of a split, each with a value) a one-output forest tree's kernel takes
 * with their split.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Frame } from '../../../src/ml/frame.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import type { GbdtModel } from '../../../src/ml/tabular/gbdt/model.js';
import { gbdtShapTrees } from '../../../src/ml/tabular/gbdt/explain-forest.js';
import { treeShap, type ShapTrees, type SplitRows } from '../../../src/ml/explain/tree-shap.js';
import { RandomForestLearner } from '../../../src/ml/tabular/forest/index.js';
import type { ForestModel } from '../../../src/ml/tabular/forest/forest-model.js';
import { explain } from '../../../src/ml/explain/explanation.js';
import { selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';

function rowsOf(frame: Frame, n: number): Frame {
  return selectRows(frame, Int32Array.from({ length: n }, (_, i) => i % frame.nRows));
}

/** Calls leaf(d) for every leaf of the tree at `root`, d = the distinct features on its path. */
function forEachLeafPath(t: ShapTrees, root: number, leaf: (d: number) => void): void {
  const seen = new Map<number, number>();
  const walk = (n: number, d: number): void => {
    if (t.left[n]! < 0) {
      leaf(d);
      return;
    }
    const f = t.feature[n]!;
    const fresh = (seen.get(f) ?? 0) === 0 ? 1 : 0;
    seen.set(f, (seen.get(f) ?? 0) + 1);
    walk(t.left[n]!, d + fresh);
    walk(t.right[n]!, d + fresh);
    seen.set(f, seen.get(f)! - 1);
  };
  walk(root, 0);
}

/** Leaves a Ψ table serves for this many rows (tree-shap.ts: 3·2^d ≤ rows·d) and leaves it does not. */
function leafKinds(t: ShapTrees, rows: number): { tabulated: number; other: number } {
  const kinds = { tabulated: 0, other: 0 };
  for (const root of t.roots) {
    forEachLeafPath(t, root, (d) => {
      if (d > 0 && d <= 16 && 3 * 2 ** d <= rows * d) kinds.tabulated++;
      else if (d > 0) kinds.other++;
    });
  }
  return kinds;
}

/** Both ways agree to rounding, on trees with leaves of both kinds. */
function assertKernelAgrees(trees: ShapTrees, nf: number, rows: SplitRows): void {
  const kinds = leafKinds(trees, rows.nRows);
  assert.ok(kinds.tabulated > 0 && kinds.other > 0, `leaves with and without tables: ${JSON.stringify(kinds)}`);
  assertClose(treeShap(trees, nf, rows, 'auto'), treeShap(trees, nf, rows, 'js'));
}

/** The kernel's contributions equal the JS loops' to 10⁻¹² of the largest. */
function assertClose(got: Float64Array, want: Float64Array): void {
  assert.equal(got.length, want.length);
  let scale = 0;
  for (const v of want) scale = Math.max(scale, Math.abs(v));
  assert.ok(scale > 0);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) <= 1e-12 * Math.max(1, scale), `[${i}]: kernel ${got[i]} js ${want[i]}`);
}

test('TreeSHAP kernel = JS loops: GBDT with categorical splits and missing values (credit_data), multiclass GBDT (vehicle)', () => {
  const credit = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const binary = new GbdtLearner({ nEstimators: 30 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 }) as GbdtModel;
  // An odd count: the kernel takes rows in pairs, the last one with a row of zeros, and pairs two at a
  // time (21 pairs: the last with a pair of zero rows).
  const a = gbdtShapTrees(binary.forest, rowsOf(credit.test, 41));
  assertKernelAgrees(a.trees, binary.forest.features.length, a.rows);
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const multi = new GbdtLearner({ nEstimators: 15 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 }) as GbdtModel;
  const b = gbdtShapTrees(multi.forest, rowsOf(vehicle.test, 40));
  assertKernelAgrees(b.trees, multi.forest.features.length, b.rows);
});

test('TreeSHAP kernel = JS loops: forests with vector leaves (vehicle, four classes; auto_mpg regression)', () => {
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const c = new RandomForestLearner({ nTrees: 8 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 }) as ForestModel;
  // 21 pairs: the backward pass of vector sums with a pair of zero rows beside the last.
  const a = c.shapTrees(rowsOf(vehicle.test, 42));
  assertKernelAgrees(a.trees, vehicle.train.columns.length, a.rows);
  // The explanation takes the last class as minus the others: the same as explaining all four.
  const frame = rowsOf(vehicle.test, 60);
  const e = explain(c, frame);
  const full = c.shapTrees(frame);
  const want = treeShap(full.trees, vehicle.train.columns.length, full.rows, 'js');
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(e.values[i]! - want[i]!) < 1e-12, `[${i}]: by difference ${e.values[i]} all classes ${want[i]}`);
  const mpg = benchFold(fixtureTable('regression', 'auto_mpg'), 0);
  const r = new RandomForestLearner({ nTrees: 8 }).fit(mpg.train, mpg.yTrain, mpg.task, { seed: 0 }) as ForestModel;
  const b = r.shapTrees(rowsOf(mpg.test, 39));
  assertKernelAgrees(b.trees, mpg.train.columns.length, b.rows);
});

/** Splits whose children are both leaves, each with a value other than 0. */
function twinLeaves(t: ShapTrees): number {
  let twins = 0;
  for (let n = 0; n < t.left.length; n++) {
    const l = t.left[n]!;
    const r = t.right[n]!;
    if (l >= 0 && t.left[l]! < 0 && t.left[r]! < 0 && t.leafValue[l * t.outputs] !== 0 && t.leafValue[r * t.outputs] !== 0) twins++;
  }
  return twins;
}

test('TreeSHAP kernel = JS loops: twin leaves taken with their split (auto_mpg regression forest)', () => {
  const mpg = benchFold(fixtureTable('regression', 'auto_mpg'), 0);
  const r = new RandomForestLearner({ nTrees: 8 }).fit(mpg.train, mpg.yTrain, mpg.task, { seed: 0 }) as ForestModel;
  // Rows enough that most leaves have a table (twins need both).
  const a = r.shapTrees(rowsOf(mpg.test, 121));
  assert.ok(twinLeaves(a.trees) > 20);
  assertClose(treeShap(a.trees, mpg.train.columns.length, a.rows, 'auto'), treeShap(a.trees, mpg.train.columns.length, a.rows, 'js'));
});

/** Trees whose leaves' distinct path features add up to more than 64 (the kernel's $packed1 then packs their hot sets into several words). */
function treesPastOneWord(t: ShapTrees): number {
  let trees = 0;
  for (const root of t.roots) {
    let bits = 0;
    forEachLeafPath(t, root, (d) => { bits += d; });
    if (bits > 64) trees++;
  }
  return trees;
}

test('TreeSHAP kernel = JS loops: hot sets packed into 64-bit words, every leaf tabulated (GBDT credit_data, missing values; auto_mpg forest)', () => {
  const credit = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const binary = new GbdtLearner({ nEstimators: 30 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 }) as GbdtModel;
  const a = gbdtShapTrees(binary.forest, rowsOf(credit.test, 41));
  // Planned for a batch large enough that every leaf has a Ψ table: every tree goes through $packed1.
  assert.equal(leafKinds(a.trees, 100_000).other, 0);
  assert.ok(treesPastOneWord(a.trees) > 10);
  const nf = binary.forest.features.length;
  assertClose(treeShap(a.trees, nf, a.rows, 'auto', 100_000), treeShap(a.trees, nf, a.rows, 'js', 100_000));
  const mpg = benchFold(fixtureTable('regression', 'auto_mpg'), 0);
  const r = new RandomForestLearner({ nTrees: 8 }).fit(mpg.train, mpg.yTrain, mpg.task, { seed: 0 }) as ForestModel;
  const b = r.shapTrees(rowsOf(mpg.test, 39));
  assert.ok(treesPastOneWord(b.trees) === b.trees.roots.length);
  assertClose(treeShap(b.trees, mpg.train.columns.length, b.rows, 'auto', 100_000), treeShap(b.trees, mpg.train.columns.length, b.rows, 'js', 100_000));
});
