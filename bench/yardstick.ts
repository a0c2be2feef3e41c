/**
 * The yardstick (issue 10): many real sets from nine Debian R data packages (bench/yardstick-sets.json),
 * each split into a tuning and a confirmation half by a fixed hash of its name. For every set and outer
 * fold the whole contest runs on the outer training fold only (its inner folds, candidate choice,
 * blending and refit never see the test fold) and the refit champion is scored on the test fold: nested
 * cross-validation. Printed per set: our ROC AUC / RMSE next to each reference (bench/yardstick_reference.py,
 * same folds) and the best; then per half the means, the sets more than 0.02 AUC below their best
 * reference, and the RMSE ratios.
 *
 * Data: bench/export_r_sets.py writes the sets (default bench/.data/yardstick, or SIBYL_YARDSTICK);
 * bench/yardstick_reference.py the references beside them.
 * Usage: npm run bench:yardstick [-- --half tuning|confirmation] [--only a,b] [--outer-folds 5]
 *        [--work <training cells per contest>] [--workers 0|1|2] [--json out.json] [--report saved.json]
 *        [--selection-rule best-mean|one-standard-error|linear-within-one-standard-error] [--ensembles average|stack]
 *        (defaults: the contest's)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dataRoot, repositoryRoot, type DataRoot } from './lib/data-root.js';
import { benchFold, loadBenchTable, type TabularKind } from './lib/tabular-table.js';
import { classificationMetrics } from '../src/ml/metrics/classification.js';
import { regressionMetrics } from '../src/ml/metrics/regression.js';
import { contestWorkBudget, fitChampion, inThreadExecutor, runContest, type CandidateExecutor, type EnsembleKind, type SelectionRule } from '../src/ml/tabular/contest/index.js';
import { ContestWorkerPool } from '../src/jobs/contest-pool.js';

export type Half = 'tuning' | 'confirmation';

export interface YardstickSet {
  name: string;
  package: string;
  target: string;
  task: TabularKind;
  half: Half;
}

export const REFERENCE_MODELS = ['lightgbm', 'hist_gbm', 'random_forest', 'linear'] as const;
/** A set counts as a miss when our AUC is more than this below its best reference. */
const AUC_MISS = 0.02;

export function yardstickSets(): YardstickSet[] {
  const doc = JSON.parse(readFileSync(resolve(repositoryRoot(), 'bench', 'yardstick-sets.json'), 'utf8')) as { sets: YardstickSet[] };
  return doc.sets;
}

export function yardstickData(): DataRoot {
  const dir = resolve(process.env.SIBYL_YARDSTICK ?? resolve(repositoryRoot(), 'bench', '.data', 'yardstick'));
  const missing = ['tabular_catalog.csv'].filter((f) => !existsSync(resolve(dir, f)));
  if (missing.length) {
    console.error([
      `The yardstick data is missing in ${dir}: no ${missing.join(', ')}.`,
      'Make it from the installed Debian R data packages (r-cran-cardata r-cran-hsaur3 r-cran-survival r-cran-rpart',
      'r-cran-ggplot2 r-cran-vcd r-cran-boot r-cran-robustbase r-cran-psych) and the Python venv:',
      '  /work/venv/bin/python bench/export_r_sets.py [dir]',
      '  OMP_NUM_THREADS=1 /work/venv/bin/python bench/yardstick_reference.py [dir]',
      'and point SIBYL_YARDSTICK at the folder when it is not bench/.data/yardstick.',
    ].join('\n'));
    process.exit(2);
  }
  return dataRoot(dir);
}

