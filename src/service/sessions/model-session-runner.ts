/**
 * Runs a model session: reads the data set with the session's metadata in effect (main thread),
 * hands columnar strings to the `model` computation (worker thread), stores the model it returns.
 */
import type { ColumnSpec, DataType } from '../../ml/encode.js';
import type { SessionOutcome, SessionRunner } from './session-runner.js';
import { SessionDataError } from './session-runner.js';
import type { ModelComputeInput, ModelComputeOutput } from '../../jobs/compute/model-compute.js';
import type { StoredColumn } from '../../store/schema.js';
import { columnsOf } from '../datasets/datasets-service.js';
import { NotFoundError } from '../errors.js';
import { seedFromId } from '../models/holdout-split.js';
import type { PredictionDomain } from '../models/model-artifact.js';
import { modelsOf } from '../models/models-service.js';

/** Contest time: about 5 s for 10,000 rows, growing with the square root of the size. */
export function contestBudgetMs(rows: number): number {
  return Math.round(Math.min(60_000, Math.max(1500, 5000 * Math.sqrt(rows / 10_000))));
}

export const runModelSession: SessionRunner = async (session, { services, compute }): Promise<SessionOutcome> => {
  const dataset = await services.datasets.get(session.accountId, session.datasetName).catch((e) => {
    if (e instanceof NotFoundError) throw new SessionDataError(`The data source '${session.datasetName}' no longer exists.`);
    throw e;
  });
  const columns: Record<string, StoredColumn> = { ...columnsOf(dataset), ...session.columns };
  const names = Object.keys(columns);
  const values: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  for await (const batch of services.datasets.iterateRows(dataset)) {
    for (const row of batch) for (const n of names) values[n]!.push(row[n] ?? '');
  }
  const domain = session.predictionDomain as PredictionDomain;
  const extra = (session.request.extraParameters ?? {}) as Record<string, unknown>;
  const specs: ColumnSpec[] = names.map((name) => ({ name, dataType: columns[name]!.dataType as DataType, role: columns[name]!.role }));
  const keyColumn = names.find((n) => columns[n]!.role === 'key') ?? (dataset.identityKind === 'key' ? dataset.identityColumn : null);
  const input: ModelComputeInput = {
    domain,
    seed: seedFromId(session.id),
    specs,
    values,
    targetColumn: domain === 'anomalies' ? null : session.targetColumn,
    keyColumn,
    balance: session.request.balance !== false,
    containsAnomalies: extra.containsAnomalies !== false,
    timeBudgetMs: contestBudgetMs(Math.round((values[names[0]!]?.length ?? 0) * 0.8)),
  };
  const out = await compute.run<ModelComputeOutput>('model', input);
  if ('failure' in out) throw new SessionDataError(out.failure);
  const model = await modelsOf(services).save({
    accountId: session.accountId, sessionId: session.id, predictionDomain: domain, datasetName: session.datasetName,
    targetColumn: out.artifact.targetColumn, columns, algorithm: { ...out.algorithm }, metrics: out.results.metrics,
  }, out.artifact);
  return { results: out.results, modelId: model.id, algorithm: { ...out.algorithm }, messages: out.messages };
};
