/**
 * The learning-curve effect on conformal intervals, measured on the tabular protocol's folds. The
 * conformal scores are the contest's out-of-fold residuals of fold models trained on (k−1)/k of the
 * rows; the interval is centred on the refit on all of them, which may err less. Per set and outer
 * fold this records what a correction can be judged by, without refitting per variant:
 * - r1: the contest's out-of-fold |residuals| (fold models on m₁ = (k−1)/k·n rows: what ships);
 * - r2: |residuals| on the same rows of the champion's fold models refitted on a seeded
 *   subsample of ρ = SUBSAMPLE of each fold's training rows (m₂ = ρ·m₁), the learning curve's second point;
 * - the test fold's truth, the refit's predictions and the half-widths of the shipped (chosen) and
 *   plain intervals at each level;
 * - the CPU time of the extra fits beside the contest's and the refit's.
 * The records go to a JSON file (--json); then each correction (learningCurveFactors) is judged per set,
 * test folds pooled: coverage, mean width and interval score beside the shipped intervals, the factor
 * that would have covered each test fold exactly, and the LightGBM quantile pair when python has lightgbm;
 * over the sets, each variant's deviations from nominal and Σz² (z: the deviation in binomial
 * standard errors; about the number of sets for intervals that hold their level).
 * Verdict (src/ml/conformal/regression-intervals.ts header): no correction ships.
 * Usage: npm run bench:interval-learning-curve -- [--json out.json] [--data dir] [--only a,b] [--report saved.json]
 *        (default: every regression set of at most 2,000 rows of the data root: SIBYL_BENCHDATA, or --data)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchdata } from './lib/benchdata.js';
import { pythonWithLightgbm } from './lib/lightgbm-run.js';
import { column } from './lib/csv.js';
import { dataRoot, type DataRoot } from './lib/data-root.js';
import { benchFold, loadBenchTable } from './lib/tabular-table.js';
import { contestWorkBudget, fitChampion, runContest } from '../src/ml/tabular/contest/index.js';
import { pick, selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { ContestWorkerPool } from '../src/jobs/contest-pool.js';
import { championUncertainty } from '../src/ml/calibration/champion-uncertainty.js';
import { fitConformal } from '../src/ml/conformal/regression-intervals.js';
import { championLearningCurve, LEARNING_CURVE_SUBSAMPLE } from './lib/learning-curve.js';
import { BENCH_INTERVAL_LEVELS as LEVELS } from './lib/uncertainty.js';
import { DROPPED_COLUMNS } from './lib/tabular-table.js';
import { intervalScore } from '../src/ml/conformal/interval-fields.js';

const SMALL_SET_ROWS = 2000;
const SUBSAMPLE = LEARNING_CURVE_SUBSAMPLE;

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const root: DataRoot = arg('--data') ? dataRoot(resolve(arg('--data')!)) : benchdata();
  const catalog = root.read('tabular_catalog.csv');
  const sets = arg('--only')
    ? arg('--only')!.split(',')
    : column(catalog, 'path').map((p, i) => ({ m: /regression\/([^/]+)\.csv$/.exec(p), rows: Number(catalog.rows[i][catalog.header.indexOf('rows')]) }))
      .filter((e) => e.m && e.rows <= SMALL_SET_ROWS).map((e) => e.m![1]);
  if (arg('--report')) {
    evaluate(JSON.parse(readFileSync(arg('--report')!, 'utf8')) as LcRecord[], root);
    return;
  }
  const out = arg('--json') ?? 'interval-learning-curve.json';
  const pool = new ContestWorkerPool(2);
  const records: LcRecord[] = [];
  try {
    for (const name of sets) {
      const table = loadBenchTable(root, 'regression', name);
      for (let k = 0; k < 5; k++) {
        const split = benchFold(table, k);
        const c0 = process.cpuUsage();
        const contest = await runContest(split.train, split.yTrain, split.task, { seed: k, workBudget: contestWorkBudget(split.train.nRows), balance: false, executor: pool });
        const contestCpu = cpuSeconds(c0); // the process's, worker threads included
        const c1 = process.cpuUsage();
        const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: false });
        const refitCpu = cpuSeconds(c1);
        const rows = contest.evaluatedRows;
        const yCal = pick(split.yTrain, rows);
        const oof = contest.champion.outOfFold;
        const c2 = process.cpuUsage();
        const chosen = championUncertainty(model, split.train, split.yTrain, contest, { seed: k, balance: false }).intervals!;
        const intervalCpu = cpuSeconds(c2);
        const plain = fitConformal(selectRows(split.train, rows), yCal, oof, { seed: k, adaptive: false });
        const predictions = model.predictScores(split.test);
        const half = (at: { upper: Float64Array }[]) => at.map((a) => Array.from(a.upper, (u, i) => u - predictions[i]));

        // The learning curve's second point: the champion's fold models on ρ of each fold's training rows.
        const c3 = process.cpuUsage();
        const point = championLearningCurve(split.train, split.yTrain, contest, k);
        const extraCpu = cpuSeconds(c3);
        records.push({
          set: name, fold: k, n: split.train.nRows, folds: contest.folds, foldsEvaluated: contest.foldsEvaluated,
          champion: contest.champion.id, method: chosen.method, levels: LEVELS,
          r1: Array.from(yCal, (v, i) => Math.abs(v - oof[i])),
          r2: Array.from(yCal, (v, i) => Math.abs(v - point.smallerOutOfFold[i])),
          rowFold: Array.from(point.rowFold),
          yTest: Array.from(split.yTest), predTest: Array.from(predictions),
          chosenHalf: half(chosen.intervalsAt(split.test, predictions, LEVELS)),
          plainHalf: half(plain.intervalsAt(split.test, predictions, LEVELS)),
          cpu: { contest: contestCpu, contestWork: contest.work, refit: refitCpu, intervals: intervalCpu, extraFits: extraCpu },
        });
        console.log(`${name} fold ${k}: ${contest.champion.id} ${chosen.method}; cpu s refit ${refitCpu.toFixed(1)} intervals ${intervalCpu.toFixed(1)} extra fits ${extraCpu.toFixed(1)}`);
        writeFileSync(out, JSON.stringify(records));
      }
    }
  } finally {
    await pool.close();
  }
  evaluate(records, root);
}

interface LcRecord {
  set: string; fold: number; n: number; folds: number; foldsEvaluated: number; champion: string; method: string; levels: number[];
  r1: number[]; r2: number[]; rowFold?: number[]; yTest: number[]; predTest: number[]; chosenHalf: number[][]; plainHalf: number[][];
  cpu: Record<string, number>;
}

function conformalQuantile(scores: number[], level: number): number {
  const s = Float64Array.from(scores).sort();
  const rank = Math.ceil((s.length + 1) * level);
  return rank > s.length ? Infinity : s[rank - 1];
}

const meanOfArray = (a: number[]) => a.reduce((x, v) => x + v, 0) / a.length;

/**
 * Candidate corrections: factors g ≤ 1 on the shipped half-widths per level, from the two points of
 * the learning curve (m₂ = ρ·m₁ and m₁ rows), extrapolated to the n rows of the refit.
 */
