/**
 * The heavy part of a model session, run in a worker thread: columnar strings in; the serialised
 * model, the test-set results and messages out. Classification and regression hold back 20 % of the
 * rows (at random, or the latest by time when a column has role timestamp), run the contest on the
 * rest, refit the champion and score it on the held-back rows;
 * anomaly detection fits an isolation forest on every row and scores every row.
 * Data problems come back as `{ failure }` (a message for the user), not as exceptions.
 */
import { availableParallelism } from 'node:os';
import { classificationMetricIntervals, regressionMetricIntervals, type TestMetricIntervals } from '../../ml/metrics/test-metric-intervals.js';
import { encodeTarget, fitFrameEncoder, isFeatureColumn, type ColumnSpec, type RawColumns, type RawValue, type SeriesColumns } from '../../ml/encode.js';
import type { IdentifierColumn } from '../../ml/identifier-columns.js';
import { cellText, columnValues, type LoadedColumns } from '../../ml/loaded-columns.js';
import type { Task } from '../../ml/frame.js';
import type { ContestResult } from '../../ml/tabular/contest/index.js';
import { argMaxRows, classificationMetrics, confusionMatrix } from '../../ml/metrics/classification.js';
import { regressionMetrics } from '../../ml/metrics/regression.js';
import { brierScore, calibratedReference, expectedCalibrationError, reliabilityTable } from '../../ml/metrics/calibration.js';
import { championUncertainty } from '../../ml/calibration/champion-uncertainty.js';
import { intervalCoverage, intervalField, SESSION_INTERVAL_LEVELS } from '../../ml/conformal/interval-fields.js';
import { contestCandidates, fitChampion, runContest } from '../../ml/tabular/contest/index.js';
import { contestSample, CONTEST_SAMPLE_ROWS } from '../../ml/tabular/contest/sample.js';
import { concat, concatRows, pick, selectRows } from '../../ml/tabular/contest/frame-rows.js';
import { ANOMALY_TASK, FEW_ROWS_FOR_ESTIMATED_SHARE, IsolationForest, percentAnomalies } from '../../ml/tabular/isolation-forest/index.js';
import { ContestWorkerPool } from '../contest-pool.js';
import { ANOMALY_COLUMN, ANOMALY_TAIL_COLUMN, type AlgorithmView } from '../../service/models/model-artifact.js';
import { algorithmView, contestView } from '../../service/models/contest-view.js';
import { dropRareClasses, MIN_ROWS_PER_CLASS, type KeptClasses } from '../../service/models/rare-classes.js';
import type { Message } from '../../store/schema.js';
import { MISSING_MARKERS } from '../../domain/cells.js';
import { listInWords } from '../../domain/wording.js';
import { pageResults } from '../../store/result-pages.js';
import { metricValues } from '../../domain/metric-values.js';
import type { ModelComputeInput, ModelComputeOutput } from '../../service/models/model-compute-contract.js';
import type { FrameEncoder } from '../../ml/encode.js';
import type { Frame } from '../../ml/frame.js';
import type { TrainedModel } from '../../ml/estimator.js';
import { explanationWork } from '../../ml/explain/explanation.js';
import { meanAbsoluteContributions } from '../../service/models/record-explanations.js';
import { PhaseClock } from './phase-clock.js';
import { balanceTradeMessage } from './balance-trade.js';
import { contestTimeOrder, splitRows, timeSplitMessage, type TimeOrder } from './session-split.js';
import { rowNumberColumns } from '../../ml/row-number-columns.js';
import { CalibratedModel } from '../../ml/calibration/calibrated-model.js';
import { decisionsFrom } from '../../ml/estimator.js';
import { ExtremeTally, missingCode, missingCodeMessage } from '../../domain/missing-codes.js';
import { missingValuesField } from '../../domain/missing-values.js';
import { isNumericType } from '../../domain/columns.js';

export type { ModelComputeInput, ModelComputeOutput, ModelComputeResults } from '../../service/models/model-compute-contract.js';

const ISOLATION_FOREST: AlgorithmView = { name: 'Isolation Forest', description: 'Isolation Forest Outlier Detection', key: 'isolation_forest' };

/** Contest fold jobs at once: one fit per thread (GbdtLearner threads 1 each), default one per core of 2. */
const CONTEST_POOL_THREADS = 2;

export async function compute(input: ModelComputeInput): Promise<ModelComputeOutput> {
  return input.domain === 'anomalies' ? detectAnomalies(input) : fitSupervised(input);
}

