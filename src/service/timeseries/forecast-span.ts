/**
 * How a forecast's span sits on its data, said in messages where it misleads:
 * - a horizon longer than half the training data: the original UI asked for at least twice as many
 *   observations as the forecast's length (compat-notes, session_forecast_start_end.md), since a model
 *   learns its seasonality and trend from the data and extrapolates them far beyond what it saw;
 * - holdout metrics that cover fewer periods than the forecast (the holdout takes at most a third of
 *   the data): they describe the first periods ahead, not the whole horizon;
 * - observations on or after the start date: training ends before the first requested period (the
 *   spec's rule, which clients that re-forecast known periods rely on), so those were not fitted.
 */
import type { Message } from '../../store/schema.js';
import type { Interval } from '../../ml/timeseries/prepare.js';

export interface ForecastSpan {
  /** Periods the final model was fitted on, and periods forecast after them. */
  training: number;
  horizon: number;
  /** Observed periods from the start date on, left out of the fit, from `unusedFrom` to `lastObserved`. */
  unused: number;
  unusedFrom: string;
  lastObserved: string;
}

export function forecastSpanMessages(span: ForecastSpan, holdout: number, interval: Interval): Message[] {
  const periods = (n: number) => `${n} ${interval}${n === 1 ? '' : 's'}`;
  const out: Message[] = [];
  if (span.horizon * 2 > span.training) {
    out.push({
      severity: 'warning',
      message: `The forecast runs ${periods(span.horizon)} ahead from ${periods(span.training)} of data: a forecast should be at most half as long as the history it learns from, since the trend and seasonality it extrapolates are only as sure as the data behind them. Expect the far periods, and their bands, to be rough.`,
    });
  }
  if (holdout >= 1 && holdout < span.horizon) {
    out.push({
      severity: 'informational',
      message: `The test metrics cover only the first ${periods(holdout)} of the ${periods(span.horizon)} forecast (the holdout takes at most a third of the data): the later periods are likely to be less accurate than they say.`,
    });
  }
  if (span.unused > 0) {
    out.push({
      severity: 'informational',
      message: `The observations from the start date on (${span.unusedFrom} to ${span.lastObserved}, ${periods(span.unused)}) were not used to fit the forecast: it is trained on the data before the first requested period. To use them, start the forecast after ${span.lastObserved}.`,
    });
  }
  return out;
}
