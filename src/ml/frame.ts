/**
 * Columnar feature frame shared by every tabular learner in ml/.
 * Missing values are kept as missing: NaN in numeric columns, -1 in categorical codes,
 * so each learner decides how to treat them (GBDT learns a side, linear models impute).
 */
export interface NumericColumn {
  kind: 'numeric';
  name: string;
  values: Float64Array; // NaN = missing
}

export interface CategoricalColumn {
  kind: 'categorical';
  name: string;
  codes: Int32Array; // index into levels; -1 = missing or unseen at prediction time
  levels: string[];
}

export type FeatureColumn = NumericColumn | CategoricalColumn;

export interface Frame {
  nRows: number;
  columns: FeatureColumn[];
}

/** What is being learned. Class labels are strings; targets are encoded as class index (0..k-1). */
export type Task =
  | { kind: 'classification'; classes: string[] }
  | { kind: 'regression' };

export interface FitOptions {
  seed: number;
  /** Per-row training weight (class balancing); undefined = all 1. */
  weights?: Float64Array;
}

/**
 * A fitted model. Prediction is columnar:
 * - regression: one value per row;
 * - classification: row-major probabilities, nRows × classes.length.
 */
export interface TrainedModel {
  readonly algorithm: AlgorithmInfo;
  readonly task: Task;
  predict(frame: Frame): Float64Array;
  /** Gain- or weight-based importance per input column name (NaN where undefined). */
  featureImportance(): Record<string, number>;
  /** Plain JSON-able description; `loadModel` in ml/tabular/serialize.ts restores it. */
  toJSON(): SerializedModel;
}

export interface AlgorithmInfo {
  key: string; // stable id, e.g. "gbdt", "random_forest", "linear"
  name: string; // human name, e.g. "Gradient Boosted Trees"
  description: string;
}

export interface SerializedModel {
  format: 'sibyl-model';
  version: number;
  kind: string; // which learner wrote it
  [k: string]: unknown;
}

/** A learner: settings bound, data not yet seen. */
export interface Learner {
  readonly algorithm: AlgorithmInfo;
  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): TrainedModel;
}
