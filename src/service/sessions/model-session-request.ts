/**
 * Turns a validated POST /sessions/model request into a session draft: resolves the data source,
 * the target column (named, or a column with role target) and the column metadata in effect.
 */
import { columnNamed, type ColumnMap, type ColumnPatchMap } from '../../domain/columns.js';
import { mergeColumns } from '../../domain/infer.js';
import type { Message } from '../../store/schema.js';
import { columnsOf } from '../datasets/datasets-service.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { ANOMALY_COLUMN, type PredictionDomain } from '../models/model-artifact.js';
import type { Services } from '../services.js';
import type { SessionDraft } from './sessions-service.js';
import { didYouMean } from '../../domain/similar-names.js';

export interface ModelSessionRequest {
  dataSourceName: string;
  predictionDomain: PredictionDomain;
  targetColumn?: string;
  columns: ColumnPatchMap;
  balance: boolean;
  containsAnomalies: boolean;
  /** As the client sent them (echoed back with the effective balance/containsAnomalies). */
  extraParameters: Record<string, unknown>;
  callbackUrl?: string;
  name?: string;
}

const DOMAIN_NAMES: Record<PredictionDomain, string> = { classification: 'Classification', regression: 'Regression', anomalies: 'Anomalies' };

export async function modelSessionDraft(services: Services, accountId: string, r: ModelSessionRequest): Promise<SessionDraft> {
  const dataset = await services.datasets.getSource(accountId, r.dataSourceName, { calendarAhead: false }).catch((e) => {
    throw e instanceof NotFoundError ? new NotFoundError('dataSource', r.dataSourceName) : e;
  });
  const columns: ColumnMap = mergeColumns(columnsOf(dataset), undefined, r.columns);
  const declaredTarget = (r.targetColumn !== undefined ? columnNamed(columns, r.targetColumn) ?? r.targetColumn : undefined) ?? Object.keys(r.columns).find((c) => r.columns[c]?.role === 'target')
    ?? Object.keys(columns).find((c) => columns[c]?.role === 'target');
  const messages: Message[] = [];
  if (declaredTarget !== undefined && !columns[declaredTarget]) {
    throw new ValidationError({ targetColumn: [`Column '${declaredTarget}' is not in data source '${r.dataSourceName}'.${didYouMean(declaredTarget, Object.keys(columns))}`] });
  }
  let targetColumn: string;
  if (r.predictionDomain === 'anomalies') {
    targetColumn = ANOMALY_COLUMN;
    if (declaredTarget !== undefined) {
      // The labels must not leak into unsupervised detection: the column takes no part.
      columns[declaredTarget] = { ...columns[declaredTarget]!, role: 'none' };
      messages.push({ severity: 'warning', message: `Anomaly detection sessions do not accept a target column. Target column '${declaredTarget}' exists in data source '${r.dataSourceName}'; its values will not influence the results. The session's target column '${ANOMALY_COLUMN}' holds a negative value for anomalous rows. To use these values as labels, create a classification session instead.` });
    }
  } else {
    if (declaredTarget === undefined) throw new ValidationError({ targetColumn: ['targetColumn is required (or give a column the role target in columns)'] });
    targetColumn = declaredTarget;
    for (const [name, c] of Object.entries(columns)) {
      if (name === targetColumn) columns[name] = { ...c, role: 'target' };
      else if (c.role === 'target') columns[name] = { ...c, role: 'feature' };
    }
  }
  const extraParameters = { ...r.extraParameters };
  const request: Record<string, unknown> = { extraParameters, ...(dataset.view ? { dataSourceType: 'view' } : {}) };
  if (r.predictionDomain === 'classification') {
    extraParameters.balance = r.balance;
    request.balance = r.balance;
  }
  if (r.predictionDomain === 'anomalies') extraParameters.containsAnomalies = r.containsAnomalies;
  return {
    type: 'model',
    predictionDomain: r.predictionDomain,
    datasetName: dataset.name,
    targetColumn,
    name: r.name ?? `${DOMAIN_NAMES[r.predictionDomain]} on ${dataset.name}`,
    request,
    columns,
    messages,
    callbackUrl: r.callbackUrl ?? null,
  };
}