function learningCurveFactors(r: LcRecord): Record<string, number[]> {
  const m1 = (r.n * (r.folds - 1)) / r.folds;
  const m2 = SUBSAMPLE * m1;
  const e = Math.log(r.n / m1) / Math.log(m1 / m2);
  const capped = (g: number) => (Number.isFinite(g) ? Math.min(1, g) : 1);
  const ms = (a: number[]) => meanOfArray(a.map((v) => v * v));
  const s1 = ms(r.r1);
  const c = (ms(r.r2) - s1) / (1 / m2 - 1 / m1);
  return {
    // Local power law of the mean |residual| in the training size.
    'pow-mean': r.levels.map(() => capped((meanOfArray(r.r1) / meanOfArray(r.r2)) ** e)),
    // The same for each level's conformal quantile.
    'pow-q': r.levels.map((l) => capped((conformalQuantile(r.r1, l) / conformalQuantile(r.r2, l)) ** e)),
    // Mean squared error = noise + C/m (the parametric rate).
    'inv-ms': r.levels.map(() => capped(Math.sqrt(Math.max(0, s1 - c * (1 / m1 - 1 / r.n)) / s1))),
    // The same reduction of the squared error taken off every level's squared quantile alike: the
    // estimation error shrinks, the noise in the tails does not.
    'inv-add': r.levels.map((l) => capped(Math.sqrt(Math.max(0, 1 - (c * (1 / m1 - 1 / r.n)) / conformalQuantile(r.r1, l) ** 2)))),
    // Δ of inv-ms (at most half the mean square) off each squared quantile q² in proportion min(1, q²/s₁):
    // the Gaussian reduction up to the 68 % level, Δ alone above it (at most the reduction for Gaussian
    // or Laplace noise there: the rule tried in src/ml/conformal, on branch conformal-lc-experiment).
    'sq-rule': squaredQuantileRule(r),
  };
}

function squaredQuantileRule(r: LcRecord): number[] {
  const m1 = (r.n * (r.folds - 1)) / r.folds;
  const m2 = SUBSAMPLE * m1;
  const ms = (a: number[]) => meanOfArray(a.map((v) => v * v));
  const s1 = ms(r.r1);
  const delta = Math.min(0.5 * s1, Math.max(0, ((ms(r.r2) - s1) / (1 / m2 - 1 / m1)) * (1 / m1 - 1 / r.n)));
  return r.levels.map((l) => {
    const q = conformalQuantile(r.r1, l);
    return Number.isFinite(q) && q > 0 ? Math.sqrt(1 - (delta * Math.min(1, (q * q) / s1)) / (q * q)) : 1;
  });
}

const VARIANTS = ['shipped', 'pow-mean', 'pow-q', 'inv-ms', 'inv-add', 'sq-rule'];

