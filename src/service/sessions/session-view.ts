import type { SessionRecord } from '../../store/sessions-store.js';
import { columnsToJson, type ColumnMap } from '../../domain/columns.js';

/** Resource dates as the original service wrote them: ISO 8601 with +00:00. */
export function isoOffset(d: Date | string | number): string {
  return new Date(d).toISOString().replace('Z', '+00:00');
}

/**
 * The session resource (compat-notes §4.1): the body of GET /v1/sessions/<id>, merged into every
 * results payload, and the body of status callbacks. `base` is the public /v1 URL.
 */
export function sessionView(s: SessionRecord, base: string): Record<string, unknown> {
  const req = s.request;
  const id = s.id;
  const links = [
    { rel: 'results', href: `${base}/sessions/${id}/results` },
    // A session on a view links to the view's rows (request.dataSourceType, set when it was created).
    { rel: 'data', href: `${base}/${req.dataSourceType === 'view' ? 'views' : 'data'}/${encodeURIComponent(s.datasetName)}` },
  ];
  if (s.modelId) links.push({ rel: 'model', href: `${base}/models/${s.modelId}` });
  const view: Record<string, unknown> = {
    sessionId: id,
    type: s.type,
    status: s.status,
    predictionDomain: s.predictionDomain ?? s.type,
    supportsFeatureImportance: s.type === 'model' && s.predictionDomain !== 'anomalies',
    availablePredictionIntervals: (req.availablePredictionIntervals as string[] | undefined) ?? [],
    requestedDate: isoOffset(s.requestedAt),
    statusHistory: s.statusHistory.map((h) => ({ date: isoOffset(h.date), status: h.status })),
    extraParameters: req.extraParameters ?? {},
    messages: s.messages,
    name: s.name,
    dataSourceName: s.datasetName,
    dataSetName: s.datasetName,
    targetColumn: s.targetColumn,
    isEstimate: false,
    columns: columnsToJson(s.columns as ColumnMap),
    links,
  };
  // Time-series sessions always carry their window and interval; model sessions never do (the
  // original omitted them, and the Python client parses any startDate/endDate present as a date).
  if (s.type !== 'model') {
    if (req.startDate != null) view.startDate = req.startDate;
    if (req.endDate != null) view.endDate = req.endDate;
    // Lowercase as on the original wire (cassettes: "day"); the spec's capitalised echo crashes the
    // Python client, which looks the value up in its lowercase TimeInterval enum.
    view.resultInterval = String(req.resultInterval ?? 'day').toLowerCase();
  }
  // Echoed only when one was given (§3.11).
  if (s.callbackUrl) view.callbackUrl = s.callbackUrl;
  if (s.type === 'model') {
    view.balance = req.balance ?? null;
    if (s.predictionDomain !== 'classification') delete view.balance;
  }
  if (s.type === 'impact' && req.eventName != null) view.eventName = req.eventName;
  if (s.modelId) view.modelId = s.modelId;
  if (s.algorithm) view.algorithm = s.algorithm;
  return view;
}

/** HEAD /sessions/<id> and the Nexosis-Session-Status header use PascalCase (JS clients poll for 'Completed'). */
export function pascalStatus(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}
