/**
 * Turns a validated POST /sessions/model request into a session draft: resolves the data source,
 * the target column (named, or a column with role target) and the column metadata in effect.
 */
import { missingValuesField } from '../../domain/missing-values.js';
import { isFeatureColumn, type DataType } from '../../ml/encode.js';
import { columnNamed, isNumericType, type ColumnMap, type ColumnPatchMap } from '../../domain/columns.js';
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
  /** The session's own markers for a missing value, beside its data set's (domain/missing-values.ts). */
  missingValues?: string[];
}

const DOMAIN_NAMES: Record<PredictionDomain, string> = { classification: 'Classification', regression: 'Regression', anomalies: 'Anomalies' };

export async function modelSessionDraft(services: Services, accountId: string, r: ModelSessionRequest): Promise<SessionDraft> {
  const dataset = await services.datasets.getSource(accountId, r.dataSourceName, { calendarAhead: false }).catch((e) => {
    throw e instanceof NotFoundError ? new NotFoundError('dataSource', r.dataSourceName) : e;
  });
  if (!dataset.view && dataset.rowCount === 0) {
    throw ValidationError.of('dataSourceName', `Data set '${dataset.name}' holds no rows: upload rows (PUT /v1/data/${dataset.name}) before starting a session on it.`);
  }
  const known = columnsOf(dataset);
  // Metadata for a column the data source does not have would add an empty feature of that name.
  const unknown = Object.keys(r.columns).filter((name) => !(name in known));
  if (unknown.length) {
    throw new ValidationError(Object.fromEntries(unknown.map((name) => [name, [`column '${name}' is not in data source '${dataset.name}'.${didYouMean(name, Object.keys(known))}`]])),
      'The column metadata does not fit the data source');
  }
  const columns: ColumnMap = mergeColumns(known, undefined, r.columns);
  const declaredTarget = (r.targetColumn !== undefined ? columnNamed(columns, r.targetColumn) ?? r.targetColumn : undefined) ?? Object.keys(r.columns).find((c) => r.columns[c]?.role === 'target')
    ?? Object.keys(columns).find((c) => columns[c]?.role === 'target');
  const messages: Message[] = [];
  if (declaredTarget !== undefined && !columns[declaredTarget]) {
    throw new ValidationError({ targetColumn: [`Column '${declaredTarget}' is not in data source '${r.dataSourceName}'.${didYouMean(declaredTarget, Object.keys(columns))}`] });
  }
  let targetColumn: string;
  if (r.predictionDomain === 'anomalies') {
    targetColumn = ANOMALY_COLUMN;
    messages.push(...anomalyColumns(columns, declaredTarget, r));
  } else {
    if (declaredTarget === undefined) throw new ValidationError({ targetColumn: ['targetColumn is required (or give a column the role target in columns)'] });
    targetColumn = declaredTarget;
    if (r.predictionDomain === 'regression') checkRegressionTarget(targetColumn, columns[targetColumn]!.dataType);
    for (const [name, c] of Object.entries(columns)) {
      if (name === targetColumn) columns[name] = { ...c, role: 'target' };
      else if (c.role === 'target') columns[name] = { ...c, role: 'feature' };
    }
  }
  const extraParameters = { ...r.extraParameters };
  const request: Record<string, unknown> = { extraParameters, ...(dataset.view ? { dataSourceType: 'view' } : {}), ...missingValuesField(r.missingValues) };
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

/**
 * The columns an anomaly session examines. A declared target holds labels, which must not leak into
 * unsupervised detection: it takes no part. But a time series' target that is its only measured column
 * is the series itself; without it the model would see nothing but the timestamp's parts and flag rows
 * by their place in time (NAB's 52 labelled series: mean ROC AUC 0.40, below chance, and half of
 * nyc_taxi's rows flagged), or, the timestamp left out, nothing at all. So it is examined, also when
 * the request names it (a client asking for the anomalies of its series). A timestamp takes part only
 * to place the values of a series examined alone (one measured column, however it came to be examined:
 * the dashboard sends every column's role) in its cycle: a row's time alone does not make it anomalous
 * (bench:anomaly-series).
 */
function anomalyColumns(columns: ColumnMap, declaredTarget: string | undefined, r: ModelSessionRequest): Message[] {
  const messages: Message[] = [];
  const timestamps = Object.keys(columns).filter((n) => columns[n]!.role === 'timestamp');
  for (const name of timestamps) columns[name] = { ...columns[name]!, role: 'none' };
  const targetByMetadataOnly = declaredTarget !== undefined && r.targetColumn === undefined && r.columns[declaredTarget]?.role !== 'target';
  const otherFeatures = Object.keys(columns).some((n) => n !== declaredTarget && columns[n]!.role === 'feature');
  const targetIsTheSeries = declaredTarget !== undefined && timestamps.length > 0 && !otherFeatures && isNumericType(columns[declaredTarget]!.dataType);
  if (declaredTarget !== undefined) {
    columns[declaredTarget] = { ...columns[declaredTarget]!, role: targetIsTheSeries ? 'feature' : 'none' };
    if (!targetIsTheSeries) messages.push({ severity: 'warning', message: `Anomaly detection sessions do not accept a target column. Target column '${declaredTarget}' exists in data source '${r.dataSourceName}'; its values will not influence the results. The session's target column '${ANOMALY_COLUMN}' holds a negative value for anomalous rows. To use these values as labels, create a classification session instead.` });
  }
  const examined = Object.keys(columns).filter((n) => isFeatureColumn({ name: n, dataType: columns[n]!.dataType as DataType, role: columns[n]!.role }));
  // Refused now rather than failed later: a session with nothing to examine cannot run.
  if (examined.length === 0) {
    throw ValidationError.of('columns', `Data source '${r.dataSourceName}' has no column for the session to examine: ${Object.keys(columns).map((n) => `'${n}' (${columns[n]!.role})`).join(', ')}. Give the columns to examine the role feature${declaredTarget !== undefined ? `, or leave '${declaredTarget}' out as the target` : ''}.`);
  }
  if (timestamps.length > 0 && examined.length === 1 && isNumericType(columns[examined[0]!]!.dataType)) {
    // The timestamp keeps its role: it places each value in the series (jobs/compute/model-compute.ts seriesColumns).
    columns[timestamps[0]!] = { ...columns[timestamps[0]!]!, role: 'timestamp' };
    const which = targetIsTheSeries
      ? `a time series whose only measured column is its target, '${declaredTarget}': the session looks for anomalies in its values${targetByMetadataOnly ? '' : ' (a target named for an anomaly session is otherwise taken for labels and left out; here nothing else would be left to examine)'}`
      : `a time series, and the session examines one measured column, '${examined[0]}': it looks for anomalies in its values`;
    messages.push({ severity: 'informational', message: `Data source '${r.dataSourceName}' is ${which}, each judged among all the values and against the series' usual value at its time ('${timestamps[0]}'): its level then and its usual value at that time of day, day of the week or month. A row's time alone does not make it anomalous. The session's target column '${ANOMALY_COLUMN}' holds a negative value for anomalous rows.` });
  } else if (timestamps.length > 0) {
    messages.push({ severity: 'informational', message: `The timestamp '${timestamps[0]}' takes no part in anomaly detection: a row's time alone does not make it anomalous, and rows at the start or end of the data would stand out for their dates.` });
  }
  return messages;
}

/**
 * A regression predicts a number: on a column of words it found no number in any row and failed
 * saying "0 rows have a value", which sent people looking for empty cells. Said when the session is
 * asked for, with the domain that fits.
 */
function checkRegressionTarget(target: string, dataType: DataType): void {
  if (isNumericType(dataType)) return;
  const held = dataType === 'logical' ? 'truth values' : dataType === 'date' ? 'dates' : 'text';
  throw ValidationError.of('targetColumn', `Column '${target}' holds ${held} (dataType ${dataType}), and a regression predicts a number. To predict its ${dataType === 'date' ? 'values' : 'classes'}, ask for predictionDomain classification; if its values are numbers, declare its dataType numeric in the session's columns.`);
}
