/**
 * The one estimator contract of ml/, for every model kind (GBDT, forests, linear, blends, isolation
 * forest):
 * - an Estimator holds its parameters (defaults resolved) and fits data into a Model;
 * - a Model predicts (`predict`: class index, value, or −1 for an anomaly / 1 for a normal row) and
 *   scores separately (`predictScores`: class probabilities, the value, or the anomaly decision
 *   function), and reports what its fit wants the user to know (`warnings`);
 * - its saved form (`toJSON`) is a versioned artifact: format, schema version, the producer that
 *   wrote it, the kind, the task and the parameters. model-loader.ts reads every version back,
 *   migrating older ones.
 */
import type { Frame, Task } from './frame.js';
import type { ExplainOptions, Explanation } from './explain/explanation.js';

/** Schema version of the artifacts this code writes (1: before parameters and producer were stored). */
export const ARTIFACT_VERSION = 2;
/** Who wrote an artifact: the package name and version (a test keeps it equal to package.json's). */
export const PRODUCER = 'sibyl 0.1.0';

/** Unsupervised anomaly detection: no target, rows scored by how easily they isolate. */
export interface AnomalyTask {
  kind: 'anomalies';
}

export type ModelTask = Task | AnomalyTask;

export interface FitOptions {
  seed: number;
  /** Per-row training weight (class balancing); undefined = all 1. */
  weights?: Float64Array;
}

export interface AlgorithmInfo {
  key: string; // stable id, e.g. "gbdt", "random_forest", "linear"
  name: string; // human name, e.g. "Gradient Boosted Trees"
  description: string;
}

/** The saved form of a model: a versioned envelope around the kind's own fields. */
export interface SerializedModel {
  format: 'sibyl-model';
  version: number;
  /** E.g. "sibyl 0.1.0"; artifacts migrated from version 1 say "unknown (artifact version 1)". */
  producer?: string;
  kind: string; // which estimator wrote it
  task?: ModelTask;
  /** The estimator's parameters, defaults resolved ({} for migrated version-1 artifacts: not recorded). */
  params?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Model {
  readonly algorithm: AlgorithmInfo;
  readonly task: ModelTask;
  /** The parameters of the estimator that fitted it. */
  readonly params: Readonly<Record<string, unknown>>;
  /** What the fit wants the user to know, e.g. a solver that stopped before converging. */
  readonly warnings: readonly string[];
  /** Classification: class index per row; regression: the value; anomalies: −1 anomalous, 1 normal. */
  predict(frame: Frame): Float64Array;
  /**
   * Classification: row-major probabilities, nRows × classes.length; regression: the value;
   * anomalies: the decision function (negative = anomalous, more negative = more anomalous).
   */
  predictScores(frame: Frame): Float64Array;
  /**
   * What `predict(frame)` answers, from the `predictScores(frame)` already computed (left unchanged):
   * a caller that needs both scores the rows once. Absent where predictions are not a function of the scores.
   */
  decide?(scores: Float64Array): Float64Array;
  /** Importance per input column name (NaN where undefined). */
  featureImportance(): Record<string, number>;
  /**
   * Per-row feature contributions that add up to the raw prediction (explain/explanation.ts); absent
   * for models that give none, throws ExplanationUnavailable when this one cannot (e.g. no covers saved).
   */
  explain?(frame: Frame, opts?: ExplainOptions): Explanation;
  /** True when explain honours ExplainOptions.treeParts: the explanation is the sum of TREE_PARTS parts (explain/explanation.ts). */
  explainsByTreeParts?: boolean;
  /** Work of explaining one row (TreeSHAP steps, tree-shap.ts pathWork, or features for linear models): requests are bounded by it. */
  explainWork?(): number;
  /** The versioned artifact; loadModel (model-loader.ts) restores it. */
  toJSON(): SerializedModel;
}

/** A supervised model. */
export interface TrainedModel extends Model {
  readonly task: Task;
}

export interface Estimator<P extends object = object> {
  readonly algorithm: AlgorithmInfo;
  /** Parameters with every default resolved; each model it fits stores them. */
  readonly params: Readonly<P>;
  fit(frame: Frame, target: Float64Array | null, task: ModelTask, opts: FitOptions): Model;
}

/** A supervised estimator: settings bound, data not yet seen. */
export interface Learner<P extends object = object> extends Estimator<P> {
  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): TrainedModel;
}

/** The envelope every artifact starts with (series models, which predict no rows, have no task). */
export function artifactHeader(kind: string, task: ModelTask | null, params: object): SerializedModel {
  const header: SerializedModel = { format: 'sibyl-model', version: ARTIFACT_VERSION, producer: PRODUCER, kind };
  if (task) header.task = task;
  header.params = { ...params };
  return header;
}

/** Point predictions from scores: the most probable class (first on ties) or the value itself. */
/** What `model.predict(frame)` answers, from its `predictScores(frame)` already computed where the model can (`decide`). */
export function decisionsFrom(model: Model, scores: Float64Array, frame: Frame): Float64Array {
  return model.decide ? model.decide(scores) : model.predict(frame);
}

export function pointPredictions(task: ModelTask, scores: Float64Array): Float64Array {
  if (task.kind !== 'classification') return scores;
  const k = task.classes.length;
  const n = scores.length / k;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (scores[i * k + c] > scores[i * k + best]) best = c;
    out[i] = best;
  }
  return out;
}
