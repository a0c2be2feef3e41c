/**
 * Control series for bench:impact-placebo --controls, built from real data by a fixed method:
 *
 * - related: other series of the same collection and frequency that cover the target's dates (M3 and
 *   tourism series with their calendar dates; the multi-series sets of fpp2/fma/expsmooth, e.g. the
 *   departure categories, petrol sales by product, daily electricity demand and temperature), the
 *   CONTROLS_PER_TARGET best correlated with the target over a pre-period that ends before every
 *   window of the target (the "middle" window's), as an analyst would pick them, not knowing when the
 *   event is;
 * - irrelevant: real series of another collection (M1) and era, aligned by position, chosen without
 *   looking at the target: they must not help, and must not raise the false-positive rate either.
 */
import { column, readCsv } from './benchdata.js';

export type ControlFrequency = 'monthly' | 'quarterly' | 'daily';

export interface ControlledSeries {
  name: string;
  frequency: ControlFrequency;
  values: Float64Array;
  /** Aligned with values, over the target's whole span. */
  related: Float64Array[];
  irrelevant: Float64Array[];
}

export const CONTROLS_PER_TARGET = 3;

interface Dated { name: string; dates: string[]; values: Float64Array }

function everyKth<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
}

function collectionSeries(name: 'm3' | 'm1' | 'tourism', frequency: 'monthly' | 'quarterly'): Dated[] {
  const byId = new Map<string, { dates: string[]; values: number[] }>();
  for (const part of ['train', 'test']) {
    const table = readCsv('forecast', name, `${name}_${frequency}_${part}.csv`);
    const ids = column(table, 'series_id');
    const dates = column(table, 'date');
    const values = column(table, 'value');
    ids.forEach((id, r) => {
      if (!byId.has(id)) byId.set(id, { dates: [], values: [] });
      const s = byId.get(id)!;
      s.dates.push(dates[r]);
      s.values.push(Number(values[r]));
    });
  }
  return [...byId.keys()]
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((id) => ({ name: `${name} ${id}`, dates: byId.get(id)!.dates, values: Float64Array.from(byId.get(id)!.values) }));
}

/** Pearson correlation of the first n points. */
function correlation(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) ** 2;
    bb += (b[i] - mb) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** Values of `source` on the target's dates, or null when it misses one. */
function aligned(target: Dated, source: Dated): Float64Array | null {
  const at = new Map(source.dates.map((d, i) => [d, source.values[i]]));
  const out = new Float64Array(target.dates.length);
  for (let i = 0; i < out.length; i++) {
    const v = at.get(target.dates[i]);
    if (v === undefined || !Number.isFinite(v)) return null;
    out[i] = v;
  }
  return out;
}

/** The end of the pre-period that precedes every window of the benchmark (the "middle" one's, longer length). */
export type SelectionEnd = (n: number, frequency: ControlFrequency) => number;

function related(target: Dated, pool: Dated[], selectionEnd: number): Float64Array[] {
  const scored: { x: Float64Array; r: number }[] = [];
  for (const s of pool) {
    if (s.name === target.name) continue;
    const x = aligned(target, s);
    if (x) scored.push({ x, r: correlation(target.values, x, selectionEnd) });
  }
  return scored.sort((a, b) => b.r - a.r).slice(0, CONTROLS_PER_TARGET).map((s) => s.x);
}

/** M1 series of the frequency, the last n points of a fixed sample of those at least n long. */
function irrelevant(m1: Dated[], n: number): Float64Array[] {
  const long = m1.filter((s) => s.values.length >= n && s.values.every(Number.isFinite));
  return everyKth(long, CONTROLS_PER_TARGET).map((s) => s.values.slice(s.values.length - n));
}

/** fpp2/fma/expsmooth series that share a data set (file name before the last `_`) and a calendar. */
function multiSeriesSets(): { frequency: ControlFrequency; members: Dated[] }[] {
  const index = readCsv('forecast', 'INDEX.csv');
  const col = (k: string) => column(index, k);
  const [paths, freqs, missing, calendar] = [col('path'), col('frequency'), col('n_missing'), col('calendar')];
  const sets = new Map<string, { frequency: ControlFrequency; members: Dated[] }>();
  paths.forEach((path, r) => {
    const frequency = freqs[r] as ControlFrequency;
    if (!['monthly', 'quarterly', 'daily'].includes(frequency) || missing[r] !== '0' || calendar[r] !== 'yes') return;
    const file = path.replace(/^.*forecast\//, '').replace(/\.csv$/, '');
    const cut = file.lastIndexOf('_');
    if (cut < 0 || path.includes('_panel')) return;
    const key = file.slice(0, cut);
    const table = readCsv(path.replace(/^shared\/benchdata\//, ''));
    const valueColumn = table.header.find((h) => h !== 'date') ?? 'value';
    if (!sets.has(key)) sets.set(key, { frequency, members: [] });
    sets.get(key)!.members.push({ name: file, dates: column(table, 'date'), values: Float64Array.from(column(table, valueColumn), Number) });
  });
  return [...sets.values()].filter((s) => s.members.length > 1);
}

/**
 * Targets with their related and irrelevant controls: `perCollection` sampled targets of M3 and
 * tourism per frequency, and every positive member of the multi-series sets.
 */
export function controlledSeries(perCollection: number, selectionEnd: SelectionEnd): ControlledSeries[] {
  const out: ControlledSeries[] = [];
  const m1 = { monthly: collectionSeries('m1', 'monthly'), quarterly: collectionSeries('m1', 'quarterly') };
  const add = (target: Dated, pool: Dated[], frequency: ControlFrequency, unrelated: Dated[]) => {
    if (!target.values.every((v) => v > 0)) return;
    const n = target.values.length;
    const rel = related(target, pool, selectionEnd(n, frequency));
    const irr = irrelevant(unrelated, n);
    if (rel.length === 0 || irr.length === 0) return;
    out.push({ name: target.name, frequency, values: target.values, related: rel, irrelevant: irr });
  };
  for (const name of ['m3', 'tourism'] as const) {
    for (const frequency of ['monthly', 'quarterly'] as const) {
      const all = collectionSeries(name, frequency);
      for (const target of everyKth(all, perCollection)) add(target, all, frequency, m1[frequency]);
    }
  }
  // Daily series have no M1 counterpart: the blog's page views (another year and subject) stand in.
  const table = readCsv('forecast', 'fpp2', 'hyndsight.csv');
  const pageViews: Dated = { name: 'hyndsight', dates: column(table, 'date'), values: Float64Array.from(column(table, 'value'), Number) };
  for (const set of multiSeriesSets()) {
    const unrelated = set.frequency === 'daily' ? [pageViews] : set.frequency === 'quarterly' ? m1.quarterly : m1.monthly;
    for (const target of set.members) add(target, set.members, set.frequency, unrelated);
  }
  return out;
}
