import type { ModelRecord } from '../../store/models-store.js';
import { columnsToJson, type ColumnMap } from '../../domain/columns.js';
import { isoOffset } from '../sessions/session-view.js';

/** The model resource (compat-notes §3.8); `base` is the public /v1 URL. */
export function modelView(m: ModelRecord, base: string): Record<string, unknown> {
  return {
    modelId: m.id,
    sessionId: m.sessionId,
    predictionDomain: m.predictionDomain,
    dataSourceName: m.datasetName,
    createdDate: isoOffset(m.createdAt),
    algorithm: m.algorithm,
    metrics: m.metrics,
    columns: columnsToJson(m.columns as ColumnMap),
    links: [
      { rel: 'self', href: `${base}/models/${m.id}` },
      { rel: 'train', href: `${base}/sessions/${m.sessionId}` },
    ],
  };
}
