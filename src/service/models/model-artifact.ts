/**
 * What a model session stores as a model: the fitted encoder (so prediction-time rows get the same
 * columns and codes) and the learner, both as plain JSON, with what prediction needs to name its
 * outputs. Shared by the worker-thread computation that writes it and the predictor that reads it.
 */
import type { SerializedFrameEncoder } from '../../ml/encode.js';
import type { SerializedModel } from '../../ml/estimator.js';
import type { SerializedConformal } from '../../ml/conformal/regression-intervals.js';

/** The largest share of rows an anomaly session may be asked to flag (extraParameters.contamination). */
export { MAX_CONTAMINATION } from '../../ml/tabular/isolation-forest/index.js';

export const PREDICTION_DOMAINS = ['classification', 'regression', 'anomalies'] as const;
export type PredictionDomain = (typeof PREDICTION_DOMAINS)[number];

/** The column anomaly sessions fill in (negative = anomalous). */
export const ANOMALY_COLUMN = 'anomaly';
/** Its tail probability: the share of training rows that scored as anomalous or more (ml/tabular/isolation-forest/tail.ts). */
export const ANOMALY_TAIL_COLUMN = 'anomaly:tailProbability';

export interface ModelArtifact {
  format: 'sibyl-model-artifact';
  version: 1;
  domain: PredictionDomain;
  /** Where predictions go: the target column, or `anomaly`. */
  targetColumn: string;
  keyColumn: string | null;
  /** Classification: class labels in the order of the model's probabilities. */
  classes: string[] | null;
  encoder: SerializedFrameEncoder;
  /** The model's versioned artifact (ml/model-loader.ts reads every version). */
  learner: SerializedModel;
  /** Regression: the conformal interval model (artifacts written before it have none). */
  intervals?: SerializedConformal;
  /** The training data's markers for a missing value (domain/missing-values.ts), read as missing in predict records too. */
  missingValues?: string[];
}

export interface AlgorithmView {
  name: string;
  description: string;
  key: string;
}
