/**
 * A forecast's word on values far outside the rest of its series (ml/timeseries/forecast/far-outliers.ts):
 * one such value, a typo like 999 among values of 2 to 30, used to flatten a seasonal forecast without
 * a message. Each is named with its period and what the fit did with it — replaced by the value the
 * series' trend and season give that period, or, at an end of the series, kept as recorded — and how
 * to correct it.
 */
import type { Message } from '../../store/schema.js';
import { FAR_RANGES, type FarOutlier } from '../../ml/timeseries/forecast/far-outliers.js';
import { numberInWords } from '../../domain/wording.js';

/** A far outlier named by its period (series-grid.ts periodName) instead of its position. */
export type FarValue = Omit<FarOutlier, 'index'> & { period: string };

/** Three significant digits: the expected value is an estimate. */
const roughly = (x: number) => numberInWords(Number(x.toPrecision(3)));

function howFar(v: FarValue): string {
  if (v.beyond === 'range') return `it is more than ${FAR_RANGES} times that range beyond it`;
  if (v.value <= 0) return `all of them above zero`;
  const times = v.usualLow / v.value;
  return `it is ${times >= 100 ? numberInWords(Math.round(times)) : roughly(times)} times smaller than the lowest of them, a dropped digit or more`;
}

export function farValueMessages(values: FarValue[], target: string, dataset: string): Message[] {
  return values.map((v) => {
    const where = `The value ${numberInWords(v.value)} of ${target} on ${v.period} lies far outside the rest of the series (${numberInWords(v.usualLow)} to ${numberInWords(v.usualHigh)}; ${howFar(v)})`;
    const fix = `If it is a mistake, correct it in ${dataset} and run the session again; /results/outliers lists it with the series' other outliers.`;
    return {
      severity: 'warning' as const,
      message: v.replaced
        ? `${where}: it looks like a typo, so the forecast was fitted with ${roughly(v.expected)}, what the series' trend and season give that period, in its place (the data keep the value as it is). ${fix}`
        : `${where}. At the end of the series nothing shows whether it is a mistake or a new level, so the forecast was fitted on it as recorded and follows it (the series' trend and season give that period about ${roughly(v.expected)}). ${fix}`,
    };
  });
}
