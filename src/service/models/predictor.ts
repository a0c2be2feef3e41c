/**
 * A loaded model ready to predict records: echoes each record with its values as strings and fills
 * in the target (class, number, or `anomaly` score). Columns the model does not know are echoed but
 * ignored; missing features and unseen categories are missing values to the model.
 */
import { loadFrameEncoder, type FrameEncoder, type RawColumns } from '../../ml/encode.js';
import type { SerializedModel, TrainedModel } from '../../ml/frame.js';
import { loadModel } from '../../ml/tabular/serialize.js';
import { loadIsolationForest, type IsolationForest, type SerializedIsolationForest } from '../../ml/tabular/isolation-forest/index.js';
import { argMaxRows } from '../../ml/metrics/classification.js';
import type { ModelArtifact } from './model-artifact.js';

export class Predictor {
  private readonly encoder: FrameEncoder;
  private readonly supervised?: TrainedModel;
  private readonly anomalies?: IsolationForest;

  constructor(readonly artifact: ModelArtifact) {
    if (artifact.format !== 'sibyl-model-artifact') throw new Error(`not a sibyl model artifact (format ${String(artifact.format)})`);
    this.encoder = loadFrameEncoder(artifact.encoder);
    if (artifact.domain === 'anomalies') this.anomalies = loadIsolationForest(artifact.learner as SerializedIsolationForest);
    else this.supervised = loadModel(artifact.learner as SerializedModel);
  }

  predict(records: Record<string, unknown>[], opts: { includeClassScores?: boolean } = {}): Record<string, string>[] {
    const n = records.length;
    const rows = records.map(echo);
    if (n === 0) return rows;
    const frame = this.encoder.encode(inputColumns(rows, this.encoder.inputColumns), n);
    const target = this.artifact.targetColumn;
    if (this.anomalies) {
      const decision = this.anomalies.decisionFunction(frame);
      for (let i = 0; i < n; i++) rows[i]![target] = String(decision[i]);
      return rows;
    }
    const out = this.supervised!.predict(frame);
    const classes = this.artifact.classes;
    if (!classes) {
      for (let i = 0; i < n; i++) rows[i]![target] = String(out[i]);
      return rows;
    }
    const k = classes.length;
    const predicted = argMaxRows(out, k);
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      row[target] = classes[predicted[i]!]!;
      if (opts.includeClassScores) for (let c = 0; c < k; c++) row[`${target}:${classes[c]}`] = String(out[i * k + c]);
    }
    return rows;
  }
}

/** The record with its values as strings; the spread copy keeps the record's hidden class (fast for JSON input). */
function echo(record: Record<string, unknown>): Record<string, string> {
  const row: Record<string, unknown> = { ...record };
  for (const k in row) {
    const v = row[k];
    if (typeof v !== 'string') row[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return row as Record<string, string>;
}

function inputColumns(rows: Record<string, string>[], names: string[]): RawColumns {
  const columns: RawColumns = {};
  for (const name of names) {
    const values = new Array<string | undefined>(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = rows[i]![name];
    columns[name] = values;
  }
  return columns;
}
