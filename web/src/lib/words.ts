/** Numbers said in words for people who do not read p-values every day (pure; unit-tested). */

/** A number with about `digits` significant digits, without a trailing exponent for everyday sizes. */
export function formatNumber(v: number, digits = 4): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const abs = Math.abs(v);
  if (abs >= 1e6 || abs < 1e-4) return v.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return String(Number(v.toPrecision(digits)));
}

/** A number rounded to `digits` significant digits, written out in full (no exponent) down to a millionth. */
export function formatSignificant(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  return String(Number(v.toPrecision(digits)));
}

export function formatPercent(fraction: number, digits = 3): string {
  return `${formatNumber(fraction * 100, digits)} %`;
}

/**
 * The p-value of an impact analysis, said plainly: how often chance alone would give a difference
 * at least this large if the event changed nothing, and what that means at the usual 5 % level.
 */
export function pValueInWords(p: number): string {
  if (!Number.isFinite(p)) return 'The analysis gave no p-value.';
  const clamped = Math.min(1, Math.max(0, p));
  let chance: string;
  if (clamped === 0) chance = 'never in the simulations run';
  else if (clamped >= 0.5) chance = `about ${Math.round(clamped * 100)} times in 100`;
  else chance = `about 1 time in ${formatNumber(1 / clamped, 2)}`;
  const strength = clamped < 0.001 ? 'very strong evidence'
    : clamped < 0.01 ? 'strong evidence'
    : clamped < 0.05 ? 'evidence'
    : clamped < 0.1 ? 'weak evidence, not enough at the usual 5 % level,'
    : 'no real evidence';
  return `p = ${formatNumber(clamped, 2)}: if the event had changed nothing, a difference at least this large would turn up by chance ${chance}. `
    + `That is ${strength} that the event had an effect.`;
}

/** "Over the event window, sales totalled 526 less than … (−18.6 %)": the whole window's effect. */
export function effectInWords(target: string, absolute: number, relative: number): string {
  if (!Number.isFinite(absolute)) return '';
  const direction = absolute < 0 ? 'less' : 'more';
  const rel = Number.isFinite(relative) ? ` (${relative < 0 ? '−' : '+'}${formatPercent(Math.abs(relative))})` : '';
  return `Over the event window, ${target} totalled ${formatNumber(Math.abs(absolute))} ${direction} than the model expected without the event${rel}.`;
}

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return i === 0 ? `${v} bytes` : `${formatNumber(v, 3)} ${units[i]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Metric names of the API (`macroAverageF1Score`) as labels ("Macro-average F1 score"). */
const METRIC_LABELS: Record<string, string> = {
  accuracy: 'Accuracy',
  rocAreaUnderCurve: 'ROC AUC',
  macroAverageF1Score: 'Macro-average F1',
  macroAveragePrecision: 'Macro-average precision',
  macroAverageRecall: 'Macro-average recall',
  matthewsCorrelationCoefficient: 'Matthews correlation',
  rootMeanSquareError: 'RMSE',
  meanAbsoluteError: 'MAE',
  meanAbsolutePercentError: 'MAPE',
  meanAbsoluteScaledError: 'MASE',
  rSquared: 'R²',
  percentAnomalies: 'Share of anomalies',
  pValue: 'p-value',
  absoluteEffect: 'Absolute effect',
  relativeEffect: 'Relative effect',
  logLoss: 'Log loss',
  brierScore: 'Brier score',
  expectedCalibrationError: 'Expected calibration error',
};

/** `predictionIntervalCoverage80`: the share of test rows inside their 80 % prediction interval. */
const COVERAGE = /^predictionIntervalCoverage(\d+)$/;

export function metricLabel(name: string): string {
  if (METRIC_LABELS[name]) return METRIC_LABELS[name];
  const coverage = COVERAGE.exec(name);
  if (coverage) return `${coverage[1]} % interval coverage`;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Metrics that are fractions shown as percentages. */
export function isFractionMetric(name: string): boolean {
  return ['accuracy', 'percentAnomalies', 'relativeEffect', 'meanAbsolutePercentError', 'expectedCalibrationError'].includes(name) || COVERAGE.test(name);
}

/** "a", "a and b", "a, b and c". */
export function listInWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A column's data type as a newcomer reads it, for the prediction form (the API's names are `numericMeasure` and the like). */
export function dataTypeInWords(dataType: string): string {
  if (dataType.startsWith('numeric')) return 'number';
  return ({ string: 'category', logical: 'true or false', date: 'date', text: 'free text' } as Record<string, string>)[dataType] ?? dataType;
}

/** What a model does, in a sentence's opening: "Predicts the class of Species", "Scores how unusual a row is". */
export function modelPurpose(domain: string, target: string | undefined): string {
  if (domain === 'anomalies' || !target) return 'Scores how unusual a row is';
  return domain === 'classification' ? `Predicts the class of ${target}` : `Predicts the value of ${target}`;
}

/** A column's role as a newcomer reads it (the API's `feature`, `target`, …). */
export function roleInWords(role: string | null | undefined): string {
  return ({ feature: 'input', target: 'predicted', key: 'row key, passed through', timestamp: 'time of the row', none: 'left out' } as Record<string, string>)[role ?? ''] ?? 'no role';
}
