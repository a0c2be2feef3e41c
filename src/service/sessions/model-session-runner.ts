/**
 * Runs a model session: reads the data set with the session's metadata in effect into typed
 * columns (main thread, in bounded chunks that release the connection between them), hands them
 * to the `model` computation (worker thread, without copying), stores the model it returns.
 */
import { MissingValues, sessionMissingValues } from '../../domain/missing-values.js';
import type { ColumnSpec, DataType } from '../../ml/encode.js';
import { columnBuffers, columnBytes } from '../../ml/loaded-columns.js';
import type { SessionOutcome, SessionRunner } from './session-runner.js';
import { SessionDataError } from './session-runner.js';
import type { ModelComputeInput, ModelComputeOutput } from '../models/model-compute-contract.js';
import type { StoredColumn } from '../../store/schema.js';
import { columnsOf } from '../datasets/datasets-service.js';
import { ColumnarLoader } from '../datasets/columnar-loader.js';
import { NotFoundError } from '../errors.js';
import type { PredictionDomain } from '../models/model-artifact.js';
import { modelsOf } from '../models/models-service.js';
import { MemoryWatch } from './memory-watch.js';
import { CONTEST_SAMPLE_ROWS } from '../../ml/tabular/contest/sample.js';
import { contestWorkBudget } from '../../ml/tabular/contest/run-contest.js';

const NUMERIC_TYPES = new Set(['numeric', 'numericMeasure']);

/**
 * The seed of every random choice in a session (holdout split, contest folds, learners). Fixed
 * unless `extraParameters.seed` names another (validated at creation), so the same data and
 * request give the same model, as LightGBM's and our own learners' fixed default seeds do.
 */
const DEFAULT_SESSION_SEED = 1;
function sessionSeed(extra: Record<string, unknown>): number {
  return typeof extra.seed === 'number' ? extra.seed : DEFAULT_SESSION_SEED;
}

export const runModelSession: SessionRunner = async (session, { services, compute }): Promise<SessionOutcome> => {
  const memory = new MemoryWatch();
  const started = performance.now();
  try {
    const dataset = await services.datasets.getSource(session.accountId, session.datasetName, { calendarAhead: false }).catch((e) => {
      if (e instanceof NotFoundError) throw new SessionDataError(`The data source '${session.datasetName}' no longer exists.`);
      throw e;
    });
    const columns: Record<string, StoredColumn> = { ...columnsOf(dataset), ...session.columns };
    const markers = [...dataset.missingValues, ...sessionMissingValues(session.request)];
    const names = Object.keys(columns);
    const domain = session.predictionDomain as PredictionDomain;
    // Numbers as numbers; everything else (and a classification target) dictionary-encoded.
    const numeric = (n: string) => NUMERIC_TYPES.has(columns[n]!.dataType) && !(domain === 'classification' && n === session.targetColumn);
    const loader = new ColumnarLoader(names.map((name) => ({ name, numeric: numeric(name) })), dataset.rowCount, new MissingValues(markers));
    for await (const texts of services.datasets.rowTexts(dataset)) loader.add(texts);
    const loaded = loader.finish();
    const rows = loader.rowCount;
    const loadSeconds = (performance.now() - started) / 1000;
    const afterLoad = memory.now();

    const extra = (session.request.extraParameters ?? {}) as Record<string, unknown>;
    const specs: ColumnSpec[] = names.map((name) => ({ name, dataType: columns[name]!.dataType as DataType, role: columns[name]!.role }));
    const keyColumn = names.find((n) => columns[n]!.role === 'key') ?? (dataset.identityKind === 'key' ? dataset.identityColumn : null);
    const input: ModelComputeInput = {
      domain,
      seed: sessionSeed(extra),
      specs,
      columns: loaded,
      rows,
      targetColumn: domain === 'anomalies' ? null : session.targetColumn,
      keyColumn,
      balance: session.request.balance !== false,
      containsAnomalies: extra.containsAnomalies !== false,
      contamination: typeof extra.contamination === 'number' ? extra.contamination : undefined,
      missingValues: markers,
      // The contest of a very large data set runs on a sample (ml/tabular/contest/sample.ts): budgeted for the sample.
      workBudget: contestWorkBudget(Math.min(Math.round(rows * 0.8), CONTEST_SAMPLE_ROWS)),
    };
    const loadedMb = Math.round(columnBytes(loaded) / (1 << 20));
    const out = await compute.run<ModelComputeOutput>('model', input, columnBuffers(loaded));
    if ('failure' in out) throw new SessionDataError(out.failure, out.messages);
    const model = await modelsOf(services).save({
      accountId: session.accountId, sessionId: session.id, predictionDomain: domain, datasetName: session.datasetName,
      targetColumn: out.artifact.targetColumn, columns, algorithm: { ...out.algorithm }, metrics: out.results.metrics,
    }, out.artifact);
    if (out.vocabularies?.length) await services.vocabularies.saveForSession(session.accountId, session.id, session.datasetName, out.vocabularies);
    const { startMb, peakMb } = memory.stop();
    const seconds = (performance.now() - started) / 1000;
    const messages = [
      ...out.messages,
      { severity: 'debug', message: `Loaded ${rows} rows × ${names.length} columns (${loadedMb} MB as typed columns) in ${loadSeconds.toFixed(1)} s (peak ${afterLoad.peakMb} MB resident while loading, ${afterLoad.rssMb} MB after); the session took ${seconds.toFixed(1)} s. Peak memory of the process during the session: ${peakMb} MB resident (${startMb} MB when it started).` },
    ];
    return { results: out.results, modelId: model.id, algorithm: { ...out.algorithm }, messages };
  } finally {
    memory.stop();
  }
};
