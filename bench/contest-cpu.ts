/**
 * CPU time of a model session's heavy part on the bench:sessions data (10,000 × 30: 28 numbers with
 * missing values, one category, a 0/1 label): the contest on 80 % of the rows as a session holds them,
 * the champion's refit and its calibration (championUncertainty), in this thread, counted with
 * process.cpuUsage so a busy machine does not move the figure. `--plain` runs the contest as it was
 * before issue 10 item 2 (equal-weight blends only, the linear model when within one standard error) for comparison.
 * `--regression`: the same records with the label's underlying score (before thresholding) as a
 * regression target.
 *   npm run bench:contest-cpu -- [--rows 10000] [--regression] [--plain] [--repeat 1] [--linear '{"splineKnots":4}'] [--ensembles stack]
 */
import { fitFrameEncoder, encodeTarget, inferDataType } from '../src/ml/encode.js';
import { championUncertainty } from '../src/ml/calibration/champion-uncertainty.js';
import { contestCandidates, contestWorkBudget, fitChampion, inThreadExecutor, runContest, type CandidateSpec, type EnsembleKind } from '../src/ml/tabular/contest/index.js';
import { holdoutSplit } from '../src/service/models/holdout-split.js';
import { loadavg } from 'node:os';

const arg = (n: string) => {
  const i = process.argv.indexOf(n);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ROWS = Number(arg('--rows') ?? 10_000);
const PLAIN = process.argv.includes('--plain');
const REGRESSION = process.argv.includes('--regression');
const REPEAT = Number(arg('--repeat') ?? 1);
const FEATURES = 28;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** The records of bench/sessions.ts (same generator and seed). */
function columns(n: number, seed: number): Record<string, string[]> {
  const rnd = random(seed);
  const regions = ['north', 'south', 'east', 'west'];
  const out: Record<string, string[]> = { region: [], label: [] };
  for (let j = 0; j < FEATURES; j++) out[`f${j}`] = [];
  for (let i = 0; i < n; i++) {
    const x: number[] = [];
    for (let j = 0; j < FEATURES; j++) {
      x.push(rnd() * 2 - 1);
      out[`f${j}`].push(rnd() < 0.05 ? '' : x[j].toFixed(4));
    }
    const region = Math.floor(rnd() * 4);
    out.region.push(regions[region]);
    const score = 1.5 * x[0] - x[1] + x[2] * x[3] * 2 + (x[4] > 0 ? 0.8 : -0.8) + 0.3 * region - 0.45 + (rnd() - 0.5) * 1.5;
    out.label.push(REGRESSION ? score.toFixed(4) : score > 0 ? '1' : '0');
  }
  return out;
}

async function main(): Promise<void> {
  const data = columns(ROWS, ROWS);
  const { label, ...features } = data;
  const { task, y } = encodeTarget(label, REGRESSION ? 'regression' : 'classification');
  const split = holdoutSplit(y.length, 0, task.kind === 'classification' ? y : undefined);
  const pickRows = (rows: Int32Array) => Object.fromEntries(Object.entries(features).map(([k, v]) => [k, Array.from(rows, (r) => v[r])]));
  const specs = Object.keys(features).map((name) => ({ name, dataType: inferDataType(features[name]) }));
  const encoder = fitFrameEncoder(specs, pickRows(split.train));
  const frame = encoder.encode(pickRows(split.train), split.train.length);
  const yTrain = Float64Array.from(split.train, (r) => y[r]);
  // --linear '{…}': the linear candidate's settings for an experiment (--plain: scikit-learn's).
  const linear = PLAIN ? {} : arg('--linear') ? JSON.parse(arg('--linear')!) : undefined;
  const candidates: CandidateSpec[] | undefined = linear
    ? contestCandidates(frame.nRows, task.kind).map((c) => (c.algorithm === 'linear' ? { id: 'linear', algorithm: 'linear', params: linear } : c))
    : undefined;
  const ensembles = PLAIN ? 'average' : (arg('--ensembles') as EnsembleKind | undefined);
  for (let r = 0; r < REPEAT; r++) {
    const t0 = process.cpuUsage();
    const contest = await runContest(frame, yTrain, task, { seed: 0, workBudget: contestWorkBudget(frame.nRows), balance: false, executor: inThreadExecutor, candidates, ensembles, selectionRule: PLAIN ? 'linear-within-one-standard-error' : undefined });
    const t1 = process.cpuUsage();
    const champion = fitChampion(frame, yTrain, task, contest, { seed: 0, balance: false });
    const t2 = process.cpuUsage();
    championUncertainty(champion, frame, yTrain, contest, { seed: 0, balance: false });
    const t3 = process.cpuUsage();
    const s = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => ((b.user - a.user + b.system - a.system) / 1e6).toFixed(2);
    const perCandidate = contest.contestants.map((c) => `${c.id} ${(c.fitSeconds * contest.foldsEvaluated).toFixed(2)}s`).join(', ');
    console.log(`${task.kind} ${ROWS} rows${PLAIN ? ' (plain)' : ''}: CPU contest ${s(t0, t1)}s (${contest.foldsEvaluated} folds; ${perCandidate}) + refit ${s(t1, t2)}s + calibration ${s(t2, t3)}s = ${s(t0, t3)}s; champion ${contest.champion.id}; load ${loadavg()[0].toFixed(1)}`);
  }
}

await main();