async function fitSupervised(input: ModelComputeInput): Promise<ModelComputeOutput> {
  const target = input.targetColumn!;
  const kind: Task['kind'] = input.domain === 'classification' ? 'classification' : 'regression';
  const messages: Message[] = [];
  const clock = new PhaseClock();
  let values: Record<string, ArrayLike<RawValue>> | undefined = rawColumns(input.columns);
  const rawTarget = values[target]!;
  let rows = presentRows(encodeTarget(rawTarget, kind).missingRows, rawTarget.length);
  messages.push({ severity: 'informational', message: `${rows.length} observations were found in the dataset.` });
  messages.push(...missingCodeWarnings(input, kind === 'regression' ? [target] : []));
  const withoutTarget = rawTarget.length - rows.length;
  if (withoutTarget > 0) {
    messages.push({ severity: 'informational', message: `${withoutTarget} of the data set's ${rawTarget.length} rows ${withoutTarget === 1 ? 'has' : 'have'} no value in '${target}' and ${withoutTarget === 1 ? 'was' : 'were'} left out: a model learns from rows whose target is known.` });
  }
  let classes: string[] | null = null;
  if (kind === 'classification') {
    const labels = rawTarget as ArrayLike<string>;
    const kept = dropRareClasses(rows.map((r) => labels[r]!));
    messages.push(...rareClassWarnings(kept.dropped), ...markerClassWarnings(target, kept.classes, labels, rows));
    if (kept.classes.length < 2) return { failure: tooFewClasses(target, kept, rows.length, input.specs.find((c) => c.name === target)?.dataType), messages };
    const allowed = new Set(kept.classes);
    rows = rows.filter((r) => allowed.has(labels[r]!));
    classes = kept.classes;
  } else if (rows.length < 10) {
    return { failure: `This data source has too few data points for reliable predictions: ${rows.length} rows have a value in '${target}', at least 10 are needed.` };
  }
  const rowNumbers = rowNumberColumns(values, input.specs, rows);
  const prepared = prepareFrames(input, values, rows, kind, classes);
  values = undefined;
  if (typeof prepared.failure === 'string') return { failure: prepared.failure };
  // Only typed frames from here on: the string columns behind them are garbage now.
  const { task, split, encoder, trainFrame, testFrame, yTrain, yTest } = prepared as Required<typeof prepared>;
  const order = (prepared as { order?: TimeOrder }).order;
  if (order) messages.push(timeSplitMessage(order, input.columns, rows, split, task));
  messages.push(...identifierWarnings(encoder.identifiers));
  clock.mark('encode', `${rows.length} rows → ${trainFrame.columns.length} features`);

  // Very large training sets: the contest ranks candidates on a stratified sample; the champion is refitted on all rows.
  const sample = contestSample(yTrain, task, input.contestSampleRows ?? CONTEST_SAMPLE_ROWS, input.seed);
  const contestFrame = sample ? selectRows(trainFrame, sample) : trainFrame;
  const contestTarget = sample ? pick(yTrain, sample) : yTrain;
  const candidates = contestCandidates(contestFrame.nRows, task.kind);
  const pool = new ContestWorkerPool(CONTEST_POOL_THREADS);
  let contest;
  try {
    contest = await runContest(contestFrame, contestTarget, task, { seed: input.seed, workBudget: input.workBudget, balance: false, executor: pool, candidates, timeOrder: contestTimeOrder(order, sample) });
  } finally {
    await pool.close();
  }
  clock.mark('contest', `${contest.foldsEvaluated} of ${contest.folds} folds × ${candidates.length} candidates on ${contestFrame.nRows} rows, ${contest.work} training cells`);
  if (sample) {
    messages.push({ severity: 'informational', message: `The contest compared algorithms on a stratified sample of ${sample.length} of the ${trainFrame.nRows} training rows; the champion was then trained on all ${trainFrame.nRows} rows.` });
  }
  // The refit runs alone, on the two threads the contest's pool has just released: a GBDT champion's
  // one fit uses both (the same model bytes as on one), without more threads than the contest ran.
  const threads = Math.min(CONTEST_POOL_THREADS, availableParallelism());
  const champion = fitChampion(trainFrame, yTrain, task, contest, { seed: input.seed, balance: false, threads });
  const rounds = (champion as { rounds?: number }).rounds;
  clock.mark('refit', `${contest.champion.members.map((m) => m.id).join('+')} on ${trainFrame.nRows} rows${rounds ? `, ${rounds} boosting rounds` : ''}`);
  // A fit that did not go as it should (a solver stopped before converging) is reported, not shipped silently.
  for (const warning of champion.warnings) messages.push({ severity: 'warning', message: warning });
  // Class scores calibrated and regression intervals fitted on the contest's out-of-fold predictions.
  // `balance` acts here, on the decision, and not as class weights in training: weighted training
  // ranked worse (through the HTTP path on the yardstick, bench:yardstick-http, mean ROC AUC 0.7657
  // against 0.7770 unweighted on the confirmation half, 0.7220 against 0.7323 on the tuning half),
  // and with calibrated probabilities the balanced decision needs no other change to the model.
  const uncertainty = championUncertainty(champion, contestFrame, contestTarget, contest, { seed: input.seed, balance: input.balance });
  const tested = uncertainty.model;
  // The held-back rows are scored once: calibration and the decision work from the champion's raw scores.
  const raw = champion.predictScores(testFrame);
  const predictions = tested instanceof CalibratedModel ? tested.calibrate(raw) : raw;
  clock.mark('calibrate and score the holdout', `${testFrame.nRows} rows`);
  const kept = keptFit(trainFrame, testFrame, yTrain, yTest, task, contest, { seed: input.seed, threads, maxCells: input.refitOnAllRowsMaxCells ?? REFIT_ON_ALL_ROWS_MAX_CELLS });
  const model = kept ? uncertainty.wrap(kept) : tested;
  if (kept) {
    for (const warning of kept.warnings) messages.push({ severity: 'warning', message: warning });
    clock.mark('refit on all rows', `${trainFrame.nRows + testFrame.nRows} rows`);
  }

  const outputColumns = input.specs.map((s) => s.name).filter((c) => c !== target);
  const data: Record<string, string>[] = [];
  const modelTrainingRows = kept ? split.train.length + split.test.length : split.train.length;
  // Beside the metrics in GET …/results: how many rows trained the tested fit, tested it, and trained
  // the model kept; and how far each test metric could be from the same model's on new rows.
  const resultFields: Record<string, unknown> = { trainingRows: split.train.length, testRows: split.test.length, modelTrainingRows };
  const featureImportance = encoder.inputImportance(model.featureImportance());
  const extra: Record<string, unknown> = {
    featureImportance,
    contest: contestView(contest, candidates),
    resultFields,
  };
  messages.push(...rowNumberWarnings(rowNumbers, featureImportance, target));
  const contributions = contributionImportance(model, testFrame, encoder);
  if (contributions) extra.meanAbsoluteContributions = contributions;
  clock.mark('explain', `${contributions?.rows ?? 0} rows`);
  let metrics: Record<string, number>;
  let metricIntervals: TestMetricIntervals;
  if (task.kind === 'classification') {
    const k = task.classes.length;
    const yIdx = Int32Array.from(yTest);
    // The decision may weigh classes (balance): not always the most probable class. The metrics of
    // decisions (accuracy, F1, precision, recall, MCC) and the confusion matrix count the classes decided.
    const predicted = Int32Array.from(decisionsFrom(model, predictions, testFrame));
    const fewTestRows = thinlyTestedClasses(yIdx, task.classes);
    if (fewTestRows) messages.push({ severity: 'warning', message: fewTestRows });
    const m = classificationMetrics(yIdx, predictions, k, { decisions: predicted });
    metrics = { ...m, brierScore: brierScore(yIdx, predictions, k), expectedCalibrationError: expectedCalibrationError(yIdx, predictions, k) };
    const balanceTrade = input.balance ? balanceTradeMessage({ yTest: yIdx, proba: predictions, balanced: m, classes: task.classes, yTrain }) : undefined;
    if (balanceTrade) messages.push(balanceTrade);
    extra.calibration = {
      method: uncertainty.calibration!.calibrator.method,
      crossValidatedLogLoss: uncertainty.calibration!.cvLogLoss,
      uncalibrated: { logLoss: classificationMetrics(yIdx, raw, k).logLoss, brierScore: brierScore(yIdx, raw, k), expectedCalibrationError: expectedCalibrationError(yIdx, raw, k) },
      reliability: reliabilityTable(yIdx, predictions, k),
    };
    const scores: number[][] = [];
    for (let i = 0; i < split.test.length; i++) {
      data.push(resultRow(input.columns, outputColumns, rows[split.test[i]!]!, target, task.classes[predicted[i]!]!));
      scores.push(Array.from(predictions.subarray(i * k, (i + 1) * k)));
    }
    Object.assign(extra, { classes: task.classes, confusionMatrix: confusionMatrix(yIdx, predicted, k), classScores: scores });
    // The contest's out-of-fold scores of the training rows, calibrated as the test rows' are: evidence of the errors' tail.
    const oof = contest.champion.outOfFold;
    const evidence = { y: Int32Array.from(pick(contestTarget, contest.evaluatedRows)), proba: tested instanceof CalibratedModel ? tested.calibrate(oof) : oof };
    metricIntervals = classificationMetricIntervals(yIdx, predictions, predicted, k, input.seed, evidence);
    // What the expected calibration error of perfectly calibrated scores would be on these rows.
    resultFields.expectedCalibrationErrorReference = calibratedReference(yIdx, predictions, k, input.seed);
  } else {
    metrics = { ...regressionMetrics(yTest, predictions) };
    metricIntervals = regressionMetricIntervals(yTest, predictions, input.seed, { y: pick(contestTarget, contest.evaluatedRows), predicted: contest.champion.outOfFold });
    // A level the calibration rows cannot bound would fill the rows with ±Infinity and its coverage with 1.
    const conformal = uncertainty.intervals!;
    const levels = SESSION_INTERVAL_LEVELS.filter((level) => conformal.bounded(level));
    const unbounded = conformal.unboundedReason(SESSION_INTERVAL_LEVELS);
    if (unbounded) messages.push({ severity: 'warning', message: `${unbounded}, so the results leave it out. Train on more rows to get it.` });
    const intervals = conformal.intervalsAt(testFrame, predictions, levels).map((iv, j) => ({ level: levels[j]!, ...iv }));
    for (const { level, lower, upper } of intervals) metrics[`predictionIntervalCoverage${Math.round(level * 100)}`] = intervalCoverage(yTest, lower, upper);
    extra.predictionIntervals = { method: conformal.method, levels };
    for (let i = 0; i < split.test.length; i++) {
      const row = resultRow(input.columns, outputColumns, rows[split.test[i]!]!, target, String(predictions[i]));
      for (const { level, lower, upper } of intervals) {
        row[intervalField(target, 'lower', level)] = String(lower[i]);
        row[intervalField(target, 'upper', level)] = String(upper[i]);
      }
      data.push(row);
    }
  }
  resultFields.metricIntervals = metricIntervals;
  messages.push(...heavyTailWarnings(metricIntervals, split.test.length), ...constantMetricWarnings(metricIntervals, split.test.length));
  clock.mark('test metrics and their intervals', `${split.test.length} rows, ${metricIntervals.resamples} resamples`);
  messages.push({ severity: 'informational', message: `${split.train.length} rows trained the model and ${split.test.length} rows tested it.` });
  if (kept) messages.push({ severity: 'informational', message: `After the test, the model was trained again on all ${modelTrainingRows} rows; predictions come from that fit, while the test metrics describe the fit on ${split.train.length} rows.` });
  const results = pageResults(metricValues(metrics), data, extra);
  clock.mark('result pages', `${data.length} rows`);
  messages.push({ severity: 'debug', message: `Computation phases: ${clock.summary()}.` });
  return {
    artifact: { format: 'sibyl-model-artifact', version: 1, domain: input.domain, targetColumn: target, keyColumn: input.keyColumn, classes, encoder: encoder.toJSON(), learner: model.toJSON(), intervals: uncertainty.intervals?.toJSON(), ...missingValuesField(input.missingValues) },
    algorithm: algorithmView(model.algorithm),
    results,
    vocabularies: encoder.vocabularies(),
    messages,
  };
}