function lightgbmQuantilePair(root: DataRoot, name: string): Record<string, number> | undefined {
  const python = pythonWithLightgbm();
  if (!python) return undefined;
  const catalog = root.read('tabular_catalog.csv');
  const entry = catalog.rows.find((row) => row[catalog.header.indexOf('path')].endsWith(`regression/${name}.csv`))!;
  try {
    const out = execFileSync(python, [join(process.cwd(), 'bench', 'lightgbm_uncertainty.py'), root.path('regression', `${name}.csv`), entry[catalog.header.indexOf('target')],
      JSON.stringify(DROPPED_COLUMNS[name] ?? []), root.path('folds', 'regression', `${name}.csv`), 'regression', JSON.stringify(LEVELS)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMP_NUM_THREADS: '1' } });
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  } catch {
    return undefined;
  }
}

function evaluate(records: LcRecord[], root: DataRoot): void {
  const sets = [...new Set(records.map((r) => r.set))];
  const summary: Record<string, { set: string; level: number; coverage: number; width: number; score: number; rows: number }[]> = Object.fromEntries(VARIANTS.map((v) => [v, []]));
  console.log(`\nρ ${SUBSAMPLE}; per level: coverage % of the pooled test folds, mean width w, mean interval score s, mean factor g over the folds`);
  for (const name of sets) {
    const recs = records.filter((r) => r.set === name);
    const levels = recs[0].levels;
    const tally = Object.fromEntries(VARIANTS.map((v) => [v, levels.map(() => ({ covered: 0, rows: 0, width: 0, score: 0, g: 0 }))]));
    const oracle = levels.map(() => 0);
    const cpu = { refit: 0, extra: 0 };
    for (const r of recs) {
      const f = { shipped: levels.map(() => 1), ...learningCurveFactors(r) } as Record<string, number[]>;
      cpu.refit += r.cpu.refit;
      cpu.extra += r.cpu.extraFits;
      levels.forEach((level, j) => {
        const err = r.yTest.map((y, i) => Math.abs(y - r.predTest[i]));
        for (const v of VARIANTS) {
          const t = tally[v][j];
          err.forEach((e, i) => {
            const h = r.chosenHalf[j][i] * f[v][j];
            if (e <= h) t.covered++;
            t.width += 2 * h;
            t.score += intervalScore(2 * h, Math.max(0, e - h), level);
          });
          t.rows += err.length;
          t.g += f[v][j] / recs.length;
        }
        const ratio = err.map((e, i) => e / r.chosenHalf[j][i]).sort((a, b) => a - b);
        oracle[j] += ratio[Math.min(ratio.length - 1, Math.ceil(level * ratio.length) - 1)] / recs.length;
      });
    }
    console.log(`${name}  n ${recs[0].n}  ${[...new Set(recs.map((r) => r.method))].join(',')}  exact factor ${oracle.map((o) => o.toFixed(3)).join(' ')}  cpu s: refit ${cpu.refit.toFixed(1)}, extra fits ${cpu.extra.toFixed(1)}`);
    for (const v of VARIANTS) {
      const cells = levels.map((level, j) => {
        const t = tally[v][j];
        summary[v].push({ set: name, level, coverage: t.covered / t.rows, width: t.width / t.rows, score: t.score / t.rows, rows: t.rows });
        return `${Math.round(level * 100)}%: ${((100 * t.covered) / t.rows).toFixed(1)} w ${(t.width / t.rows).toPrecision(4)} s ${(t.score / t.rows).toPrecision(4)} g ${t.g.toFixed(3)}`;
      });
      console.log(`  ${v.padEnd(9)} ${cells.join('   ')}`);
    }
    const lgb = lightgbmQuantilePair(root, name);
    if (lgb) console.log(`  lgb pair  ${levels.map((l) => `${Math.round(l * 100)}%: ${(100 * lgb[`coverage${l}`]).toFixed(1)} w ${lgb[`width${l}`].toPrecision(4)} s ${lgb[`score${l}`].toPrecision(4)}`).join('   ')}`);
  }
  console.log('\nover the sets, per level: mean |coverage − nominal| and mean signed deviation (points), the worst under-coverage, sets more than 2 points off, Σz², width and score ÷ shipped (mean)');
  for (const v of VARIANTS) {
    const parts = LEVELS.map((level) => {
      const rows = summary[v].filter((x) => x.level === level);
      const base = summary.shipped.filter((x) => x.level === level);
      const dev = rows.map((x) => 100 * (x.coverage - level));
      const z2 = rows.reduce((a, x) => a + (x.coverage - level) ** 2 / ((level * (1 - level)) / x.rows), 0);
      return `${Math.round(level * 100)}%: |dev| ${meanOfArray(dev.map(Math.abs)).toFixed(2)} mean ${meanOfArray(dev) >= 0 ? '+' : ''}${meanOfArray(dev).toFixed(2)} worst under ${Math.min(...dev).toFixed(1)} off ${dev.filter((d) => Math.abs(d) > 2).length}/${dev.length} Σz² ${z2.toFixed(1)} ` +
        `width ${meanOfArray(rows.map((x, i) => x.width / base[i].width)).toFixed(3)} score ${meanOfArray(rows.map((x, i) => x.score / base[i].score)).toFixed(3)}`;
    });
    console.log(`  ${v.padEnd(9)} ${parts.join('   ')}`);
  }
}

await main();
