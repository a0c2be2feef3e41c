/**
 * Explanation speed: CPU time to explain a 1,000-record batch (goal: well under a second) per model
 * kind, next to LightGBM's pred_contrib on a model of the same size (100 rounds, 31 leaves, one thread)
 * when the benches' Python (bench/lib/python.ts: $SIBYL_PYTHON, .venv, /work/venv) has lightgbm. Also prints each
 * model's size (trees, leaves, deepest leaf, most distinct features on a path), its explanation work
 * per record (tree-shap.ts pathWork) and how many records one request may explain under the work
 * limit, and the largest Ψ tables one tree needs at once (they are built per request, tree by tree,
 * and not kept). Data: the shared benchmark data's credit_data (binary, categorical and missing
 * values), letter_recognition (26 classes), vehicle (4 classes) and concrete (regression), fold 0.
 * Every figure is measured on 1,000 records, also where one request may hold fewer (records/request).
 * Beside the CPU time, the wall time of the same batch split over two scoring threads (as the service
 * does for batches of enough work, service/models/scoring-threads.ts: tree ensembles by their trees,
 * blends by rows; after one warm-up batch that sends the model), which is about half the CPU time only
 * when the machine's two cores are free.
 * Forests are shown next to python shap's TreeExplainer (exact TreeSHAP, C++) on a scikit-learn
 * forest of the same size (300 fully grown trees, √p features per split for classes, all for
 * regression; its leaves printed) when that Python can import shap (e.g. PYTHONPATH=<dir with shap>).
 * Usage: npm run bench:explanations
 *
 * Figures, old kernel then the two-row one (tree-shap-wasm.ts), the two builds run back to back at load
 * ~6 (the two cores busy, so the wall time on two threads is about the CPU time), CPU ms per 1,000
 * records: credit forest 4004 → 2663, concrete forest 3499 → 2533, vehicle forest 1157 → 1045, letter
 * GBDT 2529 → 1729, vehicle GBDT 351 → 268, credit GBDT 102 → 66, concrete GBDT 61 → 51. Why not
 * more: the leaves' hot terms stay, each a Ψ table read that mostly misses L1 and, per leaf and row, a
 * mispredicted loop exit (tree-shap-wasm.ts). The forests' CPU is ~2/3 of before, not 1/2: at this load
 * still above the ~1.4 s a quiet machine would need for the credit and concrete forests.
 *
 * Then twin leaves ($twins1) and forest tables wherever they cost less than the kernel's quadrature
 * (tree-shap-wasm.ts, tree-shap.ts), before → after in two back-to-back pairs of runs (loads 1.3–2.3,
 * then 0.6–4), CPU ms per 1,000 records: concrete forest 1765 → 1584 and 1614 → 1333, credit forest
 * 1941 → 1759 and 1759 → 1715, vehicle forest 560 → 573 and 495 → 619 (noise: its kernel runs back to
 * back, 4 alternations, 624/640 → 561/589); the GBDTs, whose code and bits did not change, within the
 * noise (letter 1309 → 1116 and 1168 → 1193). Wall on two threads at the quieter pair: credit forest
 * 1188 → 873, concrete forest 1027 → 784. Callgrind, explanation alone: concrete forest 17.2 → 14.8·10⁹
 * instructions, credit forest 19.0 / 20.9 → 17.7 / 17.5·10⁹ (two runs of each build: they differ by
 * up to 10 %, so the pair run back to back, 19.0 → 17.7, is the figure).
 *
 * Then hot sets packed into 64-bit words ($packed1, $twins1; tree-shap-wasm.ts), main → branch in two
 * back-to-back pairs of runs (loads 4.3–5.9, so the wall time on two threads is about the CPU time),
 * CPU ms per 1,000 records: credit forest 1426 → 1086 and 1308 → 1092, concrete forest 1113 → 851 and
 * 1105 → 845, letter GBDT 975 → 712 and 967 → 707, vehicle forest (vector leaves, unchanged) 360 → 364
 * and 353 → 344; the same bits on every model. A third pair at load 2.1–2.5: CPU credit forest
 * 1317 → 943, concrete forest 1076 → 821, letter GBDT 940 → 676; wall on two threads credit forest
 * 689 → 500, concrete forest 552 → 422, letter GBDT 497 → 357.
 *
 * Then twin records in SIMD lanes with $packed1's terms, $packed1's leaves in lanes, and two row pairs
 * per split record in the forward and backward passes (tree-shap-wasm.ts), main → branch run back to
 * back (load 1.4–1.6; main's forest rows shared the machine with a short check run), CPU ms per 1,000
 * records: credit forest 950 → 891, concrete forest 829 → 643, vehicle forest 358 → 348, letter GBDT
 * 714 → 635; wall on two threads credit forest 570 → 437, concrete forest 426 → 343, vehicle forest
 * 193 → 183, letter GBDT 376 → 333. The same bits on every model.
 *
 * Then vector leaves as class views (tree-shap-wasm.ts classViews), and the letter forest (26 classes,
 * 16,000 training rows; before, skipped: ~100 s a batch) is in the table, timed once, not best of 3.
 * Main → branch, a small driver on the same fitted models (fold 0, seed 0), alternating under the quiet
 * lock, CPU ms per 1,000 records: letter forest 103,245 / 138,594 / 129,305 → 40,542 / 46,600 (loads
 * 1.6–5.5), vehicle forest 466 / 464 / 541 → 283 / 421; wall ms on two scoring threads (CPU of all
 * threads): letter forest 120,056 (142,886) → 21,260 (40,616), vehicle forest 297 (519) → 212 (354) (load
 * 2.2–3.9). Work a record: letter forest 46.8 → 20.0·10⁶ (records/request 21 → 49), vehicle forest
 * 404,306 → 326,429 (2,473 → 3,063). shap's TreeExplainer on scikit-learn's letter forest
 * (627,891 leaves): 8,357 ms CPU for 20 records (load 0.4), ~418,000 per 1,000.
 *
 * Then class views from one pass of class bit sets, the quadrature in v128 locals and fewer tables for
 * vector-leaf trees with more than 4 MB of them (tree-shap-wasm.ts), main → branch alternating under the
 * quiet lock (load 1.1–1.9), CPU ms per 1,000 records: letter forest 41,183 / 40,906 → 24,197 / 25,872,
 * wall on two threads 21,374 → 12,378; vehicle forest (the same bits) 488 / 651 → 433 / 579, wall 218 → 221.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { benchdata } from './lib/benchdata.js';
import { pythonWith } from './lib/python.js';
import { benchFold, loadBenchTable } from './lib/tabular-table.js';
import type { Frame, Task } from '../src/ml/frame.js';
import type { TrainedModel } from '../src/ml/estimator.js';
import { GbdtLearner } from '../src/ml/tabular/gbdt/index.js';
import { RandomForestLearner } from '../src/ml/tabular/forest/index.js';
import { LinearLearner } from '../src/ml/tabular/linear/index.js';
import { BlendModel } from '../src/ml/tabular/contest/blend-model.js';
import { selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { EXPLANATION_WORK_LIMIT, explain, explanationWork } from '../src/ml/explain/explanation.js';
import type { ShapTrees } from '../src/ml/explain/tree-shap.js';
import { gbdtTreeTable } from '../src/ml/tabular/gbdt/explain-forest.js';
import { GbdtModel } from '../src/ml/tabular/gbdt/model.js';
import { ForestModel } from '../src/ml/tabular/forest/forest-model.js';
import { ScoringThreads } from '../src/service/models/scoring-threads.js';

const RECORDS = 1000;

/**
 * Explaining `frame` split over the threads, after a warm-up (the model is sent once): best of `runs`
 * wall-clock ms, and the CPU ms of the whole process (all threads) in that run.
 */
