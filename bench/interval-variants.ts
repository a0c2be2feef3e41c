/**
 * Conformal interval forms compared on the tabular protocol's folds (benchdata/PROTOCOL.md §1),
 * the evidence behind src/ml/conformal/regression-intervals.ts: per regression set, coverage pooled
 * over the five test folds with its binomial sampling error, mean width and interval score of
 * - plain: ŷ ± q around the refitted champion, q from the contest's out-of-fold |residuals|;
 * - chosen: what sessions ship (plain, or the adaptive ŷ ± q·σ(x) when its cross-validated
 *   interval score is lower);
 * - cv+: true CV+ (Barber et al. 2021), centred on each fold model of the champion: the
 *   ⌊α(n+1)⌋-th of μ̂₋ₖ₍ᵢ₎(x) − Rᵢ and the ⌈(1−α)(n+1)⌉-th of μ̂₋ₖ₍ᵢ₎(x) + Rᵢ, with what keeping those
 *   fold models would cost (artifact bytes, CPU ms to predict 1,000 rows).
 * Usage: npm run bench:interval-variants [-- --only mtcars,servo]   (default: every regression set under 2,000 rows)
 */
import { benchdata, column, readCsv } from './lib/benchdata.js';
import { benchFold, loadBenchTable } from './lib/tabular-table.js';
import { contestWorkBudget, fitChampion, runContest } from '../src/ml/tabular/contest/index.js';
import { makeLearner } from '../src/ml/tabular/contest/candidates.js';
import { foldRows, shuffledFolds } from '../src/ml/tabular/contest/folds.js';
import { pick, selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { ContestWorkerPool } from '../src/jobs/contest-pool.js';
import { championUncertainty } from '../src/ml/calibration/champion-uncertainty.js';
import { fitConformal } from '../src/ml/conformal/regression-intervals.js';
import type { Frame, TrainedModel } from '../src/ml/frame.js';
import { BENCH_INTERVAL_LEVELS as LEVELS } from './lib/uncertainty.js';
import { meanIntervalScore } from '../src/ml/conformal/interval-fields.js';

const SMALL_SET_ROWS = 2000;

interface Pooled { covered: number; rows: number; width: number; score: number }

function cpuMsPer1000(predict: () => void, rows: number): number {
  predict();
  const start = process.cpuUsage();
  for (let r = 0; r < 5; r++) predict();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000 / 5 / (rows / 1000);
}

/** CV+ bounds at `level` for each test row from the fold models' predictions there. */
function cvPlus(foldPredictions: Float64Array[], rowFold: Int32Array, residual: Float64Array, level: number): { lower: Float64Array; upper: Float64Array } {
  const n = residual.length;
  const m = foldPredictions[0].length;
  const alpha = 1 - level;
  const lowRank = Math.floor(alpha * (n + 1));
  const highRank = Math.ceil((1 - alpha) * (n + 1));
  const lower = new Float64Array(m).fill(-Infinity);
  const upper = new Float64Array(m).fill(Infinity);
  const lows = new Float64Array(n);
  const highs = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const mu = foldPredictions[rowFold[j]][i];
      lows[j] = mu - residual[j];
      highs[j] = mu + residual[j];
    }
    lows.sort();
    highs.sort();
    if (lowRank >= 1) lower[i] = lows[lowRank - 1];
    if (highRank <= n) upper[i] = highs[highRank - 1];
  }
  return { lower, upper };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onlyAt = args.indexOf('--only');
  const catalog = readCsv('tabular_catalog.csv');
  const sets = onlyAt >= 0
    ? args[onlyAt + 1].split(',')
    : column(catalog, 'path').map((p, i) => ({ m: /regression\/([^/]+)\.csv$/.exec(p), rows: Number(catalog.rows[i][catalog.header.indexOf('rows')]) }))
      .filter((e) => e.m && e.rows < SMALL_SET_ROWS).map((e) => e.m![1]);
  const pool = new ContestWorkerPool(2);
  console.log('test folds pooled; ± = 2·√(L(1−L)/n), the binomial sampling error at the nominal level');
  try {
    for (const name of sets) {
      const table = loadBenchTable(benchdata(), 'regression', name);
      const tally: Record<string, Pooled> = {};
      const add = (form: string, level: number, y: Float64Array, lower: Float64Array, upper: Float64Array) => {
        const t = (tally[`${form}@${level}`] ??= { covered: 0, rows: 0, width: 0, score: 0 });
        for (let i = 0; i < y.length; i++) if (y[i] >= lower[i] && y[i] <= upper[i]) t.covered++;
        t.rows += y.length;
        t.width += upper.reduce((a, v, i) => a + v - lower[i], 0);
        t.score += meanIntervalScore(y, lower, upper, level) * y.length;
      };
      let championBytes = 0;
      let foldBytes = 0;
      let championMs = 0;
      let foldMs = 0;
      for (let k = 0; k < 5; k++) {
        const split = benchFold(table, k);
        const contest = await runContest(split.train, split.yTrain, split.task, { seed: k, workBudget: contestWorkBudget(split.train.nRows), balance: false, executor: pool });
        const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: false });
        const rows = contest.evaluatedRows;
        const yCal = pick(split.yTrain, rows);
        const oof = contest.champion.outOfFold;
        const chosen = championUncertainty(model, split.train, split.yTrain, contest, { seed: k, balance: false }).intervals!;
        const plain = fitConformal(selectRows(split.train, rows), yCal, oof, { seed: k, adaptive: false });
        const predictions = model.predictScores(split.test);
        const chosenAt = chosen.intervalsAt(split.test, predictions, LEVELS);
        const plainAt = plain.intervalsAt(split.test, predictions, LEVELS);
        LEVELS.forEach((level, j) => {
          add('plain', level, split.yTest, plainAt[j].lower, plainAt[j].upper);
          add(`chosen`, level, split.yTest, chosenAt[j].lower, chosenAt[j].upper);
        });
        // The champion's fold models: the contest's fold jobs again (same learner phase and seeds, so
        // they reproduce its out-of-fold predictions), blended with the champion's weights.
        const foldOf = shuffledFolds(split.train.nRows, contest.folds, k);
        const weights = contest.champion.weights ?? contest.champion.members.map(() => 1 / contest.champion.members.length);
        const foldModels: TrainedModel[][] = [];
        for (let f = 0; f < contest.foldsEvaluated; f++) {
          const { train } = foldRows(foldOf, f);
          const frame = selectRows(split.train, train);
          foldModels.push(contest.champion.members.map((spec) => makeLearner(spec, 'cv', frame.nRows).fit(frame, pick(split.yTrain, train), split.task, { seed: k + f })));
        }
        const foldPredict = (frame: Frame) => foldModels.map((members) => {
          const p = new Float64Array(frame.nRows);
          members.forEach((m, j) => m.predictScores(frame).forEach((v, i) => (p[i] += weights[j] * v)));
          return p;
        });
        const foldPredictions = foldPredict(split.test);
        const rowFold = Int32Array.from(rows, (r) => foldOf[r]);
        const residual = Float64Array.from(yCal, (v, i) => Math.abs(v - oof[i]));
        for (const level of LEVELS) {
          const { lower, upper } = cvPlus(foldPredictions, rowFold, residual, level);
          add('cv+', level, split.yTest, lower, upper);
        }
        championBytes += JSON.stringify(model.toJSON()).length / 5;
        foldBytes += foldModels.reduce((a, members) => a + members.reduce((b, m) => b + JSON.stringify(m.toJSON()).length, 0), 0) / 5;
        const big = selectRows(split.test, Int32Array.from({ length: 1000 }, (_, i) => i % split.test.nRows));
        championMs += cpuMsPer1000(() => model.predictScores(big), 1000) / 5;
        foldMs += cpuMsPer1000(() => foldPredict(big), 1000) / 5;
      }
      for (const form of ['plain', 'chosen', 'cv+']) {
        const parts = LEVELS.map((level) => {
          const t = tally[`${form}@${level}`];
          const band = 2 * Math.sqrt((level * (1 - level)) / t.rows);
          return `${Math.round(level * 100)}%: ${((t.covered / t.rows) * 100).toFixed(1)}% ± ${(band * 100).toFixed(1)} width ${(t.width / t.rows).toPrecision(4)} score ${(t.score / t.rows).toPrecision(4)}`;
        });
        console.log(`${name.padEnd(16)} ${form.padEnd(7)} ${parts.join('   ')}`);
      }
      console.log(`${name.padEnd(16)} cost of keeping the fold models for cv+: ${(foldBytes / 1e6).toFixed(1)} MB beside the champion's ${(championBytes / 1e6).toFixed(1)} MB; ` +
        `predict ${foldMs.toFixed(1)} ms per 1,000 rows (CPU) beside the champion's ${championMs.toFixed(1)} ms`);
    }
  } finally {
    await pool.close();
  }
}

await main();
