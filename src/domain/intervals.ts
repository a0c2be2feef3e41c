/**
 * Forecast result intervals. Requests send them in any case (`Day`, `day`) or, from .NET, as
 * integers; the recorded responses echo them lower case (`"resultInterval":"day"`), default `day`.
 * `quarter` is Sibyl's own (the original service had none, and its .NET integers stop at 4, year):
 * quarterly series were otherwise analysed by month, two months in three filled, or summed by year.
 */
import { parseEnum, type Parsed } from './lenient.js';

export const RESULT_INTERVALS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type ResultInterval = (typeof RESULT_INTERVALS)[number];

const DOTNET_RESULT_INTERVALS: Record<number, ResultInterval> = { 0: 'hour', 1: 'day', 2: 'week', 3: 'month', 4: 'year' };

/** `undefined` when not sent; the caller applies the `day` default where it applies. */
export function parseResultInterval(v: unknown): Parsed<ResultInterval | undefined> {
  return parseEnum(v, RESULT_INTERVALS, DOTNET_RESULT_INTERVALS);
}