/** Reference metric per set, model and fold (reference/tabular_folds.csv). */
export function referenceFolds(root: DataRoot): Map<string, number[]> {
  if (!existsSync(root.path('reference', 'tabular_folds.csv'))) {
    console.error(`no ${root.path('reference', 'tabular_folds.csv')}: references show as n/a (run bench/yardstick_reference.py)`);
    return new Map();
  }
  const table = root.read('reference', 'tabular_folds.csv');
  const col = (h: string) => table.header.indexOf(h);
  const out = new Map<string, number[]>();
  for (const r of table.rows) {
    const key = `${r[col('dataset')]}/${r[col('model')]}`;
    const value = Number(r[col(r[col('task')] === 'classification' ? 'roc_auc' : 'rmse')]);
    const list = out.get(key) ?? [];
    list[Number(r[col('fold')])] = value;
    out.set(key, list);
  }
  return out;
}

export interface SetResult {
  name: string;
  task: TabularKind;
  half: Half;
  /** ROC AUC (classification) or RMSE (regression), mean over the outer folds run. */
  ours: number;
  refs: Record<string, number>;
  best: number;
  champions: string[];
  cpuSeconds: number;
  outerFolds: number;
}

export function withReferences(r: SetResult, outerFolds: number, refFolds: Map<string, number[]>): SetResult {
  const refs: Record<string, number> = {};
  for (const m of REFERENCE_MODELS) {
    const folds = refFolds.get(`${r.name}/${m}`);
    if (folds) refs[m] = folds.slice(0, outerFolds).reduce((a, b) => a + b, 0) / outerFolds;
  }
  const values = Object.values(refs);
  const best = values.length === 0 ? NaN : r.task === 'classification' ? Math.max(...values) : Math.min(...values);
  return { ...r, refs, best };
}

async function evaluateSet(root: DataRoot, set: YardstickSet, outerFolds: number, work: number | undefined, executor: CandidateExecutor, refFolds: Map<string, number[]>, selectionRule?: SelectionRule, ensembles?: EnsembleKind): Promise<SetResult> {
  const table = loadBenchTable(root, set.task, set.name);
  let sum = 0;
  let cpuSeconds = 0;
  const champions: string[] = [];
  for (let k = 0; k < outerFolds; k++) {
    const split = benchFold(table, k);
    const cpu = process.cpuUsage();
    // Everything the contest decides is decided here, on the outer training fold alone.
    const contest = await runContest(split.train, split.yTrain, split.task, {
      seed: k,
      workBudget: work ?? contestWorkBudget(split.train.nRows),
      balance: false,
      executor,
      selectionRule,
      ensembles,
    });
    const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: false });
    const used = process.cpuUsage(cpu);
    cpuSeconds += (used.user + used.system) / 1e6;
    champions.push(contest.champion.id);
    const scores = model.predictScores(split.test);
    sum += split.task.kind === 'classification'
      ? classificationMetrics(Int32Array.from(split.yTest), scores, split.task.classes.length, { positiveClass: table.positiveClass }).rocAreaUnderCurve
      : regressionMetrics(split.yTest, scores).rootMeanSquareError;
  }
  const result = { name: set.name, task: set.task, half: set.half, ours: sum / outerFolds, refs: {}, best: NaN, champions, cpuSeconds, outerFolds };
  return withReferences(result, outerFolds, refFolds);
}

const f4 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(4));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const geometricMean = (xs: number[]) => Math.exp(mean(xs.map(Math.log)));

export function describeSet(r: SetResult): string {
  const counts = new Map<string, number>();
  for (const c of r.champions) counts.set(c, (counts.get(c) ?? 0) + 1);
  const refs = REFERENCE_MODELS.map((m) => `${m} ${f4(r.refs[m])}`).join(' ');
  const gap = r.task === 'classification' ? `Δbest ${(r.ours - r.best >= 0 ? '+' : '')}${(r.ours - r.best).toFixed(4)}` : `÷best ${(r.ours / r.best).toFixed(3)} ÷lgb ${(r.ours / r.refs.lightgbm).toFixed(3)}`;
  return `${r.half.padEnd(12)} ${r.name.padEnd(20)} ${r.task === 'classification' ? 'auc' : 'rmse'} ${f4(r.ours)} | ${refs} | best ${f4(r.best)} ${gap} | cpu ${r.cpuSeconds.toFixed(1)}s [${[...counts].map(([c, n]) => `${c}×${n}`).join(' ')}]`;
}

