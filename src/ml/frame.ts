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

// The estimator contract (learners, fitted models, their saved form) lives in estimator.ts.
export type { AlgorithmInfo, Estimator, FitOptions, Learner, Model, SerializedModel, TrainedModel } from './estimator.js';
