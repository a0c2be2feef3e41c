/**
 * A series' usual value at a given time: a slowly moving level plus the median value of its place in
 * the cycle (time of day, day of week, month), learned robustly so that the anomalies it is fitted on
 * do not move it. A value's deviation from it, in robust standard deviations of the training
 * remainders, says how unusual the value is for its time, which the value alone cannot: 20,000 taxi
 * rides are ordinary at 6 pm and anomalous at 4 am (bench:anomaly-series).
 *
 * The level is a median over two cycles, one knot per cycle, interpolated between knots; it is stored
 * with the cycle's profile so that new rows are judged as the training rows were (a row after the
 * training data against the last level). The reference detector (PROTOCOL.md §2, STL's robust
 * remainder) takes the same cycles: points per day for data recorded more often than daily, 7 for
 * daily, 12 for monthly; quarterly data here also gets its 4.
 */
import { median } from '../core/statistics.js';

const DAY = 86_400_000;
/** Steps a knot's window reaches either side when the data have no cycle (PROTOCOL.md §2's rolling median of 25). */
const ACYCLIC_HALF_WINDOW = 12;
/** Most knots kept; longer series get a wider spacing (a smoother level). */
const MAX_KNOTS = 4096;
/** Fewer timed values than this: no baseline. */
const MIN_VALUES = 10;

/** Where a time falls in its cycle: time of day (`slots` per day), day of the week, month, quarter, or no cycle. */
export type Cycle = { kind: 'day'; slots: number } | { kind: 'week' } | { kind: 'month' } | { kind: 'quarter' } | { kind: 'none' };

export interface SeasonalBaseline {
  cycle: Cycle;
  /** Knot k sits at origin + k · spacing (ms); its level is the median of the values within one spacing of it. */
  origin: number;
  spacing: number;
  knots: number[];
  /** Median of value − level per slot of the cycle (one entry without a cycle). */
  profile: number[];
  /** Median and robust scale (1.4826 · MAD) of the training remainders. */
  center: number;
  scale: number;
}

function slotCount(cycle: Cycle): number {
  switch (cycle.kind) {
    case 'day': return cycle.slots;
    case 'week': return 7;
    case 'month': return 12;
    case 'quarter': return 4;
    case 'none': return 1;
  }
}

function slotOf(cycle: Cycle, t: number): number {
  switch (cycle.kind) {
    case 'day': return Math.min(cycle.slots - 1, Math.floor((((t % DAY) + DAY) % DAY) / (DAY / cycle.slots)));
    case 'week': return new Date(t).getUTCDay();
    case 'month': return new Date(t).getUTCMonth();
    case 'quarter': return Math.floor(new Date(t).getUTCMonth() / 3);
    case 'none': return 0;
  }
}

/** The cycle of data recorded every `step` ms, when `n` values hold at least two of it. */
function cycleOf(step: number, n: number): Cycle {
  const days = step / DAY;
  let cycle: Cycle = { kind: 'none' };
  if (days < 0.9) {
    const slots = Math.round(DAY / step);
    if (slots >= 2) cycle = { kind: 'day', slots };
  } else if (days <= 1.1) cycle = { kind: 'week' };
  else if (days >= 27 && days <= 32) cycle = { kind: 'month' };
  else if (days >= 85 && days <= 95) cycle = { kind: 'quarter' };
  return n >= 2 * slotCount(cycle) ? cycle : { kind: 'none' };
}

/**
 * Learns the baseline from the timed values (ms, in any order; NaN times or values are skipped).
 * Undefined when fewer than MIN_VALUES remain or they share one time.
 */
