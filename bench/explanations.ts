/**
 * Explanation speed: CPU time to explain a 1,000-record batch (goal: well under a second) per model
 * kind, next to LightGBM's pred_contrib on a model of the same size (100 rounds, 31 leaves, one thread)
 * when the Python at $SIBYL_PYTHON (default /work/venv/bin/python) has lightgbm. Also prints each
 * model's size (trees, leaves, deepest leaf, most distinct features on a path), its explanation work
 * per record (tree-shap.ts pathWork) and how many records one request may explain under the work
 * limit, and the largest Ψ tables one tree needs at once (they are built per request, tree by tree,
 * and not kept). Data: the shared benchmark data's credit_data (binary, categorical and missing
 * values), letter_recognition (26 classes), vehicle (4 classes) and concrete (regression), fold 0.
 * Usage: npm run bench:explanations
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { benchdata } from './lib/benchdata.js';
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

const RECORDS = 1000;
const python = process.env.SIBYL_PYTHON ?? '/work/venv/bin/python';

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

/** LightGBM pred_contrib CPU ms for 1,000 rows of the same training data (100 rounds, 31 leaves, 1 thread), or undefined. */
function lightgbmContrib(kind: string, name: string, task: Task): number | undefined {
  if (!existsSync(python)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-shap-'));
  try {
    const path = root.path(kind, `${name}.csv`);
    const folds = root.path('folds', kind, `${name}.csv`);
    const catalog = root.read('tabular_catalog.csv');
    const entry = catalog.rows.find((r) => r[catalog.header.indexOf('path')]!.endsWith(`${kind}/${name}.csv`))!;
    const target = entry[catalog.header.indexOf('target')]!;
    const objective = task.kind === 'regression' ? 'regression' : task.classes.length > 2 ? 'multiclass' : 'binary';
    const script = join(dir, 'contrib.py');
    writeFileSync(script, [
      'import sys, time, pandas as pd, lightgbm as lgb',
      `d = pd.read_csv(${JSON.stringify(path)}); f = pd.read_csv(${JSON.stringify(folds)})['fold']`,
      `y = d.pop(${JSON.stringify(target)})`,
      'for c in d.columns:',
      '    if not pd.api.types.is_numeric_dtype(d[c]): d[c] = d[c].astype("category")',
      `params = dict(objective=${JSON.stringify(objective)}, num_leaves=31, learning_rate=0.1, num_threads=1, verbose=-1)`,
      objective === 'multiclass' ? 'y = y.astype("category").cat.codes; params["num_class"] = int(y.max()) + 1' : objective === 'binary' ? 'y = (y == sorted(y.unique())[1]).astype(int)' : '',
      'tr = f != 0',
      'm = lgb.train(params, lgb.Dataset(d[tr], y[tr]), num_boost_round=100)',
      'x = pd.concat([d[~tr]] * 20).iloc[:1000]',
      'best = 1e9',
      'for _ in range(3):',
      '    t = time.process_time(); m.predict(x, pred_contrib=True); best = min(best, time.process_time() - t)',
      'print(best * 1000)',
    ].join('\n'));
    return Number(execFileSync(python, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Trees, leaves, deepest leaf, most distinct features on a path; and the largest Ψ tables (MB) one tree needs for `rows` rows. */
function size(model: TrainedModel, frame: Frame, rows: number): { text: string; tableMb: number } {
  let t: ShapTrees;
  if (model instanceof GbdtModel) t = gbdtTreeTable(model.forest);
  else if (model instanceof ForestModel) t = model.shapTrees(batch(frame, 1)).trees;
  else return { text: '—', tableMb: 0 };
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
      // tree-shap.ts: a leaf is tabulated when 3·2^d ≤ rows·d (d ≤ 16, in trees whose paths all stay within 16).
      if (distinct > 0 && distinct <= 16 && 3 * 2 ** distinct <= rows * distinct) entries += 2 ** distinct;
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
console.log(['data', 'model', 'size', 'work/record', 'records/request', `CPU ms/${RECORDS}`, 'largest tree tables MB', `LightGBM pred_contrib ms/${RECORDS}`].join(' | '));
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
    if (name === 'letter_recognition' && label.startsWith('random')) continue;
    const model = make();
    fitted.push(model);
    const work = explanationWork(model);
    const perRequest = Math.floor(EXPLANATION_WORK_LIMIT / Math.max(1, work));
    // Fully grown forests: time what one request may hold and scale to 1,000 records (said so).
    const n = Math.min(RECORDS, Math.max(1, perRequest));
    const frame = batch(split.test, n);
    let best = Infinity;
    for (let i = 0; i < 3; i++) best = Math.min(best, cpuMs(() => explain(model, frame)).ms);
    const per1000 = (best * RECORDS) / n;
    const ref = label.startsWith('GBDT') && reference !== undefined ? reference.toFixed(0) : '—';
    const { text, tableMb } = size(model, split.test, n);
    console.log([name, label, text, work, perRequest, `${per1000.toFixed(0)}${n < RECORDS ? ` (from ${n})` : ''}`, tableMb.toFixed(2), ref].join(' | '));
  }
  if (split.task.kind === 'classification' && fitted.length === 3) {
    const blend = new BlendModel(split.task, [fitted[0]!, fitted[1]!]);
    const frame = batch(split.test, RECORDS);
    let best = Infinity;
    for (let i = 0; i < 3; i++) best = Math.min(best, cpuMs(() => explain(blend, frame)).ms);
    console.log([name, 'blend GBDT + linear', '—', explanationWork(blend), Math.floor(EXPLANATION_WORK_LIMIT / explanationWork(blend)), best.toFixed(0), '—', '—'].join(' | '));
  }
}
