/**
 * Says when the first or last period of a summed series holds less data than the others: daily rows
 * from the 30th of April, or up to the 10th, summed by month give a first or last month a fraction of
 * a whole one, which reads as a collapse. The forecast's outlier smoothing often takes it for one, but
 * its test metrics score such a month as a whole one, and nothing told the sender why.
 *
 * The data's own spacing (hours, days, …) is inferred from the rows with a target value; an edge
 * period counts as partial when it covers fewer of those steps than the median period inside the
 * series does, so data that skips weekends is not flagged for it.
 */
import type { Message } from '../../store/schema.js';
import { lowerMedian } from '../../ml/core/statistics.js';
import { addPeriods, inferInterval, INTERVALS, periodStart, periodsBetween, type Interval } from '../../ml/timeseries/prepare.js';
import { indexOf, periodName, targetTimes, type SeriesGrid } from './series-grid.js';
import type { SeriesInput } from './series-rows.js';

export interface PartialEdge {
  edge: 'first' | 'last';
  /** The period, named by its start (series-grid periodName). */
  period: string;
  /** Steps of the data's spacing it holds, the steps it has room for, and what a period inside the series holds (the median). */
  covered: number;
  room: number;
  typical: number;
  /** The data's spacing. */
  step: Interval;
}

/**
 * The partial first and last target periods among grid indices from…to (summed targets only: a mean
 * or a median of part of a period is still a value of the period's size).
 */
export function partialEdges(s: SeriesInput, g: SeriesGrid, from: number, to: number): PartialEdge[] {
  if (s.target.aggregation !== 'sum' || to - from < 2) return [];
  const times = targetTimes(s);
  if (!times.some((t) => t !== times[0])) return []; // inferInterval needs two distinct times
  const step = inferInterval(times);
  if (!finer(step, g.interval)) return [];
  // Distinct steps of the data per grid period.
  const steps = new Set(times.map((t) => periodStart(t, step)));
  const covered = new Float64Array(g.periods.length);
  for (const t of steps) covered[indexOf(g, t)]++;
  const inner = Array.from(covered.subarray(from + 1, to)).filter((c) => c > 0);
  if (inner.length === 0) return [];
  const typical = lowerMedian(inner);
  const edges: PartialEdge[] = [];
  for (const [edge, index] of [['first', from], ['last', to]] as const) {
    // A period cannot hold more steps than it has (a February, a short month at the edge).
    const room = periodsBetween(g.periods[index]!, addPeriods(g.periods[index]!, g.interval, 1), step);
    if (covered[index]! < Math.min(typical, room)) edges.push({ edge, period: periodName(g, index), covered: covered[index]!, room, typical, step });
  }
  return edges;
}

function finer(a: Interval, b: Interval): boolean {
  return INTERVALS.indexOf(a) < INTERVALS.indexOf(b);
}

export function partialEdgesMessages(edges: PartialEdge[], target: string, interval: Interval, forecast: boolean): Message[] {
  if (edges.length === 0) return [];
  const parts = edges.map((e) => {
    const inside = e.typical < e.room ? ` (a ${interval} inside the series has ${e.typical})` : '';
    return `the ${e.edge} ${interval}, from ${e.period}, has values for ${e.covered} of its ${e.room} ${e.step}s${inside}`;
  });
  const one = edges.length === 1;
  const consequence = forecast
    ? `Summed, ${one ? 'it looks' : 'they look'} like a drop: the forecast's outlier smoothing may take ${one ? 'it' : 'them'} for one, but ${one ? 'it counts' : 'they count'} as whole ${interval}s in the test metrics when held out.`
    : edges.map((e) => (e.edge === 'first'
      ? `Summed, the first ${interval} looks like a drop to the model of the periods before the event.`
      : `The last ${interval} lies in the event window, where its shortfall counts as part of the effect.`)).join(' ');
  return [{
    severity: 'warning',
    message: `In the target '${target}', ${parts.join(', and ')}. ${consequence} Send whole ${interval}s, or start and end the data at ${interval} boundaries.`,
  }];
}
