/**
 * Does choosing the champion on a sample cost accuracy? (issue 14.3) For the larger
 * classification sets of benchdata and the protocol's 5 folds: a contest on every training row
 * vs a contest on a stratified sample of a quarter of them (ml/tabular/contest/sample.ts, the
 * scheme sessions use above CONTEST_SAMPLE_ROWS), each champion refitted on every training row
 * and scored on the test fold. Prints test accuracy and log loss of both, their mean paired
 * difference with its standard error over the folds, and how often the champions agree.
 *   npm run bench:contest-sampling [-- --only letter_recognition] [--share 0.25] [--work <training cells per contest>]
 */
import { benchdata } from './lib/benchdata.js';
import { benchFold, loadBenchTable } from './lib/tabular-table.js';
import { classificationMetrics } from '../src/ml/metrics/classification.js';
import { contestWorkBudget, fitChampion, runContest } from '../src/ml/tabular/contest/index.js';
import { contestSample } from '../src/ml/tabular/contest/sample.js';
import { pick, selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { ContestWorkerPool } from '../src/jobs/contest-pool.js';
import { loadavg } from 'node:os';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i > 0 ? process.argv[i + 1] : undefined; };
const SETS = arg('--only')?.split(',') ?? ['letter_recognition', 'satellite', 'spambase', 'credit_data'];
const SHARE = Number(arg('--share') ?? 0.25);
const WORK = arg('--work') === undefined ? undefined : Number(arg('--work'));
const SEED = 7;

interface Outcome { accuracy: number; logLoss: number; champion: string }

async function contestAndRefit(split: ReturnType<typeof benchFold>, sample: Int32Array | undefined, pool: ContestWorkerPool): Promise<Outcome> {
  const frame = sample ? selectRows(split.train, sample) : split.train;
  const y = sample ? pick(split.yTrain, sample) : split.yTrain;
  const contest = await runContest(frame, y, split.task, { seed: SEED, workBudget: WORK ?? contestWorkBudget(frame.nRows), balance: true, executor: pool });
  const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: SEED, balance: true });
  const k = (split.task as { classes: string[] }).classes.length;
  const m = classificationMetrics(Int32Array.from(split.yTest), model.predictScores(split.test), k);
  return { accuracy: m.accuracy, logLoss: m.logLoss, champion: contest.champion.members.map((s) => s.id).join('+') };
}

function meanSe(xs: number[]): [number, number] {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  return [mean, sd / Math.sqrt(xs.length)];
}

console.log(`contest on a ${SHARE} stratified sample vs on every row; work budget ${WORK ?? 'contestWorkBudget(rows)'} per contest; load average ${loadavg()[0]!.toFixed(1)} on 2 cores`);
const pool = new ContestWorkerPool(2);
try {
  for (const name of SETS) {
    const table = loadBenchTable(benchdata(), 'classification', name);
    const full: Outcome[] = [];
    const sampled: Outcome[] = [];
    for (let k = 0; k < 5; k++) {
      const split = benchFold(table, k);
      const sample = contestSample(split.yTrain, split.task, Math.round(split.train.nRows * SHARE), SEED + k);
      full.push(await contestAndRefit(split, undefined, pool));
      sampled.push(await contestAndRefit(split, sample, pool));
    }
    const [accFull] = meanSe(full.map((o) => o.accuracy));
    const [accSampled] = meanSe(sampled.map((o) => o.accuracy));
    const [dAcc, seAcc] = meanSe(full.map((o, i) => sampled[i]!.accuracy - o.accuracy));
    const [dLoss, seLoss] = meanSe(full.map((o, i) => sampled[i]!.logLoss - o.logLoss));
    const same = full.filter((o, i) => o.champion === sampled[i]!.champion).length;
    // Binomial standard error of one fold's test accuracy: the noise of a single holdout score.
    const testRows = table.targetValues.length / 5;
    const holdoutSe = Math.sqrt((accFull * (1 - accFull)) / testRows);
    console.log(`${name} (${table.targetValues.length} rows): accuracy full ${accFull.toFixed(4)}, sampled ${accSampled.toFixed(4)}, ` +
      `difference ${dAcc >= 0 ? '+' : ''}${dAcc.toFixed(4)} ± ${seAcc.toFixed(4)} (holdout noise ± ${holdoutSe.toFixed(4)}); ` +
      `log loss difference ${dLoss >= 0 ? '+' : ''}${dLoss.toFixed(4)} ± ${seLoss.toFixed(4)}; same champion in ${same}/5 folds ` +
      `(full: ${full.map((o) => o.champion).join(', ')}; sampled: ${sampled.map((o) => o.champion).join(', ')})`);
  }
} finally {
  await pool.close();
}