/**
 * Sessions whose rows × features are at most this keep a model refitted on all their rows, test rows
 * included, once the test has scored the fit on the training rows: a quarter more rows, which counts
 * most on small tables (steep learning curves). Measured as sessions run (bench:yardstick --holdout
 * --seed 1, then with --refit-all; nested CV, every set refitted):
 * - tuning half, 2 outer folds: mean ROC AUC 0.7323 → 0.7444 (best reference 0.7497), RMSE ÷ LightGBM
 *   0.9475 → 0.9139, calibrated log loss 0.6383 → 0.6312, ECE 0.0929 → 0.0912;
 * - confirmation half: AUC flat (5 outer folds 0.7826 → 0.7831, 2 outer folds 0.7770 → 0.7765, where
 *   foodstamp lost 0.029), RMSE ÷ LightGBM 0.9274 → 0.9094 and 0.9137 → 0.8940, log loss 0.5586 →
 *   0.5541 and 0.5592 → 0.5567, ECE 0.0796 → 0.0801 and 0.0826 → 0.0813;
 * - conformal coverage at 80/95 % within noise of nominal before and after (tuning 79.6/95.7 →
 *   80.7/95.8, confirmation 79.6/94.8 → 79.4/95.3), although the intervals come from fits on fewer rows;
 * - through HTTP (bench:yardstick-http, 2 outer folds): tuning AUC 0.7447, confirmation 0.7763.
 * The bound is the refit's cost, one more fit of the champion, so it counts the encoded input columns
 * the learners see (a text column's tf-idf terms and a date's parts each count): at 6,800 × 29 (197,200 cells;
 * bench:sessions --rows 6800) 1.4 s wall, 2.6 s CPU, the whole session 7.4 s. A 10,000 × 30 session
 * (6.6–7.8 s on a quiet machine) is not refitted.
 */
