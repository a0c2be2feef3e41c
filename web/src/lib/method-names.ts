/**
 * The forecast method and the impact model a session chose, in words: the API names them by their
 * keys (`comb`, `local_level_drift_seasonal_12_log`), which a newcomer cannot read.
 */

/** Keys of src/ml/timeseries/forecast (candidateNames, BASE_METHODS). */
const FORECAST_METHODS: Record<string, string> = {
  naive: 'the last value carried forward',
  snaive: 'the last season repeated',
  ets: 'exponential smoothing',
  damped: 'exponential smoothing with a damped trend',
  theta: 'the Theta method',
  arima: 'ARIMA',
  comb: 'an average of exponential smoothing, the Theta method and, for data without seasons, ARIMA',
  regression: 'a regression on the other columns',
};

export function forecastMethodInWords(key: string): string {
  return FORECAST_METHODS[key] ?? key;
}

/** Labels of src/ml/timeseries/statespace/structural.ts: a trend part, then `_ar1`, `_seasonal_<n>`, `_log`. */
const TRENDS: [string, string][] = [
  ['local_linear_trend', 'a trend that changes over time'],
  ['local_level_drift', 'a level with a steady trend'],
  ['local_level', 'a level that wanders'],
];

export function impactModelInWords(label: string): string {
  const trend = TRENDS.find(([key]) => label === key || label.startsWith(`${key}_`));
  if (!trend) return label;
  const rest = label.slice(trend[0].length);
  const parts = [trend[1]];
  if (/_ar1(_|$)/.test(rest)) parts.push('short-term carry-over');
  const season = /_seasonal_(\d+)/.exec(rest);
  if (season) parts.push(`a repeating pattern of ${season[1]} periods`);
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]!;
  return /_log$/.test(rest) ? `${text}, on the logarithm of the values` : text;
}
