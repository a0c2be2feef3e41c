/**
 * bench:metric-intervals — do the 95 % intervals of a session's test metrics (ml/metrics/
 * test-metric-intervals.ts: a percentile bootstrap of the test rows, the ROC AUC's Newcombe's score
 * interval, auc-interval.ts; the AUC of more than two classes is their one-vs-rest macro mean) hold the metric the same model
 * has on all data like the test rows? Per set: a GBDT is fitted on one protocol fold (20 % of the
 * rows); the other four folds stand for the population, and the model's metric on all of them is the
 * truth. Test sets of m rows are drawn from the population as sessions hold them back (stratified by
 * class), each gets its bootstrap intervals, and the share of intervals holding the truth is printed
 * beside the nominal 95 % (draws are independent: the binomial standard error of the share is shown),
 * with the share of test sets that got an interval at all (a metric resting on a few rows gets none).
 * For GBDT models on these sets, hence the classification F1/precision/recall are of arg-max decisions.
 * As in a session, the out-of-fold predictions of a 5-fold cross-validation on the training fold are
 * the evidence of the errors' tail (a metric resting on a few rows gets no interval).
 * Usage: npm run bench:metric-intervals [-- --draws 200]
 */
import { benchdata } from './lib/benchdata.js';
import { benchFold, loadBenchTable, type TabularKind } from './lib/tabular-table.js';
import { GbdtLearner } from '../src/ml/tabular/gbdt/index.js';
import { classificationMetrics, argMaxRows } from '../src/ml/metrics/classification.js';
import { brierScore } from '../src/ml/metrics/calibration.js';
import { regressionMetrics } from '../src/ml/metrics/regression.js';
import { classificationMetricIntervals, regressionMetricIntervals } from '../src/ml/metrics/test-metric-intervals.js';
import { SeededRandom } from '../src/ml/core/random.js';
import { foldRows, shuffledFolds } from '../src/ml/tabular/contest/folds.js';
import { pick, selectRows } from '../src/ml/tabular/contest/frame-rows.js';

const SETS: [TabularKind, string][] = [
  ['classification', 'credit_data'], ['classification', 'spambase'], ['classification', 'titanic'],
  ['classification', 'satellite'], ['classification', 'letter_recognition'],
  ['regression', 'cps1988_wages'], ['regression', 'concrete'],
];
const SIZES = [100, 300, 1000];
const drawsArg = process.argv.indexOf('--draws');
const DRAWS = drawsArg > 0 ? Number(process.argv[drawsArg + 1]) : 200;
const NOMINAL = 0.95;

const root = benchdata();
console.log(`95 % bootstrap intervals of test metrics: share holding the population metric over ${DRAWS} test sets per size (binomial s.e. ${(100 * Math.sqrt(NOMINAL * (1 - NOMINAL) / DRAWS)).toFixed(1)} points)`);
const pooled = new Map<string, { held: number; given: number; draws: number }>();
for (const [kind, name] of SETS) {
  const table = loadBenchTable(root, kind, name);
  // Fold 0 trains the model; folds 1–4 are the population the test sets are drawn from.
  const split = benchFold(table, 0);
  const model = new GbdtLearner({}).fit(split.test, split.yTest, split.task, { seed: 1 });
  const width = split.task.kind === 'classification' ? split.task.classes.length : 1;
  const outOfFold = new Float64Array(split.yTest.length * width);
  const foldOf = shuffledFolds(split.yTest.length, 5, 1);
  for (let f = 0; f < 5; f++) {
    const { train, test } = foldRows(foldOf, f);
    const p = new GbdtLearner({}).fit(selectRows(split.test, train), pick(split.yTest, train), split.task, { seed: 1 }).predictScores(selectRows(split.test, test));
    test.forEach((r, i) => outOfFold.set(p.subarray(i * width, (i + 1) * width), r * width));
  }
  const scores = model.predictScores(split.train);
  const y = split.yTrain;
  const n = y.length;
  const k = split.task.kind === 'classification' ? split.task.classes.length : 0;
  const yIdx = Int32Array.from(y);
  const decisions = k > 0 ? argMaxRows(scores, k) : new Int32Array(0);
  const truth: Record<string, number> = k > 0
    ? { ...classificationMetrics(yIdx, scores, k, { decisions }), brierScore: brierScore(yIdx, scores, k) }
    : { ...regressionMetrics(y, scores) };
  const byClass = k > 0 ? Array.from({ length: k }, (_, c) => Array.from(yIdx.keys()).filter((i) => yIdx[i] === c)) : [Array.from(y.keys())];
  for (const m of SIZES.filter((size) => size * 4 <= n)) {
    const random = new SeededRandom(m, 0x3c6ef372);
    const held: Record<string, number> = {};
    const given: Record<string, number> = {};
    const widths: Record<string, number> = {};
    for (let d = 0; d < DRAWS; d++) {
      const rows: number[] = [];
      for (const members of byClass) {
        const take = Math.max(1, Math.round((m * members.length) / n));
        for (const j of random.sample(members.length, Math.min(take, members.length))) rows.push(members[j]!);
      }
      const ys = Float64Array.from(rows, (r) => y[r]!);
      const out = k > 0
        ? classificationMetricIntervals(Int32Array.from(ys), Float64Array.from({ length: rows.length * k }, (_, j) => scores[rows[Math.floor(j / k)]! * k + (j % k)]!), Int32Array.from(rows, (r) => decisions[r]!), k, d, { y: Int32Array.from(split.yTest), proba: outOfFold })
        : regressionMetricIntervals(ys, Float64Array.from(rows, (r) => scores[r]!), d, { y: split.yTest, predicted: outOfFold });
      for (const metric of Object.keys(truth)) {
        if (!Number.isFinite(truth[metric]!)) continue;
        held[metric] ??= 0;
        given[metric] ??= 0;
        widths[metric] ??= 0;
        const interval = out.metrics[metric];
        if (!interval) continue;
        given[metric]++;
        if (truth[metric]! >= interval.lower && truth[metric]! <= interval.upper) held[metric]++;
        widths[metric] += interval.upper - interval.lower;
      }
    }
    const cells = Object.keys(held).map((metric) => {
      const key = `${kind} ${metric} m=${m}`;
      const p = pooled.get(key) ?? { held: 0, given: 0, draws: 0 };
      pooled.set(key, { held: p.held + held[metric]!, given: p.given + given[metric]!, draws: p.draws + DRAWS });
      const g = given[metric]!;
      return g === 0 ? `${metric} no interval` : `${metric} ${(100 * held[metric]! / g).toFixed(1)} %${g < DRAWS ? ` of ${g}` : ''} (width ${(widths[metric]! / g).toPrecision(3)})`;
    });
    console.log(`${name.padEnd(20)} m=${String(m).padEnd(5)} ${cells.join('; ')}`);
  }
}
console.log('\npooled over the sets (nominal 95 %):');
for (const [key, { held, given, draws }] of [...pooled].sort()) console.log(`${key.padEnd(52)} ${given ? `${(100 * held / given).toFixed(1)} % of ${given} intervals` : 'no intervals'} (${draws} test sets)`);