export const REFIT_ON_ALL_ROWS_MAX_CELLS = 200_000;

/**
 * The champion refitted on the training and the test rows when that is cheap (at most `maxCells`
 * rows × features), else undefined.
 */
function keptFit(trainFrame: Frame, testFrame: Frame, yTrain: Float64Array, yTest: Float64Array, task: Task, contest: ContestResult, opts: { seed: number; threads: number; maxCells: number }): TrainedModel | undefined {
  const rows = trainFrame.nRows + testFrame.nRows;
  if (testFrame.nRows === 0 || rows * trainFrame.columns.length > opts.maxCells) return undefined;
  return fitChampion(concatRows(trainFrame, testFrame), concat(yTrain, yTest), task, contest, { seed: opts.seed, balance: false, threads: opts.threads });
}

/** Explanation work a session spends on contribution importance: ~0.1 s of one core (tree-shap.ts pathWork steps at ~2 ns). */
const SESSION_EXPLANATION_WORK = 50_000_000;

/**
 * Mean |contribution| of each input column over the held-back rows (as many as SESSION_EXPLANATION_WORK
 * allows, the first ones in row order: a random draw, or the earliest of a time split's), on the explanation's scale.
 */
function contributionImportance(model: TrainedModel, testFrame: Frame, encoder: FrameEncoder): { scale: string; rows: number; values: Record<string, number> } | undefined {
  if (!model.explain || testFrame.nRows === 0) return undefined;
  const work = Math.max(1, explanationWork(model));
  const rows = Math.min(testFrame.nRows, Math.floor(SESSION_EXPLANATION_WORK / work));
  if (rows < 1) return undefined;
  const frame = rows === testFrame.nRows ? testFrame : selectRows(testFrame, Int32Array.from({ length: rows }, (_, i) => i));
  const e = model.explain(frame);
  return { scale: e.scale, rows, values: meanAbsoluteContributions(e, encoder.inputColumns, (c) => encoder.sourceColumn(c)) };
}

