/**
 * The heavy part of a model session, run in a worker thread: columnar strings in; the serialised
 * model, the test-set results and messages out. Classification and regression hold back 20 % of the
 * rows, run the contest on the rest, refit the champion and score it on the held-back rows;
 * anomaly detection fits an isolation forest on every row and scores every row.
 * Data problems come back as `{ failure }` (a message for the user), not as exceptions.
 */
import { encodeTarget, fitFrameEncoder, type ColumnSpec, type RawColumns } from '../../ml/encode.js';
import type { Task } from '../../ml/frame.js';
import { argMaxRows, classificationMetrics, confusionMatrix } from '../../ml/metrics/classification.js';
import { regressionMetrics } from '../../ml/metrics/regression.js';
import { contestCandidates, fitChampion, runContest } from '../../ml/tabular/contest/index.js';
import { IsolationForest, percentAnomalies } from '../../ml/tabular/isolation-forest/index.js';
import { ContestWorkerPool } from '../contest-pool.js';
import { ANOMALY_COLUMN, type AlgorithmView, type ModelArtifact, type PredictionDomain } from '../../service/models/model-artifact.js';
import { holdoutSplit } from '../../service/models/holdout-split.js';
import { algorithmView, contestView } from '../../service/models/contest-view.js';
import { dropRareClasses, MIN_ROWS_PER_CLASS } from '../../service/models/rare-classes.js';
import type { Message } from '../../store/schema.js';

export interface ModelComputeInput {
  domain: PredictionDomain;
  seed: number;
  /** Every column in effect; the target has role `target`, the key role `key`. */
  specs: ColumnSpec[];
  /** Stored values by column, all the same length; '' = missing. */
  values: Record<string, string[]>;
  targetColumn: string | null;
  keyColumn: string | null;
  balance: boolean;
  containsAnomalies: boolean;
  timeBudgetMs: number;
}

export interface ModelComputeResults {
  metrics: Record<string, number>;
  data: Record<string, string>[];
  extra: Record<string, unknown>;
}

export type ModelComputeOutput =
  | { failure: string }
  | { artifact: ModelArtifact; algorithm: AlgorithmView; results: ModelComputeResults; messages: Message[] };

const ISOLATION_FOREST: AlgorithmView = { name: 'Isolation Forest', description: 'Isolation Forest Outlier Detection', key: 'isolation_forest' };

export async function compute(input: ModelComputeInput): Promise<ModelComputeOutput> {
  return input.domain === 'anomalies' ? detectAnomalies(input) : fitSupervised(input);
}

