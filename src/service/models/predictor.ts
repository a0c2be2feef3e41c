/**
 * A loaded model ready to predict records: echoes each record with its values as strings and fills
 * in the target (class, number, or `anomaly` score). Columns the model does not know are echoed but
 * ignored; missing features and unseen categories are missing values to the model.
 */
import { MissingValues } from '../../domain/missing-values.js';
import { loadFrameEncoder, type FrameEncoder, type RawColumns, type UnreadValues, type FarValues } from '../../ml/encode.js';
import { decisionsFrom, type Model } from '../../ml/estimator.js';
import type { Frame } from '../../ml/frame.js';
import { loadModel, loadTrainedModel } from '../../ml/model-loader.js';
import { IsolationForestModel } from '../../ml/tabular/isolation-forest/index.js';
import { ConformalRegressor } from '../../ml/conformal/regression-intervals.js';
import { intervalField } from '../../ml/conformal/interval-fields.js';
import { ANOMALY_TAIL_COLUMN, type ModelArtifact } from './model-artifact.js';
import { EXPLANATION_WORK_LIMIT, ExplanationUnavailable, explain, explanationWork, type Explanation } from '../../ml/explain/explanation.js';
import { explanationsView, type ExplanationsView } from './record-explanations.js';
import { predictionInputMessages } from './input-messages.js';
import type { Message } from '../../store/schema.js';

/** Records whose column names are read to suggest a misspelt input (every record of a batch usually has the same). */
const RECORDS_NAMING_COLUMNS = 100;

export interface PredictOptions {
  /** Classification: a `<target>:<class>` probability per class. */
  includeClassScores?: boolean;
  /** Regression: `<target>:lower:<level>` and `<target>:upper:<level>` for each level. */
  predictionIntervals?: number[];
  /** Per-record feature contributions (record-explanations.ts). */
  includeExplanations?: boolean;
}

/** Predicted records, and what the answer should say about its input (input-messages.ts). */
export interface Prediction {
  data: Record<string, string>[];
  messages: Message[];
}

export class Predictor {
  private readonly encoder: FrameEncoder;
  private readonly model: Model;
  private readonly intervals?: ConformalRegressor;

  /** Input columns the encoder reads as numbers: for these, JSON numbers are passed through untouched. */
  private readonly numericInputs: Set<string>;
  /** The training data's markers for a missing value: a record's cell reading one is missing, as in training. */
  private readonly markers: MissingValues | undefined;

  constructor(readonly artifact: ModelArtifact) {
    if (artifact.format !== 'sibyl-model-artifact') throw new Error(`not a sibyl model artifact (format ${String(artifact.format)})`);
    this.encoder = loadFrameEncoder(artifact.encoder);
    const specs = (artifact.encoder as { inputs?: { name: string; dataType: string }[] }).inputs ?? [];
    this.numericInputs = new Set(specs.filter((i) => i.dataType === 'numeric' || i.dataType === 'numericMeasure').map((i) => i.name));
    this.markers = artifact.missingValues?.length ? new MissingValues(artifact.missingValues) : undefined;
    // One loader for every kind and artifact version (older ones are migrated, not refused).
    this.model = loadModel(artifact.learner);
    if (artifact.intervals) this.intervals = ConformalRegressor.load(artifact.intervals, loadTrainedModel);
  }

  /** Why this model cannot give prediction intervals at `levels`, or undefined when it can. */
  intervalsUnavailable(levels: readonly number[]): string | undefined {
    if (this.artifact.domain !== 'regression') return `Prediction intervals are given by regression models; this is a ${this.artifact.domain} model.`;
    if (!this.intervals) return 'This model was trained before Sibyl gave prediction intervals; train it again to get them.';
    const unbounded = this.intervals.unboundedReason(levels);
    if (unbounded) return `${unbounded}. Ask for a lower level, or train on more rows.`;
    return undefined;
  }

