/**
 * A forecast or impact analysis of a column that holds a code for a missing value (-9999 among
 * temperatures: domain/missing-codes.ts) fits the code as data: a forecast's bands then span thousands
 * of degrees. The upload said so; the session's results say it again, where they are read.
 */
import type { Message } from '../../store/schema.js';
import { ExtremeTally, missingCode, missingCodeMessage } from '../../domain/missing-codes.js';
import type { SeriesInput } from './series-rows.js';

export function seriesMissingCodeMessages(series: SeriesInput): Message[] {
  return [series.target, ...series.features].filter((c) => !c.logical).flatMap((c) => {
    const code = missingCode(ExtremeTally.of(c.values));
    return code ? [{ severity: 'warning' as const, message: missingCodeMessage(c.name, code, 'session') }] : [];
  });
}