async function threadsMs(threads: ScoringThreads, key: string, model: TrainedModel, frame: Frame, runs = 3): Promise<string> {
  const learner = model.toJSON();
  const byTrees = model.explainsByTreeParts === true;
  await threads.explain(key, () => learner, frame, byTrees);
  let best = { wall: Infinity, cpu: 0 };
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await threads.explain(key, () => learner, frame, byTrees);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (wall < best.wall) best = { wall, cpu: (c.user + c.system) / 1000 };
  }
  return `${best.wall.toFixed(0)} (CPU ${best.cpu.toFixed(0)})`;
}

function cpuMs<T>(f: () => T): { ms: number; value: T } {
  const t0 = process.cpuUsage();
  const value = f();
  const t = process.cpuUsage(t0);
  return { ms: (t.user + t.system) / 1000, value };
}

/** The first `n` rows of the frame, repeated when it has fewer. */
function batch(frame: Frame, n: number): Frame {
  return selectRows(frame, Int32Array.from({ length: n }, (_, i) => i % frame.nRows));
}

/** The set's fold-0 training and test rows as pandas frames (categories as codes) in a Python script's first lines. */
function pythonData(kind: string, name: string, task: Task): string[] {
  const path = root.path(kind, `${name}.csv`);
  const folds = root.path('folds', kind, `${name}.csv`);
  const catalog = root.read('tabular_catalog.csv');
  const entry = catalog.rows.find((r) => r[catalog.header.indexOf('path')]!.endsWith(`${kind}/${name}.csv`))!;
  const target = entry[catalog.header.indexOf('target')]!;
  const objective = task.kind === 'regression' ? 'regression' : task.classes.length > 2 ? 'multiclass' : 'binary';
  return [
    'import sys, time, pandas as pd',
    `d = pd.read_csv(${JSON.stringify(path)}); f = pd.read_csv(${JSON.stringify(folds)})['fold']`,
    `y = d.pop(${JSON.stringify(target)})`,
    `objective = ${JSON.stringify(objective)}`,
    'if objective == "multiclass": y = y.astype("category").cat.codes',
    'if objective == "binary": y = (y == sorted(y.unique())[1]).astype(int)',
    'tr = f != 0',
  ];
}