function detectAnomalies(input: ModelComputeInput): ModelComputeOutput {
  const n = input.rows;
  if (n < 2) return { failure: `This data source has too few data points to find anomalies: ${n} row(s).` };
  const values = rawColumns(input.columns);
  const series = seriesColumns(input.specs);
  // A timestamp that does not place a series' values takes no part: a row's time alone is no anomaly.
  const specs = input.specs.map((s) => ((s.role ?? '').toLowerCase() === 'timestamp' && s.name !== series?.timestamp ? { ...s, role: 'none' } : s));
  const encoder = fitFrameEncoder(specs, values, undefined, { series, gapWords: numberGapWords(input.columns) });
  if (encoder.inputColumns.length === 0) return { failure: noFeatures(specs, encoder.identifiers) };
  const frame = encoder.encode(values, n);
  const forest = new IsolationForest({ containsAnomalies: input.containsAnomalies, contamination: input.contamination, ...(series && { measurements: 1 }) })
    .fit(frame, null, ANOMALY_TASK, { seed: input.seed });
  const decision = forest.predictScores(frame);
  const tail = forest.tailProbability(frame);
  const outputColumns = input.specs.filter((s) => s.role !== 'target').map((s) => s.name);
  const scored: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const row: Record<string, string> = {};
    for (const c of outputColumns) row[c] = input.columns[c] ? cellText(input.columns[c]!, i) : '';
    row[ANOMALY_COLUMN] = String(decision[i]);
    row[ANOMALY_TAIL_COLUMN] = String(tail[i]);
    scored.push(row);
  }
  return {
    artifact: { format: 'sibyl-model-artifact', version: 1, domain: 'anomalies', targetColumn: ANOMALY_COLUMN, keyColumn: input.keyColumn, classes: null, encoder: encoder.toJSON(), learner: forest.toJSON(), ...missingValuesField(input.missingValues) },
    algorithm: ISOLATION_FOREST,
    results: pageResults(
      { percentAnomalies: percentAnomalies(decision) },
      scored.filter((_, i) => decision[i]! < 0),
      // How the threshold was set: the client's share, or estimated from the data (offset.ts).
      { anomalyScores: scored, contamination: { share: forest.threshold.contamination, source: input.contamination !== undefined ? 'requested' : input.containsAnomalies ? 'estimated' : 'clean training data' } },
    ),
    vocabularies: encoder.vocabularies(),
    messages: [
      { severity: 'informational', message: `${n} observations were found in the dataset.` },
      ...missingCodeWarnings(input, []),
      ...identifierWarnings(encoder.identifiers),
      ...(input.contamination === undefined && n < FEW_ROWS_FOR_ESTIMATED_SHARE
        ? [{ severity: 'warning' as const, message: `On ${n} rows the share of anomalies found without extraParameters.contamination (${(100 * forest.threshold.contamination).toFixed(1)} %) is rough: on tables of this size with no anomalies at all, 10–33 % of rows fall below the threshold. Give extraParameters.contamination when you know the share, or rank rows by anomaly:tailProbability.` }]
        : []),
    ],
  };
}