  /** Why this model cannot explain `records` records in one request, or undefined when it can. */
  explanationsUnavailable(records: number): string | undefined {
    if (!this.model.explain) return `${this.model.algorithm.name} models give no per-record explanations.`;
    try {
      // No rows: only the checks (covers saved?) run.
      explain(this.model, this.encoder.encode({}, 0));
    } catch (e) {
      if (e instanceof ExplanationUnavailable) return e.message;
      throw e;
    }
    const work = explanationWork(this.model);
    if (work * records > EXPLANATION_WORK_LIMIT) {
      const most = Math.floor(EXPLANATION_WORK_LIMIT / work);
      const cost = `Explaining this model's trees costs ${work} steps a record; a request may ask for ${EXPLANATION_WORK_LIMIT}.`;
      return most >= 1 ? `${cost} Ask for explanations of at most ${most} records at a time.` : `${cost} Its trees are too large to explain even one record.`;
    }
    return undefined;
  }

  /** Contributions of each input column per record; throws ExplanationUnavailable with the reason. */
  explain(records: Record<string, unknown>[]): ExplanationsView {
    const frame = this.explanationFrame(records);
    return this.explanationView(explain(this.model, frame));
  }

  /**
   * As explain, with the explanation (explanation.ts explain of the encoded frame) computed by `run`,
   * e.g. on the scoring threads (scoring-threads.ts); everything else runs here.
   */
  async explainWith(records: Record<string, unknown>[], run: (frame: Frame) => Promise<Explanation>): Promise<ExplanationsView> {
    const frame = this.explanationFrame(records);
    return this.explanationView(await run(frame));
  }

  /** Whether the model's explanation is a sum of tree parts (explanation.ts TREE_PARTS) that threads may share. */
  get explainsByTreeParts(): boolean {
    return this.model.explainsByTreeParts === true;
  }

  /** TreeSHAP steps (tree-shap.ts pathWork) of explaining this many records. */
  explanationSteps(records: number): number {
    return explanationWork(this.model) * records;
  }

  private explanationFrame(records: Record<string, unknown>[]): Frame {
    const problem = this.explanationsUnavailable(records.length);
    if (problem) throw new ExplanationUnavailable(problem);
    const rows = records.map(echo);
    return this.encoder.encode(inputColumns(records, rows, this.encoder.inputColumns, this.numericInputs, this.markers).columns, records.length);
  }

  private explanationView(e: Explanation): ExplanationsView {
    return explanationsView(e, this.encoder.inputColumns, (c) => this.encoder.sourceColumn(c), this.artifact.classes);
  }

  predict(records: Record<string, unknown>[], opts: PredictOptions = {}): Prediction {
    const { rows, frame, messages } = this.encode(records);
    return { data: frame ? this.complete(rows, frame, this.model.predictScores(frame), opts) : rows, messages };
  }

  /**
   * As predict, with the scores (the model's predictScores of the encoded frame) computed by `score`,
   * e.g. on a scoring thread (scoring-threads.ts); everything else runs here.
   */
  async predictWith(records: Record<string, unknown>[], opts: PredictOptions, score: (frame: Frame) => Promise<Float64Array>): Promise<Prediction> {
    const { rows, frame, messages } = this.encode(records);
    return { data: frame ? this.complete(rows, frame, await score(frame), opts) : rows, messages };
  }

  /** The records echoed as strings, the model's input frame (none for no records), and what to say about the input. */
  private encode(records: Record<string, unknown>[]): { rows: Record<string, string>[]; frame?: Frame; messages: Message[] } {
    const rows = records.map(echo);
    if (records.length === 0) return { rows, messages: [] };
    const names = this.encoder.inputColumns;
    const unread: UnreadValues[] = [];
    const far: FarValues[] = [];
    const { columns, absent } = inputColumns(records, rows, names, this.numericInputs, this.markers);
    const frame = this.encoder.encode(columns, records.length, unread, far);
    return { rows, frame, messages: predictionInputMessages(records.length, names, absent, unread, () => this.otherColumns(records), far) };
  }