/** Runs a Python script (after the data lines) that prints numbers; undefined when Python or a module is missing. */
function runPython(lines: string[]): number[] | undefined {
  const python = pythonWith(['pandas']);
  if (!python) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-shap-'));
  try {
    const script = join(dir, 'bench.py');
    writeFileSync(script, lines.join('\n'));
    return execFileSync(python, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).map(Number);
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** LightGBM pred_contrib CPU ms for 1,000 rows of the same training data (100 rounds, 31 leaves, 1 thread), or undefined. */
function lightgbmContrib(kind: string, name: string, task: Task): number | undefined {
  return runPython([
    ...pythonData(kind, name, task),
    'import lightgbm as lgb',
    'for c in d.columns:',
    '    if not pd.api.types.is_numeric_dtype(d[c]): d[c] = d[c].astype("category")',
    'params = dict(objective=objective, num_leaves=31, learning_rate=0.1, num_threads=1, verbose=-1)',
    'if objective == "multiclass": params["num_class"] = int(y.max()) + 1',
    'm = lgb.train(params, lgb.Dataset(d[tr], y[tr]), num_boost_round=100)',
    'x = pd.concat([d[~tr]] * 20).iloc[:1000]',
    'best = 1e9',
    'for _ in range(3):',
    '    t = time.process_time(); m.predict(x, pred_contrib=True); best = min(best, time.process_time() - t)',
    'print(best * 1000)',
  ])?.[0];
}

/**
 * shap.TreeExplainer CPU ms for 1,000 rows on a scikit-learn forest of 300 fully grown trees (categories
 * as integer codes), timed on the first `records` rows and scaled to 1,000, and its leaves; undefined without shap.
 */
function shapForest(kind: string, name: string, task: Task, records: number): { ms: number; leaves: number } | undefined {
  const out = runPython([
    ...pythonData(kind, name, task),
    'import numpy as np, shap',
    'from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor',
    'for c in d.columns:',
    '    if not pd.api.types.is_numeric_dtype(d[c]): d[c] = d[c].astype("category").cat.codes',
    'kw = dict(n_estimators=300, random_state=0, n_jobs=1)',
    'm = (RandomForestRegressor(max_features=1.0, **kw) if objective == "regression" else RandomForestClassifier(max_features="sqrt", **kw)).fit(d[tr], y[tr])',
    `x = pd.concat([d[~tr]] * 20).iloc[:${records}]`,
    'e = shap.TreeExplainer(m)',
    `t = time.process_time(); e.shap_values(x, check_additivity=False); ms = (time.process_time() - t) * 1000 * ${RECORDS / records}`,
    'print(ms, sum(t.tree_.n_leaves for t in m.estimators_))',
  ]);
  if (!out || out.length !== 2 || !out.every(Number.isFinite)) return undefined;
  return { ms: out[0]!, leaves: out[1]! };
}

/** Trees, leaves, deepest leaf, most distinct features on a path; and the largest Ψ tables (MB) one tree needs for `rows` rows. */
function size(model: TrainedModel, frame: Frame, rows: number): { text: string; tableMb: number } {
  let t: ShapTrees;
  if (model instanceof GbdtModel) t = gbdtTreeTable(model.forest);
  else if (model instanceof ForestModel) t = model.shapTrees(batch(frame, 1)).trees;
  else return { text: '—', tableMb: 0 };
  const forest = model instanceof ForestModel;
  let leaves = 0;
  let deepest = 0;
  let widest = 0;
  let largest = 0;
  let entries = 0;
  let treeWidest = 0;
  const seen = new Map<number, number>();
  const walk = (n: number, depth: number, distinct: number): void => {
    if (t.left[n]! < 0) {
      leaves++;
      deepest = Math.max(deepest, depth);
      treeWidest = Math.max(treeWidest, distinct);
      // tree-shap.ts: a leaf is tabulated when 3·2^d ≤ rows·d, a forest's when 4·2^d ≤ rows·(d + 1)·(pairs + 1) (d ≤ 16, in trees whose paths all stay within 16).
      const pairs = (((distinct + 1) >> 1) + 1) >> 1;
      const pays = forest ? 4 * 2 ** distinct <= rows * (distinct + 1) * (pairs + 1) : 3 * 2 ** distinct <= rows * distinct;
      if (distinct > 0 && distinct <= 16 && pays) entries += 2 ** distinct;
      return;
    }
    const f = t.feature[n]!;
    const fresh = (seen.get(f) ?? 0) === 0 ? 1 : 0;
    seen.set(f, (seen.get(f) ?? 0) + 1);
    walk(t.left[n]!, depth + 1, distinct + fresh);
    walk(t.right[n]!, depth + 1, distinct + fresh);
    seen.set(f, seen.get(f)! - 1);
  };
  for (const r of t.roots) {
    entries = 0;
    treeWidest = 0;
    walk(r, 0, 0);
    widest = Math.max(widest, treeWidest);
    if (treeWidest <= 16) largest = Math.max(largest, entries);
  }
  return { text: `${t.roots.length} trees, ${leaves} leaves, depth ${deepest}, ${widest} features/path`, tableMb: (largest * 8) / 2 ** 20 };
}

const root = benchdata();
console.log(`explanations of ${RECORDS} records: CPU ms (best of 3, load average ${loadavg()[0]!.toFixed(2)}); work limit ${EXPLANATION_WORK_LIMIT} steps a request`);
console.log(['data', 'model', 'size', 'work/record', 'records/request', `CPU ms/${RECORDS}`, `wall ms/${RECORDS} on 2 threads (CPU of all threads)`, 'largest tree tables MB', `reference CPU ms/${RECORDS}`].join(' | '));
const threads = new ScoringThreads(2);
for (const [kind, name] of [['classification', 'credit_data'], ['classification', 'letter_recognition'], ['classification', 'vehicle'], ['regression', 'concrete']] as const) {
  const split = benchFold(loadBenchTable(root, kind, name), 0);
  const fit = { seed: 0 };
  const gbdt = new GbdtLearner({ nEstimators: 100, earlyStoppingRounds: 0 }).fit(split.train, split.yTrain, split.task, fit);
  const models: [string, () => TrainedModel][] = [
    ['GBDT 100×31', () => gbdt],
    ['linear', () => new LinearLearner().fit(split.train, split.yTrain, split.task, fit)],
    ['random forest 300 trees', () => new RandomForestLearner().fit(split.train, split.yTrain, split.task, fit)],
  ];
  const reference = lightgbmContrib(kind, name, split.task);
  const fitted: TrainedModel[] = [];
  for (const [label, make] of models) {
    const model = make();
    fitted.push(model);
    const work = explanationWork(model);
    const perRequest = Math.floor(EXPLANATION_WORK_LIMIT / Math.max(1, work));
    const frame = batch(split.test, RECORDS);
    // The letter forest takes tens of seconds a batch: one run of it, not best of 3.
    const runs = work * RECORDS > 1e10 ? 1 : 3;
    let best = Infinity;
    for (let i = 0; i < runs; i++) best = Math.min(best, cpuMs(() => explain(model, frame)).ms);
    let ref = '—';
    if (label.startsWith('GBDT') && reference !== undefined) ref = `LightGBM pred_contrib ${reference.toFixed(0)}`;
    if (label.startsWith('random')) {
      // shap on the letter forest (26 classes, ~1 s a record) is timed on 20 records.
      const records = name === 'letter_recognition' ? 20 : RECORDS;
      const s = shapForest(kind, name, split.task, records);
      const on = records < RECORDS ? `, timed on ${records} records ×${RECORDS / records}` : '';
      if (s) ref = `shap TreeExplainer ${s.ms.toFixed(0)} (scikit-learn forest, ${s.leaves} leaves${on})`;
    }
    const { text, tableMb } = size(model, split.test, RECORDS);
    const wall = work > 0 && threads.available ? await threadsMs(threads, `${name} ${label}`, model, frame, runs) : '—';
    console.log([name, label, text, work, perRequest, best.toFixed(0), wall, tableMb.toFixed(2), ref].join(' | '));
  }
  if (split.task.kind === 'classification' && fitted.length === 3) {
    const blend = new BlendModel(split.task, [fitted[0]!, fitted[1]!]);
    const frame = batch(split.test, RECORDS);
    let best = Infinity;
    for (let i = 0; i < 3; i++) best = Math.min(best, cpuMs(() => explain(blend, frame)).ms);
    const wall = threads.available ? await threadsMs(threads, `${name} blend`, blend, frame) : '—';
    console.log([name, 'blend GBDT + linear', '—', explanationWork(blend), Math.floor(EXPLANATION_WORK_LIMIT / explanationWork(blend)), best.toFixed(0), wall, '—', '—'].join(' | '));
  }
}
await threads.close();
