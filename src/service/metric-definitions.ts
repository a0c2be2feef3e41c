/**
 * What each metric a session's results can carry means (`GET /v1/metrics`; the late dashboard read
 * it to name and explain the metrics it shows, compat-notes §3.10). Keep in step with the metrics
 * the computations write: jobs/compute/model-compute.ts (classification, regression, anomalies),
 * forecast-compute.ts and impact-compute.ts.
 */
import { SESSION_INTERVAL_LEVELS } from '../ml/conformal/interval-fields.js';

export interface MetricDefinition {
  key: string;
  name: string;
  description: string;
}

/** One coverage metric per interval level a regression session's rows carry (`predictionIntervalCoverage80`…). */
const intervalCoverage: MetricDefinition[] = SESSION_INTERVAL_LEVELS.map((level) => {
  const percent = Math.round(level * 100);
  return {
    key: `predictionIntervalCoverage${percent}`,
    name: `${percent} % Prediction Interval Coverage`,
    description: `The share of test rows whose actual value fell inside the model's ${percent} % prediction interval (near ${level} when the intervals are right).`,
  };
});

export const METRIC_DEFINITIONS: readonly MetricDefinition[] = [
  // Regression and forecast: errors on the held-back rows or periods.
  { key: 'meanAbsoluteError', name: 'Mean Absolute Error', description: 'The average absolute difference between the predicted and the actual values, in the target\'s units.' },
  { key: 'meanAbsolutePercentError', name: 'Mean Absolute Percent Error', description: 'The average absolute error as a fraction of the actual value (0.1 = 10 %), over the rows whose actual value is not 0.' },
  { key: 'meanAbsoluteScaledError', name: 'Mean Absolute Scaled Error', description: 'A forecast\'s mean absolute error divided by that of the naive forecast (the previous period\'s value) on the training periods; below 1 beats it.' },
  { key: 'rootMeanSquareError', name: 'Root Mean Square Error', description: 'The square root of the average squared error, in the target\'s units; large errors weigh more than in the mean absolute error.' },
  { key: 'rSquared', name: 'R Squared', description: 'The share of the target\'s variance the predictions explain: 1 is perfect, 0 no better than predicting the average.' },
  ...intervalCoverage,
  // Classification: decisions and class scores on the held-back rows.
  { key: 'accuracy', name: 'Accuracy', description: 'The share of test rows whose class was predicted correctly.' },
  { key: 'macroAverageF1Score', name: 'Macro Average F1 Score', description: 'The harmonic mean of precision and recall, computed for each class and averaged with equal weight per class.' },
  { key: 'macroAveragePrecision', name: 'Macro Average Precision', description: 'For each class, the share of rows predicted as that class that really are, averaged with equal weight per class.' },
  { key: 'macroAverageRecall', name: 'Macro Average Recall', description: 'For each class, the share of its rows that were predicted as that class, averaged with equal weight per class.' },
  { key: 'matthewsCorrelationCoefficient', name: 'Matthews Correlation Coefficient', description: 'The correlation between the predicted and the actual classes, from -1 to 1 (0 is chance), fair to unbalanced classes.' },
  { key: 'rocAreaUnderCurve', name: 'ROC Area Under Curve', description: 'The probability that the class scores rank a row of a class above a row of another (averaged over classes): 0.5 is chance, 1 perfect.' },
  { key: 'logLoss', name: 'Log Loss', description: 'The average negative log of the probability the model gave each row\'s actual class; lower is better.' },
  { key: 'brierScore', name: 'Brier Score', description: 'The average squared difference between the class probabilities and the actual class (1 for it, 0 for the others); lower is better.' },
  { key: 'expectedCalibrationError', name: 'Expected Calibration Error', description: 'How far the predicted class probabilities are from the observed frequencies, averaged over bins of the probability.' },
  // Impact: the event's effect on the target over its window.
  { key: 'pValue', name: 'P-Value', description: 'The probability of an effect at least this large had the event had none; small values mean the effect is unlikely to be chance.' },
  { key: 'absoluteEffect', name: 'Absolute Effect', description: 'The observed total over the event window minus the total predicted had the event not occurred, in the target\'s units.' },
  { key: 'relativeEffect', name: 'Relative Effect', description: 'The absolute effect as a fraction of the total predicted had the event not occurred.' },
  // Anomalies.
  { key: 'percentAnomalies', name: 'Percent Anomalies', description: 'The share of the rows judged anomalous (0.05 = 5 %).' },
];
