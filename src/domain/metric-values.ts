/**
 * Metrics are JSON numbers, and a metric without a value (R² of a constant truth, say) is the string
 * "NaN", as the original service wrote it (compat-notes: "a metric/importance can be the string NaN");
 * JSON itself would turn NaN and ±Infinity into null.
 */

export function finiteOrNaN(x: number): number | 'NaN' {
  return Number.isFinite(x) ? x : 'NaN';
}

/** Every value of `metrics` through finiteOrNaN. */
export function metricValues(metrics: Readonly<Record<string, number>>): Record<string, number | 'NaN'> {
  return Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, finiteOrNaN(value)]));
}