/**
 * An anomaly session on a time series keeps the role of its timestamp only when its one measured column
 * is the series (model-session-request.ts): each value is then judged also against the series' usual
 * value at its time (ml/timeseries/seasonal-baseline.ts).
 */
function seriesColumns(specs: ColumnSpec[]): SeriesColumns | undefined {
  const timestamp = specs.find((s) => (s.role ?? '').toLowerCase() === 'timestamp');
  const measured = specs.filter((s) => isFeatureColumn(s) && s !== timestamp);
  if (!timestamp || measured.length !== 1 || !isNumericType(measured[0]!.dataType)) return undefined;
  return { timestamp: timestamp.name, value: measured[0]!.name };
}

/** The train and test frames of the rows kept (encoder fitted on the training rows); `values` is released. */
function prepareFrames(input: ModelComputeInput, values: RawColumns, rows: number[], kind: Task['kind'], classes: string[] | null) {
  const columns = rows.length === values[input.targetColumn!]!.length ? values : gatherColumns(values, rows);
  const encoded = encodeTarget(columns[input.targetColumn!]!, kind, classes ?? undefined);
  const { split, order } = splitRows(input, columns, encoded.y, kind === 'classification' ? classes!.length : 0);
  const trainColumns = gatherColumns(columns, split.train);
  const yTrain = Float64Array.from(split.train, (r) => encoded.y[r]!);
  const yTest = Float64Array.from(split.test, (r) => encoded.y[r]!);
  // Text vocabularies are chosen against the training rows' target only: the held-back rows judge them.
  const textTarget = { y: yTrain, classes: encoded.task.kind === 'classification' ? encoded.task.classes.length : 0 };
  const encoder = fitFrameEncoder(input.specs, trainColumns, textTarget, { gapWords: numberGapWords(input.columns) });
  if (encoder.inputColumns.length === 0) return { failure: noFeatures(input.specs, encoder.identifiers) };
  const trainFrame = encoder.encode(trainColumns, split.train.length);
  const testFrame = encoder.encode(gatherColumns(columns, split.test), split.test.length);
  return { task: encoded.task, split, order, encoder, trainFrame, testFrame, yTrain, yTest };
}

/** A result row: the row's stored values, the prediction under the target's name and the truth under `<target>:actual`. */
function resultRow(columns: LoadedColumns, names: string[], row: number, target: string, predicted: string): Record<string, string> {
  const out: Record<string, string> = { [target]: predicted, [`${target}:actual`]: cellText(columns[target]!, row) };
  for (const c of names) out[c] = columns[c] ? cellText(columns[c]!, row) : '';
  return out;
}

/**
 * The numeric inputs (and `also`, a regression's target) holding a code for a missing value (-9999,
 * 999: domain/missing-codes.ts), which the model takes for a number.
 */
function missingCodeWarnings(input: ModelComputeInput, also: string[]): Message[] {
  const inputs = input.specs.filter((s) => isNumericType(s.dataType) && (s.role === 'feature' || s.role == null || also.includes(s.name)));
  return inputs.flatMap((s) => {
    const column = input.columns[s.name];
    const code = column?.kind === 'number' ? missingCode(ExtremeTally.of(column.values)) : undefined;
    return code ? [{ severity: 'warning' as const, message: missingCodeMessage(s.name, code, 'session') }] : [];
  });
}

/** The loaded columns as the encoder reads them: numbers typed, the rest as (shared) strings. */
function rawColumns(columns: LoadedColumns): Record<string, ArrayLike<RawValue>> {
  return Object.fromEntries(Object.entries(columns).map(([name, col]) => [name, columnValues(col)]));
}

/**
 * The few words numeric columns hold for a missing number ('unknown' among horsepowers): kept with the
 * encoder, so predict reads them as missing as training did, without a warning that the column takes
 * numbers. A column with more different words than a gap takes keeps none.
 */
function numberGapWords(columns: LoadedColumns): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, col] of Object.entries(columns)) {
    if (col.kind !== 'number' || col.texts.size === 0) continue;
    const words = new Set<string>();
    for (const [row, text] of col.texts) if (Number.isNaN(col.values[row]!)) words.add(text.trim());
    if (words.size > 0 && words.size <= MAX_GAP_WORDS) out[name] = [...words];
  }
  return out;
}

/** More different words than this in a numeric column are not a column's few words for a gap. */
const MAX_GAP_WORDS = 8;

function presentRows(missing: number[], n: number): number[] {
  const skip = new Set(missing);
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (!skip.has(i)) rows.push(i);
  return rows;
}