export function summariseHalf(half: string, results: SetResult[]): string[] {
  const cls = results.filter((r) => r.task === 'classification');
  const reg = results.filter((r) => r.task === 'regression');
  const lines: string[] = [];
  if (cls.length) {
    const misses = cls.filter((r) => r.ours < r.best - AUC_MISS);
    lines.push(
      `${half}: classification ${cls.length} sets, mean AUC ${f4(mean(cls.map((r) => r.ours)))} vs best reference ${f4(mean(cls.map((r) => r.best)))} ` +
        `(LightGBM ${f4(mean(cls.map((r) => r.refs.lightgbm)))}, linear ${f4(mean(cls.map((r) => r.refs.linear)))}); ` +
        `${misses.length} sets more than ${AUC_MISS} below best${misses.length ? ` (${misses.map((r) => `${r.name} ${(r.ours - r.best).toFixed(3)}`).join(', ')})` : ''}`,
    );
  }
  if (reg.length) {
    const worse = reg.filter((r) => r.ours > 1.05 * r.best);
    lines.push(
      `${half}: regression ${reg.length} sets, RMSE ratio (geometric mean) vs LightGBM ${f4(geometricMean(reg.map((r) => r.ours / r.refs.lightgbm)))} ` +
        `vs best reference ${f4(geometricMean(reg.map((r) => r.ours / r.best)))}; ${worse.length} sets more than 5% above best` +
        `${worse.length ? ` (${worse.map((r) => `${r.name} ×${(r.ours / r.best).toFixed(3)}`).join(', ')})` : ''}`,
    );
  }
  lines.push(`${half}: contest + refit CPU ${results.reduce((a, r) => a + r.cpuSeconds, 0).toFixed(1)}s`);
  return lines;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const argValue = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const half = argValue('--half');
  const only = argValue('--only')?.split(',');
  const outerFolds = Number(argValue('--outer-folds') ?? 5);
  const work = argValue('--work') === undefined ? undefined : Number(argValue('--work'));
  const workers = Number(argValue('--workers') ?? 0);
  const jsonOut = argValue('--json');
  const selectionRule = argValue('--selection-rule') as SelectionRule | undefined;
  const ensembles = argValue('--ensembles') as EnsembleKind | undefined;
  const root = yardstickData();
  const refFolds = referenceFolds(root);
  const sets = yardstickSets().filter((s) => (!half || s.half === half) && (!only || only.includes(s.name)));
  const pool = workers > 0 ? new ContestWorkerPool(workers) : undefined;
  const results: SetResult[] = [];
  const report = argValue('--report');
  if (report) {
    // Reprints saved results (--json) against the current references, without running anything.
    const saved = (JSON.parse(readFileSync(report, 'utf8')) as SetResult[]).filter((r) => sets.some((s) => s.name === r.name));
    for (const r of saved) results.push(withReferences(r, r.outerFolds, refFolds));
    for (const r of results) console.log(describeSet(r));
    for (const h of ['tuning', 'confirmation'] as const) {
      const part = results.filter((r) => r.half === h);
      if (part.length) for (const line of summariseHalf(h, part)) console.log(line);
    }
    return;
  }
  console.log(`yardstick: ${sets.length} sets from ${root.dir}, ${outerFolds} outer folds, contest nested in each outer training fold; ${workers || 'no'} worker threads`);
  try {
    for (const set of sets) {
      const r = await evaluateSet(root, set, outerFolds, work, pool ?? inThreadExecutor, refFolds, selectionRule, ensembles);
      results.push(r);
      console.log(describeSet(r));
    }
  } finally {
    await pool?.close();
  }
  for (const h of ['tuning', 'confirmation'] as const) {
    const part = results.filter((r) => r.half === h);
    if (part.length) for (const line of summariseHalf(h, part)) console.log(line);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 1));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