  /** Columns of the records (the first RECORDS_NAMING_COLUMNS of them) that are neither inputs nor the target. */
  private otherColumns(records: Record<string, unknown>[]): string[] {
    const known = new Set([...this.encoder.inputColumns, this.artifact.targetColumn]);
    const others = new Set<string>();
    for (const r of records.slice(0, RECORDS_NAMING_COLUMNS)) for (const k in r) if (!known.has(k)) others.add(k);
    return [...others];
  }

  /** Fills in the target (and scores, intervals) from the model's scores `out` of `frame`. */
  private complete(rows: Record<string, string>[], frame: Frame, out: Float64Array, opts: PredictOptions): Record<string, string>[] {
    const n = rows.length;
    const target = this.artifact.targetColumn;
    // Anomalies: the decision function (negative = anomalous); regression: the value.
    if (this.model instanceof IsolationForestModel) {
      for (let i = 0; i < n; i++) rows[i]![target] = String(out[i]);
      if (this.model.hasTailProbabilities) {
        const tail = this.model.tailProbability(frame);
        for (let i = 0; i < n; i++) rows[i]![ANOMALY_TAIL_COLUMN] = String(tail[i]);
      }
      return rows;
    }
    const classes = this.artifact.classes;
    if (!classes) {
      for (let i = 0; i < n; i++) rows[i]![target] = String(out[i]);
      const levels = this.intervals ? opts.predictionIntervals ?? [] : [];
      const intervals = this.intervals?.intervalsAt(frame, out, levels) ?? [];
      for (let l = 0; l < levels.length; l++) {
        const level = levels[l]!;
        const { lower, upper } = intervals[l]!;
        const lo = intervalField(target, 'lower', level);
        const hi = intervalField(target, 'upper', level);
        for (let i = 0; i < n; i++) {
          rows[i]![lo] = String(lower[i]);
          rows[i]![hi] = String(upper[i]);
        }
      }
      return rows;
    }
    const k = classes.length;
    // The model's decision (it may weigh classes: balance), not always the most probable class;
    // taken from the scores above rather than scoring the rows a second time.
    const predicted = decisionsFrom(this.model, out, frame);
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      row[target] = classes[predicted[i]!]!;
      if (opts.includeClassScores) for (let c = 0; c < k; c++) row[`${target}:${classes[c]}`] = String(out[i * k + c]);
    }
    return rows;
  }
}

/**
 * The record with its values as strings, in a fresh object: every row built the same way shares one
 * shape, and no field changes representation (number → string) after creation, which V8 handles slowly.
 */
function echo(record: Record<string, unknown>): Record<string, string> {
  const row: Record<string, string> = {};
  for (const k in record) {
    const v = record[k];
    row[k] = typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return row;
}

/**
 * The input columns of the records, and per input column the records that do not hold it at all (an
 * empty or null value is held: the echo makes it '', an absent one stays undefined). A value reading
 * one of the `markers` is held, and empty.
 */
function inputColumns(records: Record<string, unknown>[], rows: Record<string, string>[], names: string[], numeric: Set<string>, markers?: MissingValues): { columns: RawColumns; absent: number[] } {
  const columns: RawColumns = {};
  const absent = new Array<number>(names.length).fill(0);
  names.forEach((name, j) => {
    const values = new Array<string | number | undefined>(rows.length);
    if (numeric.has(name)) {
      for (let i = 0; i < rows.length; i++) { const v = records[i]![name]; values[i] = typeof v === 'number' ? v : rows[i]![name]; }
    } else {
      for (let i = 0; i < rows.length; i++) values[i] = rows[i]![name];
    }
    for (let i = 0; i < rows.length; i++) if (values[i] === undefined) absent[j]!++;
    if (markers) for (let i = 0; i < rows.length; i++) if (markers.has(values[i])) values[i] = '';
    // Numbers only reach numeric inputs, whose encoding takes them as they are (encode.ts).
    columns[name] = values as ArrayLike<string | undefined>;
  });
  return { columns, absent };
}
