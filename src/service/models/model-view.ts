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

/**
 * The model view serialized, remembered for the last base URL per model record: predict answers
 * carry the whole view (api/routes/models.ts predictionJson), and on the cached-model path (the same record object every time) building
 * and serializing it again was a good part of a single-record predict's work and garbage. One base
 * per record, so requests with odd Host headers cannot grow it.
 */
const serialized = new WeakMap<ModelRecord, { base: string; json: string }>();

export function modelViewJson(m: ModelRecord, base: string): string {
  const hit = serialized.get(m);
  if (hit && hit.base === base) return hit.json;
  const json = JSON.stringify(modelView(m, base));
  serialized.set(m, { base, json });
  return json;
}

