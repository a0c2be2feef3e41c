/**
 * How a view's rows and columns come out of its sources (no I/O): every row of the left data set,
 * in its order, with the matching row of each joined data set (same timestamp, or the same period
 * when a joinInterval is set; the same key for keyed data sets) and the events of each calendar
 * on the row's day (or period). A joined column whose name is already taken is left out unless
 * it is given an alias; a joined data set's target becomes a feature (a view has one target).
 */
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { StoredColumn } from '../../store/schema.js';
import { parseTimestamp } from '../../domain/dates.js';
import { ValidationError } from '../errors.js';
import type { CalendarEvent } from './calendars.js';

export const JOIN_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type JoinInterval = (typeof JOIN_INTERVALS)[number];

interface JoinBase { interval?: JoinInterval; aliases: Record<string, string> }
export type ResolvedJoin =
  | (JoinBase & { kind: 'dataSet'; dataset: DatasetRecord; joins: ResolvedJoin[] })
  | (JoinBase & { kind: 'calendar'; calendarName: string; holidays?: string; events?: CalendarEvent[] });

/** A source's rows with its joins' rows (loaded by the service). */
export interface SourceRows {
  dataset: DatasetRecord;
  rows: Record<string, string>[];
  joins: ResolvedJoin[];
  sides: Map<ResolvedJoin, SourceRows>;
}

/** The columns a calendar join adds: the event's day, its name, the calendar, and a 0/1 feature "on an event". */
export function calendarColumns(calendarName: string): Record<string, StoredColumn> {
  return {
    eventTimestamp: { dataType: 'date', role: 'none' },
    eventName: { dataType: 'string', role: 'none' },
    calendarName: { dataType: 'string', role: 'none' },
    [`calendar:${calendarName}`]: { dataType: 'logical', role: 'feature', imputation: 'zeroes', aggregation: 'max' },
  };
}

export function viewColumns(left: DatasetRecord, joins: ResolvedJoin[], overrides: Record<string, Partial<StoredColumn>> = {}): Record<string, StoredColumn> {
  const cols: Record<string, StoredColumn> = { ...left.columns };
  for (const j of joins) {
    const add = (name: string, c: StoredColumn) => {
      const out = j.aliases[name] ?? name;
      if (!(out in cols)) cols[out] = { ...c, role: c.role === 'target' ? 'feature' : c.role };
    };
    if (j.kind === 'dataSet') {
      joinKey(left, j.dataset);
      const right = viewColumns(j.dataset, j.joins);
      for (const [name, c] of Object.entries(right)) if (name !== j.dataset.identityColumn) add(name, c);
    } else {
      if (left.identityKind !== 'timestamp') {
        throw ValidationError.of('joins', `A calendar joins on a timestamp, and the data set '${left.name}' has no timestamp column.`);
      }
      for (const [name, c] of Object.entries(calendarColumns(j.calendarName))) add(name, c);
    }
  }
  for (const [name, patch] of Object.entries(overrides)) {
    if (cols[name]) cols[name] = { ...cols[name]!, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as StoredColumn;
  }
  return cols;
}

/** Which column two data sets join on; a 400 when they have none in common. */
function joinKey(left: DatasetRecord, right: DatasetRecord): { kind: 'timestamp' | 'key'; left: string; right: string } {
  if (left.identityKind === 'timestamp' && right.identityKind === 'timestamp') return { kind: 'timestamp', left: left.identityColumn!, right: right.identityColumn! };
  if (right.identityKind === 'key' && right.identityColumn && right.identityColumn in left.columns) {
    return { kind: 'key', left: right.identityColumn, right: right.identityColumn };
  }
  throw ValidationError.of('joins', `The data sets '${left.name}' and '${right.name}' cannot be joined: join two time series (on their timestamps) or a data set with a keyed one whose key column it also has.`);
}

export function truncate(ms: number, interval: JoinInterval | undefined): number {
  if (interval === undefined) return ms;
  const DAY = 86_400_000;
  switch (interval) {
    case 'hour': return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'day': return Math.floor(ms / DAY) * DAY;
    case 'week': { const d = Math.floor(ms / DAY); return (d - (((d + 3) % 7) + 7) % 7) * DAY; } // ISO weeks start on Monday
    case 'month': { const t = new Date(ms); return Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1); }
    case 'year': return Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
  }
}

/** The joined rows of a source, each with exactly `columns` (missing values as ''). */
export function joinRows(side: SourceRows, columns: Record<string, StoredColumn>): Record<string, string>[] {
  const names = Object.keys(columns);
  const lookups = side.joins.map((j) => lookupFor(side, j));
  return side.rows.map((row) => {
    const merged: Record<string, string> = { ...row };
    for (const look of lookups) {
      const extra = look(row);
      if (extra) for (const [k, v] of Object.entries(extra)) if (!(k in merged)) merged[k] = v;
    }
    const out: Record<string, string> = {};
    for (const n of names) out[n] = merged[n] ?? '';
    return out;
  });
}

type Lookup = (row: Record<string, string>) => Record<string, string> | undefined;

function lookupFor(side: SourceRows, j: ResolvedJoin): Lookup {
  const left = side.dataset;
  const renamed = (r: Record<string, string>, skip: string | null) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) if (k !== skip) out[j.aliases[k] ?? k] = v;
    return out;
  };
  if (j.kind === 'calendar') {
    const interval = j.interval ?? 'day';
    const byPeriod = new Map<number, string[]>();
    for (const e of j.events ?? []) {
      const ms = Date.parse(`${e.day}T00:00:00Z`);
      if (!Number.isFinite(ms)) continue;
      const k = truncate(ms, interval);
      const list = byPeriod.get(k) ?? [];
      list.push(e.name);
      byPeriod.set(k, list);
    }
    const ts = left.identityColumn!;
    return (row) => {
      const ms = parseTimestamp(String(row[ts] ?? ''));
      const names = ms === null ? undefined : byPeriod.get(truncate(ms, interval));
      const base = { eventTimestamp: '', eventName: '', calendarName: '', [`calendar:${j.calendarName}`]: names ? '1' : '0' };
      if (names && ms !== null) Object.assign(base, { eventTimestamp: new Date(truncate(ms, 'day')).toISOString(), eventName: names.join('; '), calendarName: j.calendarName });
      return renamed(base, null);
    };
  }
  const key = joinKey(left, j.dataset);
  const sub = side.sides.get(j)!;
  const rightRows = joinRows(sub, viewColumns(j.dataset, j.joins));
  const index = new Map<string, Record<string, string>>();
  const keyOf = (v: string | undefined): string | undefined => {
    if (v === undefined || v === '') return undefined;
    if (key.kind === 'key') return v;
    const ms = parseTimestamp(v);
    return ms === null ? undefined : String(truncate(ms, j.interval));
  };
  for (const r of rightRows) { const k = keyOf(r[key.right]); if (k !== undefined) index.set(k, r); }
  return (row) => {
    const k = keyOf(row[key.left]);
    const r = k === undefined ? undefined : index.get(k);
    return r && renamed(r, key.right);
  };
}