function gatherColumns(values: RawColumns, rows: ArrayLike<number>): Record<string, ArrayLike<RawValue>> {
  const out: Record<string, ArrayLike<RawValue>> = {};
  for (const [name, col] of Object.entries(values)) {
    out[name] = col instanceof Float64Array ? Float64Array.from(rows, (r) => col[r]!) : Array.from(rows, (r) => col[r] ?? '');
  }
  return out;
}

/** Rare classes listed one by one, as the original service did, up to this many; past it, the rest in one line. */
const LISTED_RARE_CLASSES = 10;

function rareClassWarnings(dropped: KeptClasses['dropped']): Message[] {
  const listed = dropped.slice(0, LISTED_RARE_CLASSES).map(({ label, count }): Message => ({
    severity: 'warning',
    message: `Target class '${label}' is only specified on ${count} record(s) in the dataset. Sibyl requires a minimum of ${MIN_ROWS_PER_CLASS} records per class for the class to be included in a model. Therefore, the model we generate will not consider this class.`,
  }));
  const rest = dropped.length - listed.length;
  if (rest > 0) {
    const rows = dropped.slice(LISTED_RARE_CLASSES).reduce((a, d) => a + d.count, 0);
    listed.push({ severity: 'warning', message: `${rest} more target classes are specified on fewer than ${MIN_ROWS_PER_CLASS} records each (${rows} records in all), and the model will not consider them either.` });
  }
  return listed;
}

/**
 * A class whose label is how R, pandas or a spreadsheet write a missing value ('NA': R's write.csv
 * writes a factor's missing values so). In a column of words a marker stays a value (NA may be North
 * America), so the rows became a class the model predicts: carData's Chile vote had a class 'NA' of
 * the 168 voters whose vote was not known.
 */
function markerClassWarnings(target: string, classes: string[], labels: ArrayLike<string>, rows: number[]): Message[] {
  return classes.filter((c) => MISSING_MARKERS.has(c.trim())).map((c) => {
    let count = 0;
    for (const r of rows) if (labels[r] === c) count++;
    return {
      severity: 'warning' as const,
      message: `Target class '${c}' (${count} rows) reads as a missing value, as R and pandas write one, and the model learns it as a class. If these rows' '${target}' is unknown, declare missingValues ["${c}"] in the session (or on the data set) so they are left out.`,
    };
  });
}

/**
 * The original's words for a classification left with fewer than two classes, then why: a table with
 * no target values, or a target of many rare values (a measurement: 356 weights, each in a row or
 * two), which a session of the other domain learns.
 */
function tooFewClasses(target: string, kept: KeptClasses, rows: number, dataType: string | undefined): string {
  const original = 'Dataset has only one valid target class. At least 2 target classes are required to build a model.';
  if (rows === 0) return `${original} No row has a value in '${target}'.`;
  const distinct = kept.classes.length + kept.dropped.length;
  if (distinct < 2 || (distinct === 2 && kept.dropped.length === 0)) return original;
  if (distinct <= 2) return original + ' ' + classesTooSmall(target, kept, rows);
  const numbers = dataType === 'numeric' || dataType === 'numericMeasure';
  return `${original} '${target}' holds ${distinct} different values in ${rows} rows, ${kept.classes.length === 0 ? 'none' : 'only one'} of them in ${MIN_ROWS_PER_CLASS} rows or more.` +
    (numbers ? ` Its values are numbers: to predict the number, ask for predictionDomain regression.` : ` A class needs at least ${MIN_ROWS_PER_CLASS} rows to be learnt.`);
}

/**
 * Two classes, but one or both with too few rows (a, a, b): "only one valid class" alone reads as a
 * miscount, so say how many rows each class has and how many it needs.
 */
function classesTooSmall(target: string, kept: KeptClasses, rows: number): string {
  const short = kept.dropped.map(({ label, count }) => `'${label}' in ${count} row${count === 1 ? '' : 's'}`).join(' and ');
  const has = kept.classes.length === 1 ? `'${target}' holds 2 classes in ${rows} rows, but only '${kept.classes[0]}' has enough rows: ${short}` : `'${target}' holds 2 classes in ${rows} rows, neither with enough rows: ${short}`;
  return `${has}. A class needs at least ${MIN_ROWS_PER_CLASS} rows, some to train the model on and some to test it with: add rows until each class has ${MIN_ROWS_PER_CLASS} or more.`;
}

function noFeatures(specs: ColumnSpec[], identifiers: IdentifierColumn[]): string {
  const excluded = specs.map((s) => s.name).join(', ');
  const why = ({ column, kind }: IdentifierColumn) => kind === 'text'
    ? ` ${column} holds a different value in nearly every row, as an identifier does, and tells nothing about new rows.`
    : ` ${column} is named as an identifier and holds a different whole number in every row: it tells nothing about new rows.`;
  return `The data source has no usable feature columns: a model needs at least one column besides the target and key columns (columns in effect: ${excluded}).${identifiers.map(why).join('')}`;
}