export function fitSeasonalBaseline(times: ArrayLike<number>, values: ArrayLike<number>): SeasonalBaseline | undefined {
  const order: number[] = [];
  for (let i = 0; i < times.length; i++) if (Number.isFinite(times[i]) && Number.isFinite(values[i])) order.push(i);
  if (order.length < MIN_VALUES) return undefined;
  order.sort((a, b) => times[a]! - times[b]! || a - b);
  const t = Float64Array.from(order, (i) => times[i]!);
  const y = Float64Array.from(order, (i) => values[i]!);
  const n = t.length;
  const gaps: number[] = [];
  for (let i = 1; i < n; i++) if (t[i]! > t[i - 1]!) gaps.push(t[i]! - t[i - 1]!);
  if (gaps.length === 0) return undefined;
  const step = median(gaps);
  const cycle = cycleOf(step, n);
  const slots = slotCount(cycle);
  const span = t[n - 1]! - t[0]!;
  const spacing = Math.max((slots >= 2 ? slots : ACYCLIC_HALF_WINDOW) * step, span / (MAX_KNOTS - 1));
  const knots = levelKnots(t, y, t[0]!, spacing);
  const baseline: SeasonalBaseline = { cycle, origin: t[0]!, spacing, knots, profile: new Array<number>(slots).fill(0), center: 0, scale: 1 };
  const bySlot: number[][] = Array.from({ length: slots }, () => []);
  for (let i = 0; i < n; i++) bySlot[slotOf(cycle, t[i]!)]!.push(y[i]! - levelAt(baseline, t[i]!));
  baseline.profile = bySlot.map((d) => (d.length ? median(d) : 0));
  const r = Float64Array.from({ length: n }, (_, i) => y[i]! - levelAt(baseline, t[i]!) - baseline.profile[slotOf(cycle, t[i]!)]!);
  baseline.center = median(r);
  baseline.scale = robustScale(r, baseline.center);
  return baseline;
}

/** Level knots from origin over the sorted times; a knot whose window holds no value takes its neighbours' line. */
function levelKnots(t: Float64Array, y: Float64Array, origin: number, spacing: number): number[] {
  const n = t.length;
  const count = Math.floor((t[n - 1]! - origin) / spacing + 1e-9) + 2;
  const knots = new Array<number>(count).fill(NaN);
  let lo = 0, hi = 0;
  for (let k = 0; k < count; k++) {
    const at = origin + k * spacing;
    while (lo < n && t[lo]! < at - spacing) lo++;
    while (hi < n && t[hi]! <= at + spacing) hi++;
    if (hi > lo) knots[k] = median(y.subarray(lo, hi));
  }
  return fillGaps(knots);
}

function fillGaps(knots: number[]): number[] {
  const known = knots.flatMap((v, k) => (Number.isNaN(v) ? [] : [k]));
  return knots.map((v, k) => {
    if (!Number.isNaN(v)) return v;
    let j = 0;
    while (j < known.length && known[j]! < k) j++;
    if (j === 0) return knots[known[0]!]!;
    if (j === known.length) return knots[known[j - 1]!]!;
    const a = known[j - 1]!, b = known[j]!;
    return knots[a]! + ((knots[b]! - knots[a]!) * (k - a)) / (b - a);
  });
}

/** 1.4826 · MAD, or when more than half the remainders equal the center, 1.2533 · their mean absolute deviation; 1 when all are equal. */
function robustScale(r: Float64Array, center: number): number {
  const abs = r.map((v) => Math.abs(v - center));
  const mad = 1.4826 * median(abs);
  if (mad > 0) return mad;
  const meanAbs = abs.reduce((a, b) => a + b, 0) / abs.length;
  return meanAbs > 0 ? 1.2533 * meanAbs : 1;
}

/** The level at time t: the knots' line, flat beyond the first and last. */
function levelAt(b: SeasonalBaseline, t: number): number {
  const p = (t - b.origin) / b.spacing;
  const last = b.knots.length - 1;
  if (!(p > 0)) return b.knots[0]!;
  if (p >= last) return b.knots[last]!;
  const k = Math.floor(p);
  return b.knots[k]! + (b.knots[k + 1]! - b.knots[k]!) * (p - k);
}

/** How far `value` at time `t` lies from the series' usual value then, in robust standard deviations; NaN when either is missing. */
export function seasonalDeviation(b: SeasonalBaseline, t: number, value: number): number {
  if (!Number.isFinite(t) || !Number.isFinite(value)) return NaN;
  return (value - levelAt(b, t) - b.profile[slotOf(b.cycle, t)]! - b.center) / b.scale;
}