async function fitSupervised(input: ModelComputeInput): Promise<ModelComputeOutput> {
  const target = input.targetColumn!;
  const kind: Task['kind'] = input.domain === 'classification' ? 'classification' : 'regression';
  const messages: Message[] = [];
  const rawTarget = input.values[target]!;
  let rows = presentRows(encodeTarget(rawTarget, kind).missingRows, rawTarget.length);
  messages.push({ severity: 'informational', message: `${rows.length} observations were found in the dataset.` });
  let classes: string[] | null = null;
  if (kind === 'classification') {
    const kept = dropRareClasses(rows.map((r) => rawTarget[r]!));
    for (const { label, count } of kept.dropped) {
      messages.push({ severity: 'warning', message: `Target class '${label}' is only specified on ${count} record(s) in the dataset. Sibyl requires a minimum of ${MIN_ROWS_PER_CLASS} records per class for the class to be included in a model. Therefore, the model we generate will not consider this class.` });
    }
    if (kept.classes.length < 2) return { failure: 'Dataset has only one valid target class. At least 2 target classes are required to build a model.' };
    const allowed = new Set(kept.classes);
    rows = rows.filter((r) => allowed.has(rawTarget[r]!));
    classes = kept.classes;
  } else if (rows.length < 10) {
    return { failure: `This data source has too few data points for reliable predictions: ${rows.length} rows have a value in '${target}', at least 10 are needed.` };
  }
  const columns = rows.length === rawTarget.length ? input.values : gatherColumns(input.values, rows);
  const encoded = encodeTarget(columns[target]!, kind, classes ?? undefined);
  const task = encoded.task;
  const split = holdoutSplit(rows.length, input.seed, kind === 'classification' ? encoded.y : undefined);
  const trainColumns = gatherColumns(columns, split.train);
  const testColumns = gatherColumns(columns, split.test);
  const encoder = fitFrameEncoder(input.specs, trainColumns);
  if (encoder.inputColumns.length === 0) return { failure: noFeatures(input.specs) };
  const trainFrame = encoder.encode(trainColumns, split.train.length);
  const testFrame = encoder.encode(testColumns, split.test.length);
  const yTrain = Float64Array.from(split.train, (r) => encoded.y[r]!);
  const yTest = Float64Array.from(split.test, (r) => encoded.y[r]!);

  const started = performance.now();
  const candidates = contestCandidates(trainFrame.nRows);
  const pool = new ContestWorkerPool(2);
  let contest;
  try {
    contest = await runContest(trainFrame, yTrain, task, { seed: input.seed, timeBudgetMs: input.timeBudgetMs, balance: input.balance, executor: pool, candidates });
  } finally {
    await pool.close();
  }
  const remainingMs = Math.max(1000, input.timeBudgetMs - (performance.now() - started));
  const model = fitChampion(trainFrame, yTrain, task, contest, { seed: input.seed, balance: input.balance, timeBudgetMs: remainingMs });
  const predictions = model.predict(testFrame);

  const outputColumns = input.specs.map((s) => s.name).filter((c) => c !== target);
  const data: Record<string, string>[] = [];
  const extra: Record<string, unknown> = {
    featureImportance: encoder.inputImportance(model.featureImportance()),
    contest: contestView(contest, candidates),
  };
  let metrics: Record<string, number>;
  if (task.kind === 'classification') {
    const k = task.classes.length;
    const yIdx = Int32Array.from(yTest);
    // Log loss ranks contestants; the session reports the service's classification metrics.
    const { logLoss: _logLoss, ...m } = classificationMetrics(yIdx, predictions, k);
    metrics = { ...m };
    const predicted = argMaxRows(predictions, k);
    const scores: number[][] = [];
    for (let i = 0; i < split.test.length; i++) {
      data.push(resultRow(testColumns, outputColumns, i, target, task.classes[predicted[i]!]!, testColumns[target]![i]!));
      scores.push(Array.from(predictions.subarray(i * k, (i + 1) * k)));
    }
    Object.assign(extra, { classes: task.classes, confusionMatrix: confusionMatrix(yIdx, predicted, k), classScores: scores });
  } else {
    metrics = { ...regressionMetrics(yTest, predictions) };
    for (let i = 0; i < split.test.length; i++) data.push(resultRow(testColumns, outputColumns, i, target, String(predictions[i]), testColumns[target]![i]!));
  }
  messages.push({ severity: 'informational', message: `${split.train.length} rows trained the model and ${split.test.length} rows tested it.` });
  return {
    artifact: { format: 'sibyl-model-artifact', version: 1, domain: input.domain, targetColumn: target, keyColumn: input.keyColumn, classes, encoder: encoder.toJSON(), learner: model.toJSON() },
    algorithm: algorithmView(model.algorithm),
    results: { metrics, data, extra },
    messages,
  };
}

function detectAnomalies(input: ModelComputeInput): ModelComputeOutput {
  const n = Object.values(input.values)[0]?.length ?? 0;
  if (n < 2) return { failure: `This data source has too few data points to find anomalies: ${n} row(s).` };
  const encoder = fitFrameEncoder(input.specs, input.values);
  if (encoder.inputColumns.length === 0) return { failure: noFeatures(input.specs) };
  const frame = encoder.encode(input.values, n);
  const forest = new IsolationForest().fit(frame, { seed: input.seed, containsAnomalies: input.containsAnomalies });
  const decision = forest.decisionFunction(frame);
  const outputColumns = input.specs.filter((s) => s.role !== 'target').map((s) => s.name);
  const scored: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const row: Record<string, string> = {};
    for (const c of outputColumns) row[c] = input.values[c]![i] ?? '';
    row[ANOMALY_COLUMN] = String(decision[i]);
    scored.push(row);
  }
  return {
    artifact: { format: 'sibyl-model-artifact', version: 1, domain: 'anomalies', targetColumn: ANOMALY_COLUMN, keyColumn: input.keyColumn, classes: null, encoder: encoder.toJSON(), learner: forest.toJSON() },
    algorithm: ISOLATION_FOREST,
    results: {
      metrics: { percentAnomalies: percentAnomalies(decision) },
      data: scored.filter((_, i) => decision[i]! < 0),
      extra: { anomalyScores: scored },
    },
    messages: [{ severity: 'informational', message: `${n} observations were found in the dataset.` }],
  };
}

/** A result row: the row's stored values, the prediction under the target's name and the truth under `<target>:actual`. */
function resultRow(columns: RawColumns, names: string[], i: number, target: string, predicted: string, actual: string): Record<string, string> {
  const row: Record<string, string> = { [target]: predicted, [`${target}:actual`]: actual };
  for (const c of names) row[c] = columns[c]?.[i] ?? '';
  return row;
}

function presentRows(missing: number[], n: number): number[] {
  const skip = new Set(missing);
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (!skip.has(i)) rows.push(i);
  return rows;
}

function gatherColumns(values: RawColumns, rows: ArrayLike<number>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, col] of Object.entries(values)) out[name] = Array.from(rows, (r) => col[r] ?? '');
  return out;
}

function noFeatures(specs: ColumnSpec[]): string {
  const excluded = specs.map((s) => s.name).join(', ');
  return `The data source has no usable feature columns: a model needs at least one column besides the target and key columns (columns in effect: ${excluded}).`;
}