/** Test metrics that rest on a few rows (test-metric-intervals.ts heavyTailed), said with the share those rows make. */
function heavyTailWarnings(intervals: TestMetricIntervals, testRows: number): Message[] {
  const entries = Object.entries(intervals.heavyTailed ?? {});
  if (entries.length === 0) return [];
  const shares = entries.map(([metric, share]) => `${metric} ${(100 * share).toFixed(0)} %`).join(', ');
  const squared = entries.some(([metric]) => metric === 'rootMeanSquareError' || metric === 'rSquared');
  return [{
    severity: 'warning',
    message: `Some test metrics rest on a few rows: the 1 % of rows with the largest errors (among the ${testRows} test rows, or in the cross-validation of the training rows) make a large share of each (${shares}${squared ? '; for RMSE and R² of the squared error' : ''}), so on new rows these figures could be far from the test's; the results give them no interval.`,
  }];
}

/** Test metrics that every resample of the test rows gave alike (test-metric-intervals.ts constant): no interval, and why. */
function constantMetricWarnings(intervals: TestMetricIntervals, testRows: number): Message[] {
  const metrics = intervals.constant ?? [];
  if (metrics.length === 0) return [];
  const exact = intervals.errorFreeRows
    ? ` Accuracy's interval is the exact binomial one for ${intervals.errorFreeRows} rows without an error: at least ${(100 * intervals.metrics.accuracy!.lower).toFixed(1)} %.` : '';
  return [{
    severity: 'informational',
    message: `Every resample of the ${testRows} test rows gave the same ${listInWords(metrics)} (test rows without a single error do so): resampling them cannot show how far from that the figures may be on new rows, so the results give them no interval.${exact}`,
  }];
}

/** Why columns that identify the rows were left out (identifier-columns.ts). */
function identifierWarnings(identifiers: IdentifierColumn[]): Message[] {
  return identifiers.map(({ column, kind, distinct, rows }) => ({
    severity: 'warning',
    message: kind === 'text'
      ? `Column ${column} holds ${distinct} different values in its ${rows} training rows, as an identifier does; the model leaves it out, since a value seen once tells nothing about a new row. Give it role key (or none) to say so, or dataType text if its words carry meaning.`
      : `Column ${column} is named as an identifier and holds a different whole number in each of its ${rows} training rows; the model leaves it out, since a row's number tells nothing about a new row (and in a file ordered by the target it would give the target away). Give it role key (or none) to say so; if its numbers measure something, name the column for what they measure.`,
  }));
}

/** A row-numbering column with this share of the feature importance or more: the model leans on it. */
const LEANS_ON = 0.5;

/** Why test metrics may overstate a model that leans on a column numbering the rows (row-number-columns.ts). */
function rowNumberWarnings(columns: string[], importance: Record<string, number>, target: string): Message[] {
  const total = Object.values(importance).reduce((a, b) => a + b, 0);
  return columns.flatMap((column) => {
    const share = total > 0 ? (importance[column] ?? 0) / total : 0;
    if (share < LEANS_ON) return [];
    return [{
      severity: 'warning' as const,
      message: `Column ${column} numbers the rows (a different whole number in each, in the rows' order, as an ID or a row counter does), and the model leans on it: ${(100 * share).toFixed(0)} % of the feature importance. If the rows are ordered by '${target}' (a file sorted or grouped by it), a row's number gives its target away: each test row sits among training rows of the same kind, so the test metrics overstate the model, and a new row, numbered past them all, gets no such help. If ${column} only numbers the rows, give it role none (or key) and train again.`,
    }];
  });
}

/** Below this many test rows a class's recall, precision and ROC AUC are mostly chance. */
const FEW_TEST_ROWS_OF_A_CLASS = 5;

/** A warning naming the classes with fewer than FEW_TEST_ROWS_OF_A_CLASS test rows, or undefined. */
function thinlyTestedClasses(yTest: Int32Array, classes: readonly string[]): string | undefined {
  const counts = new Array<number>(classes.length).fill(0);
  for (const c of yTest) counts[c]!++;
  const thin = classes.flatMap((label, c) => (counts[c]! < FEW_TEST_ROWS_OF_A_CLASS ? [`'${label}' ${counts[c]}`] : []));
  if (!thin.length) return undefined;
  return `The ${yTest.length} test rows hold few rows of some classes (${thin.join(', ')}), so the test metrics say little about how well those classes are told apart: with so few rows, their recall, precision and ROC AUC are mostly chance. More rows of those classes give metrics to rely on.`;
}
