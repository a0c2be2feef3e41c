/**
 * Tabular benchmark (benchdata/PROTOCOL.md §1): for every classification and regression data set,
 * 5-fold CV with the fixed folds, a whole contest + champion refit on each training fold, scored on
 * the test fold next to the reference results; then the anomaly benchmark and one summary line.
 * Uncertainty (issue 9): class scores before/after calibration (log loss, Brier, ECE, reliability
 * table) next to LightGBM's, and conformal interval coverage/width next to a LightGBM quantile pair
 * (bench/lightgbm_uncertainty.py; the benches' Python, bench/lib/python.ts).
 * The same contest on many more sets, by nested CV with a tuning and a confirmation half: bench/yardstick.ts
 * (npm run bench:yardstick).
 * Usage: npm run bench:tabular [-- --only a,b] [--no-anomaly] [--balance] [--work <training cells per contest; default contestWorkBudget(rows)>] [--select-by logLoss|macroAverageF1Score]
 *        [--selection-rule best-mean|one-standard-error|linear-within-one-standard-error (default: the contest's)]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchdata, benchPath, column, readCsv } from './lib/benchdata.js';
import { pythonWithLightgbm } from './lib/lightgbm-run.js';
import { benchFold, DROPPED_COLUMNS, loadBenchTable, type TabularKind } from './lib/tabular-table.js';
import { classificationMetrics } from '../src/ml/metrics/classification.js';
import { regressionMetrics } from '../src/ml/metrics/regression.js';
import { contestWorkBudget, fitChampion, runContest, type CandidateExecutor, type ClassificationSelection, type SelectionRule } from '../src/ml/tabular/contest/index.js';
import { ContestWorkerPool } from '../src/jobs/contest-pool.js';
import { championUncertainty } from '../src/ml/calibration/champion-uncertainty.js';
import { BENCH_INTERVAL_LEVELS, meanOf, methodCounts, newTally, pooledCoverage, reliabilityLines, tallyFold, type UncertaintyTally } from './lib/uncertainty.js';

export function listBenchTables(): { kind: TabularKind; name: string }[] {
  const catalog = readCsv('tabular_catalog.csv');
  const out: { kind: TabularKind; name: string }[] = [];
  for (const path of column(catalog, 'path')) {
    const m = /(classification|regression)\/([^/]+)\.csv$/.exec(path);
    if (m) out.push({ kind: m[1] as TabularKind, name: m[2] });
  }
  return out;
}

// ---- benchmark run ------------------------------------------------------------------------------

type Ref = Record<string, string>;

interface DatasetResult {
  kind: TabularKind;
  name: string;
  metrics: Record<string, number>;
  fitSeconds: number;
  /** CPU seconds of contest + refit, all threads (steadier than wall time on a shared machine). */
  fitCpuSeconds: number;
  lightgbmSeconds?: number;
  refs: Map<string, Ref>;
  champions: string[];
  uncertainty: UncertaintyTally;
  lightgbmUncertainty?: Record<string, number>;
}

/**
 * A LightGBM reference script of bench/ (lightgbm_timing.py, lightgbm_uncertainty.py) on the table's
 * protocol folds: its last output line as JSON, or undefined (said on stderr) when it fails.
 */
