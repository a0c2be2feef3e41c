/**
 * The anomaly protocol's tables (benchdata/PROTOCOL.md §2) from any data root, scikit-learn's
 * IsolationForest results on them, and one evaluation of ours.
 */
import { column } from './csv.js';
import type { DataRoot } from './data-root.js';
import { fitFrameEncoder } from '../../src/ml/encode.js';
import type { Frame } from '../../src/ml/frame.js';
import { averagePrecision, rocAuc } from '../../src/ml/metrics/ranking.js';
import { ANOMALY_TASK, IsolationForest, percentAnomalies, type IsolationForestSettings } from '../../src/ml/tabular/isolation-forest/index.js';

const LABEL = 'is_anomaly';

export interface AnomalyTable {
  name: string;
  frame: Frame;
  labels: Uint8Array; // 1 = anomaly
}

/** An ODDS-style table: every column but the label is a numeric feature. */
export function loadAnomalyTable(root: DataRoot, name: string): AnomalyTable {
  const table = root.read('anomaly', `${name}.csv`);
  const features = table.header.filter((h) => h !== LABEL);
  const columns = Object.fromEntries(features.map((h) => [h, column(table, h)]));
  const frame = fitFrameEncoder(features.map((name) => ({ name, dataType: 'numeric' as const })), columns).encode(columns);
  return { name, frame, labels: Uint8Array.from(column(table, LABEL), Number) };
}

/** scikit-learn IsolationForest results (mean over its seeds 0..4) from reference/anomaly.csv. */
export function referenceIsolationForest(root: DataRoot, name: string): { rocAuc: number; averagePrecision: number; rocAucSd: number } {
  const t = root.read('reference', 'anomaly.csv');
  const col = (h: string) => t.header.indexOf(h);
  const row = t.rows.find((r) => r[col('dataset')] === name && r[col('method')] === 'isolation_forest');
  if (!row) throw new Error(`no isolation_forest reference for ${name}`);
  return { rocAuc: Number(row[col('roc_auc')]), averagePrecision: Number(row[col('avg_precision')]), rocAucSd: Number(row[col('roc_auc_sd')]) };
}

export interface AnomalyRun {
  rocAuc: number;
  averagePrecision: number;
  /** Share flagged by the default (containsAnomalies) decision rule. */
  percentAnomalies: number;
  seconds: number;
  /** −score_samples of every row: higher = more anomalous. */
  anomalousness: Float64Array;
}

export function evaluateIsolationForest(table: AnomalyTable, seed: number, settings: Partial<IsolationForestSettings> = {}): AnomalyRun {
  const start = performance.now();
  const forest = new IsolationForest({ ...settings, containsAnomalies: true }).fit(table.frame, null, ANOMALY_TASK, { seed });
  const scores = forest.scoreSamples(table.frame);
  const seconds = (performance.now() - start) / 1000;
  const anomalousness = scores.map((s) => -s);
  return {
    rocAuc: rocAuc(table.labels, anomalousness),
    averagePrecision: averagePrecision(table.labels, anomalousness),
    percentAnomalies: percentAnomalies(scores.map((s) => s - forest.threshold.offset)),
    seconds,
    anomalousness,
  };
}
