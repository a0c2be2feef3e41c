/**
 * Blank cells of a session's numeric features (controls of an impact analysis, regressors of a
 * forecast) in rows that have a date: their periods take values interpolated from the periods beside
 * them (series-grid.ts featureValues), which the session says, naming the first few dates.
 */
import type { Message } from '../../store/schema.js';
import { formatOffset } from '../../domain/dates.js';
import { listInWords } from '../../domain/wording.js';
import type { SeriesInput } from './series-rows.js';

const NAMED = 3;

export function featureBlankMessages(series: SeriesInput): Message[] {
  return series.features.filter((f) => !f.logical && !f.imputationDeclared).flatMap((f) => {
    const dates: number[] = [];
    for (let i = 0; i < series.timestamps.length; i++) {
      if (Number.isFinite(series.timestamps[i]) && !Number.isFinite(f.values[i])) dates.push(series.timestamps[i]!);
    }
    if (dates.length === 0) return [];
    dates.sort((a, b) => a - b);
    const named = dates.slice(0, NAMED).map((t) => formatOffset(t).slice(0, series.interval === 'hour' ? 16 : 10).replace('T', ' '));
    const list = dates.length > NAMED ? `${named.join(', ')} and ${dates.length - NAMED} more` : listInWords(named);
    return [{
      severity: 'informational' as const,
      message: `Feature '${f.name}' is blank in ${dates.length === 1 ? 'one row' : `${dates.length} rows`} (${list}): where a ${series.interval} has no value of it, it was interpolated from the ${series.interval}s beside it, not taken as 0. To fill blanks another way, set the column's imputation (mean, median, zeroes …).`,
    }];
  });
}