function lightgbmReference<T>(python: string, script: string, kind: TabularKind, name: string, extraArgs: string[] = []): T | undefined {
  const catalog = readCsv('tabular_catalog.csv');
  const entry = catalog.rows.find((r) => r[catalog.header.indexOf('path')].endsWith(`${kind}/${name}.csv`))!;
  const target = entry[catalog.header.indexOf('target')];
  try {
    const out = execFileSync(
      python,
      [join(process.cwd(), 'bench', script), benchPath(kind, `${name}.csv`), target, JSON.stringify(DROPPED_COLUMNS[name] ?? []), benchPath('folds', kind, `${name}.csv`), kind, ...extraArgs],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMP_NUM_THREADS: '1' } },
    );
    return JSON.parse(out.trim().split('\n').pop()!) as T;
  } catch (e) {
    console.error(`${script} failed on ${name}: ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

function describeUncertainty(r: DatasetResult): string[] {
  const u = r.uncertainty;
  const lgb = r.lightgbmUncertainty;
  if (r.kind === 'classification') {
    const row = (label: string, key: string, refKey: string, ref?: string) =>
      `${label} ${fmt(meanOf(u, `raw${key}`))} → ${fmt(meanOf(u, `cal${key}`))} (lgb ${fmt(lgb?.[refKey])}${ref !== undefined ? `, ref ${fmt(ref)}` : ''})`;
    return [
      `  calibration [${methodCounts(u)}]: ${row('log loss', 'LogLoss', 'logLoss', r.refs.get('lightgbm')?.log_loss)}  ${row('Brier', 'Brier', 'brierScore')}  ${row('ECE', 'Ece', 'ece')}`,
      '  reliability of the calibrated scores (test folds pooled, top label):',
      ...reliabilityLines(u),
    ];
  }
  const lines = BENCH_INTERVAL_LEVELS.map((l) => {
    const p = pooledCoverage(u, l);
    const verdict = Math.abs(p.coverage - l) <= p.band ? 'within' : p.coverage > l ? 'OVER' : 'UNDER';
    return `    ${Math.round(l * 100)}%: coverage ${pct(p.coverage)} ± ${pct(p.band)} (n ${p.rows}, ${verdict} sampling error)  width ${fmt(p.width, 3)}  interval score ${fmt(p.score, 3)}` +
      `  | lgb quantile pair: coverage ${pct(lgb?.[`coverage${l}`])} width ${fmt(lgb?.[`width${l}`], 3)} interval score ${fmt(lgb?.[`score${l}`], 3)}`;
  });
  return [`  conformal intervals [${methodCounts(u)}], test folds pooled; ± = 2·√(L(1−L)/n), the binomial sampling error at the nominal level:`, ...lines];
}

const pct = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 'n/a' : `${(v * 100).toFixed(1)}%`);

async function evaluateDataset(
  kind: TabularKind,
  name: string,
  opts: { work?: number; balance: boolean; selectBy: ClassificationSelection; executor: CandidateExecutor; selectionRule?: SelectionRule },
): Promise<Omit<DatasetResult, 'refs' | 'lightgbmSeconds' | 'lightgbmUncertainty'>> {
  const table = loadBenchTable(benchdata(), kind, name);
  const sums: Record<string, number> = {};
  let fitSeconds = 0;
  let fitCpuSeconds = 0;
  const champions: string[] = [];
  const uncertainty = newTally();
  for (let k = 0; k < 5; k++) {
    const split = benchFold(table, k);
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const contest = await runContest(split.train, split.yTrain, split.task, {
      seed: k,
      workBudget: opts.work ?? contestWorkBudget(split.train.nRows),
      balance: opts.balance,
      selectBy: opts.selectBy,
      executor: opts.executor,
      selectionRule: opts.selectionRule,
    });
    const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: opts.balance });
    fitSeconds += (performance.now() - started) / 1000 / 5;
    const cpu = process.cpuUsage(cpuStarted);
    fitCpuSeconds += (cpu.user + cpu.system) / 1e6 / 5;
    champions.push(contest.champion.id);
    const u = championUncertainty(model, split.train, split.yTrain, contest, { seed: k, balance: opts.balance });
    tallyFold(uncertainty, split.task, model, u, split.test, split.yTest);
    const predictions = u.model.predictScores(split.test);
    const m =
      split.task.kind === 'classification'
        ? classificationMetrics(Int32Array.from(split.yTest), predictions, split.task.classes.length, { positiveClass: table.positiveClass })
        : regressionMetrics(split.yTest, predictions);
    for (const [key, v] of Object.entries(m)) sums[key] = (sums[key] ?? 0) + v / 5;
  }
  return { kind, name, metrics: sums, fitSeconds, fitCpuSeconds, champions, uncertainty };
}

const fmt = (v: number | string | undefined, digits = 4) =>
  v === undefined || v === '' ? 'n/a' : Number(v).toFixed(digits);

function bestReference(refs: Map<string, Ref>, column: string, higherIsBetter: boolean): number | undefined {
  const values = [...refs.values()].map((r) => Number(r[column])).filter((v) => Number.isFinite(v));
  if (values.length === 0) return undefined;
  return higherIsBetter ? Math.max(...values) : Math.min(...values);
}

function describe(r: DatasetResult): string {
  const lgb = r.refs.get('lightgbm');
  const counts = new Map<string, number>();
  for (const c of r.champions) counts.set(c, (counts.get(c) ?? 0) + 1);
  const champions = [...counts].map(([c, n]) => `${c}×${n}`).join(' ');
  const time = `fit ${fmt(r.fitSeconds, 2)}s (cpu ${fmt(r.fitCpuSeconds, 2)}s) vs lgb ref ${fmt(lgb?.fit_seconds, 2)}s` +
    (r.lightgbmSeconds !== undefined ? ` / measured ${fmt(r.lightgbmSeconds, 2)}s` : '');
  if (r.kind === 'classification') {
    const trio = (key: string, col: string, higher: boolean) =>
      `${col} ${fmt(r.metrics[key])} (lgb ${fmt(lgb?.[col])}, best ${fmt(bestReference(r.refs, col, higher))})`;
    return `${r.name.padEnd(20)} ${trio('accuracy', 'accuracy', true)} ${trio('macroAverageF1Score', 'macro_f1', true)} ` +
      `${trio('rocAreaUnderCurve', 'roc_auc', true)} ${trio('logLoss', 'log_loss', false)} ${time} [${champions}]`;
  }
  const trio = (key: string, col: string, higher: boolean, digits: number) =>
    `${col} ${fmt(r.metrics[key], digits)} (lgb ${fmt(lgb?.[col], digits)}, best ${fmt(bestReference(r.refs, col, higher), digits)})`;
  return `${r.name.padEnd(20)} ${trio('rootMeanSquareError', 'rmse', false, 3)} ${trio('meanAbsoluteError', 'mae', false, 3)} ` +
    `${trio('rSquared', 'r2', true, 4)} ${time} [${champions}]`;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const geometricMean = (xs: number[]) => Math.exp(mean(xs.map(Math.log)));

async function anomalySummary(): Promise<{ ours: number; ref: number; lines: string[] } | undefined> {
  try {
    // Loaded lazily by a computed specifier: it belongs to another part of the benchmark and may be absent.
    const specifier = './anomaly.js';
    const anomaly = (await import(specifier)) as { runAnomalyBench: () => Promise<{ ours: number; ref: number; lines: string[] }> };
    return await anomaly.runAnomalyBench();
  } catch (e) {
    console.error(`anomaly benchmark unavailable: ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const argValue = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const only = argValue('--only')?.split(',');
  const work = argValue('--work') === undefined ? undefined : Number(argValue('--work'));
  const balance = args.includes('--balance');
  const selectBy = (argValue('--select-by') ?? 'logLoss') as ClassificationSelection;
  const selectionRule = argValue('--selection-rule') as SelectionRule | undefined;
  const references = readCsv('reference', 'tabular.csv');
  const refsOf = (name: string) =>
    new Map(
      references.rows
        .filter((r) => r[0] === name)
        .map((r) => [r[references.header.indexOf('model')], Object.fromEntries(references.header.map((h, j) => [h, r[j]]))]),
    );
  const python = pythonWithLightgbm();
  const pool = new ContestWorkerPool(2);
  const results: DatasetResult[] = [];
  try {
    for (const { kind, name } of listBenchTables()) {
      if (only && !only.includes(name)) continue;
      const lightgbmSeconds = python ? lightgbmReference<{ fitSeconds: number }>(python, 'lightgbm_timing.py', kind, name)?.fitSeconds : undefined;
      const lightgbmUncertaintyFigures = python ? lightgbmReference<Record<string, number>>(python, 'lightgbm_uncertainty.py', kind, name, [JSON.stringify(BENCH_INTERVAL_LEVELS)]) : undefined;
      const result = { ...(await evaluateDataset(kind, name, { work, balance, selectBy, executor: pool, selectionRule })), refs: refsOf(name), lightgbmSeconds, lightgbmUncertainty: lightgbmUncertaintyFigures };
      results.push(result);
      console.log(describe(result));
      for (const line of describeUncertainty(result)) console.log(line);
    }
  } finally {
    await pool.close();
  }
  const classification = results.filter((r) => r.kind === 'classification' && r.refs.has('lightgbm'));
  const regression = results.filter((r) => r.kind === 'regression' && r.refs.has('lightgbm'));
  const num = (v: number) => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
  const aucOurs = mean(classification.map((r) => r.metrics.rocAreaUnderCurve));
  const aucLgb = mean(classification.map((r) => Number(r.refs.get('lightgbm')!.roc_auc)));
  const aucBest = mean(classification.map((r) => bestReference(r.refs, 'roc_auc', true)!));
  const rmseVsLgb = geometricMean(regression.map((r) => r.metrics.rootMeanSquareError / Number(r.refs.get('lightgbm')!.rmse)));
  const rmseVsBest = geometricMean(regression.map((r) => r.metrics.rootMeanSquareError / bestReference(r.refs, 'rmse', false)!));
  const timed = results.filter((r) => r.lightgbmSeconds !== undefined);
  const timeRatio = timed.length ? geometricMean(timed.map((r) => r.fitSeconds / r.lightgbmSeconds!)).toFixed(2) : 'n/a';
  const calibrated = results.filter((r) => r.kind === 'classification');
  const regressed = results.filter((r) => r.kind === 'regression');
  if (calibrated.length) {
    const avg = (key: string) => num(mean(calibrated.map((r) => meanOf(r.uncertainty, key))));
    const lgbAvg = (key: string) => num(mean(calibrated.filter((r) => r.lightgbmUncertainty).map((r) => r.lightgbmUncertainty![key])));
    console.log(`calibration: ${calibrated.length} datasets; mean log loss ${avg('rawLogLoss')} → ${avg('calLogLoss')} (lgb ${lgbAvg('logLoss')}), Brier ${avg('rawBrier')} → ${avg('calBrier')} (lgb ${lgbAvg('brierScore')}), ECE ${avg('rawEce')} → ${avg('calEce')} (lgb ${lgbAvg('ece')})`);
  }
  if (regressed.length) {
    const parts = BENCH_INTERVAL_LEVELS.map((l) => {
      const ours = mean(regressed.map((r) => pooledCoverage(r.uncertainty, l).coverage));
      const withRef = regressed.filter((r) => r.lightgbmUncertainty);
      const ref = mean(withRef.map((r) => r.lightgbmUncertainty![`coverage${l}`]));
      const widthRatio = geometricMean(withRef.map((r) => pooledCoverage(r.uncertainty, l).width / r.lightgbmUncertainty![`width${l}`]));
      const scoreRatio = geometricMean(withRef.map((r) => pooledCoverage(r.uncertainty, l).score / r.lightgbmUncertainty![`score${l}`]));
      const worst = Math.max(...regressed.map((r) => Math.abs(pooledCoverage(r.uncertainty, l).coverage - l)));
      const within = regressed.filter((r) => { const p = pooledCoverage(r.uncertainty, l); return Math.abs(p.coverage - l) <= p.band; }).length;
      return `${Math.round(l * 100)}% coverage ${num(ours)} (lgb quantile pair ${num(ref)}; ${within} of ${regressed.length} sets within sampling error, worst ${(worst * 100).toFixed(1)} points off), ` +
        `width ratio vs lgb ${num(widthRatio)}, interval score ratio vs lgb ${num(scoreRatio)}`;
    });
    console.log(`intervals: ${regressed.length} datasets; ${parts.join('; ')}`);
  }
  const anomaly = args.includes('--no-anomaly') ? undefined : await anomalySummary();
  // Its own summary line is left out: the figures are part of the tabular summary below.
  for (const line of anomaly?.lines ?? []) if (!line.startsWith('anomaly:')) console.log(line);
  console.log(
    `tabular: ${results.length} datasets; classification mean AUC ${num(aucOurs)} vs LightGBM ${num(aucLgb)} vs best reference ${num(aucBest)}; ` +
      `regression RMSE ratio vs LightGBM ${num(rmseVsLgb)} vs best reference ${num(rmseVsBest)}; ` +
      `anomaly mean ROC-AUC ${anomaly ? num(anomaly.ours) : 'n/a'} vs IsolationForest ${anomaly ? num(anomaly.ref) : 'n/a'}; ` +
      `train time ratio vs LightGBM ${timeRatio}`,
  );
  console.log('more sets (tuning and confirmation halves, nested CV): npm run bench:yardstick');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
