/**
 * Views: a data set joined with other data sets (on the timestamp, or on the key) and with
 * calendars (on the timestamp's day), stored as a definition and joined when read. A view is a data
 * source like a data set: sessions name it in `dataSourceName` and read its joined rows.
 */
import { nameProblem } from '../../domain/resource-names.js';
import type { Db } from '../../store/db.js';
import { DatasetsStore, type DatasetRecord } from '../../store/datasets-store.js';
import type { StoredColumn } from '../../store/schema.js';
import type { Page, PageOf } from '../../store/paging.js';
import { ViewsStore, type CalendarEvents, type StoredJoin, type ViewDefinition, type ViewRecord } from '../../store/views-store.js';
import { normalizeColumnMap } from '../../domain/columns.js';
import { parseTimestamp } from '../../domain/dates.js';
import { isPlainObject } from '../../domain/lenient.js';
import { outboundRefusal } from '../../outbound/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { checkAliases } from './view-aliases.js';
import type { DatasetsService } from '../datasets/datasets-service.js';
import { assertTimeZone, fetchIcs, holidayCalendar, holidayEvents, type CalendarEvent } from './calendars.js';
import { joinRows, viewColumns, JOIN_INTERVALS, type JoinInterval, type ResolvedJoin, type SourceRows } from './view-join.js';

export interface ViewsOptions {
  allowHosts: Set<string>;
  timeoutMs: number;
}

export interface ViewDescription {
  view: ViewRecord;
  columns: Record<string, StoredColumn>;
  isTimeSeries: boolean;
}

export class ViewsService {
  constructor(private readonly db: Db, private readonly datasets: DatasetsService, private readonly opts: ViewsOptions) {}

  /** Creates or replaces a view from a request body; 400 when a join cannot be made, 404 for a missing data set. */
  async put(accountId: string, name: string, body: unknown): Promise<{ view: ViewDescription; created: boolean }> {
    validateName(name);
    if (!isPlainObject(body)) throw ValidationError.of('body', 'a view definition is a JSON object');
    const b = lowerKeys(body);
    const datasetName = b.datasetname ?? b.datasourcename;
    if (typeof datasetName !== 'string' || datasetName === '') throw ValidationError.of('dataSetName', 'dataSetName is required');
    const columns = normalizeColumnMap(b.columns);
    if (Object.keys(columns.errors).length) throw new ValidationError(columns.errors);
    if (await new DatasetsStore(this.db).find(accountId, name)) {
      throw ValidationError.of('viewName', `'${name}' is the name of a data set; data sets and views share one namespace (a session's dataSourceName names either).`);
    }
    const definition: ViewDefinition = { joins: await this.readJoins(b.joins, 'joins'), columns: columns.columns };
    // Resolving checks that every data set exists and every join can be made.
    const resolved = await this.resolve(accountId, { name, datasetName, definition, calendarEvents: null }, { fetchCalendars: false });
    checkAliases(resolved.left, resolved.joins);
    const { view, created } = await new ViewsStore(this.db).put(accountId, name, datasetName, definition);
    return { view: await this.describe(view), created };
  }

  async get(accountId: string, name: string): Promise<ViewRecord> {
    const v = await new ViewsStore(this.db).find(accountId, name);
    if (!v) throw new NotFoundError('view', name);
    return v;
  }

  find(accountId: string, name: string): Promise<ViewRecord | undefined> {
    return new ViewsStore(this.db).find(accountId, name);
  }

  list(accountId: string, q: { partialName?: string; dataSetName?: string; page: Page }): Promise<PageOf<ViewRecord>> {
    return new ViewsStore(this.db).list(accountId, q);
  }

  async delete(accountId: string, name: string): Promise<void> {
    if (!(await new ViewsStore(this.db).delete(accountId, name))) throw new NotFoundError('view', name);
  }

  /** Removes the views that read a data set (a data set delete with cascade=view); their names. */
  async deleteReading(accountId: string, datasetName: string): Promise<string[]> {
    const store = new ViewsStore(this.db);
    const views = await store.readingDataset(accountId, datasetName);
    for (const v of views) await store.delete(accountId, v.name);
    return views.map((v) => v.name);
  }

  /** The view's columns as its data sources say now (a data set may have changed since the view was made). */
  async describe(view: ViewRecord): Promise<ViewDescription> {
    try {
      const plan = await this.resolve(view.accountId, view, { fetchCalendars: false });
      return { view, columns: plan.columns, isTimeSeries: plan.left.identityKind === 'timestamp' };
    } catch (e) {
      // A view whose data set was deleted stays listable; reading its data says what is missing.
      if (e instanceof NotFoundError) return { view, columns: {}, isTimeSeries: false };
      throw e;
    }
  }

  /**
   * The view as a data source for sessions and reads: the left data set's record with the view's
   * name and columns; DatasetsService reads its rows through `rows`.
   */
  async source(accountId: string, name: string, o: { calendarAhead?: boolean } = {}): Promise<DatasetRecord | undefined> {
    const view = await this.find(accountId, name);
    if (!view) return undefined;
    const plan = await this.resolve(accountId, view, { fetchCalendars: true });
    // Sessions read a view's rows with the markers for a missing value of every data set in it.
    const missingValues = [...new Set([...plan.left.missingValues, ...joinedMissingValues(plan.joins)])];
    return { ...plan.left, name: view.name, columns: plan.columns, view, viewCalendarAhead: o.calendarAhead !== false, missingValues };
  }

  /** The joined rows of a view read as a data source, in the left data set's order, in chunks. */
  async *rows(source: DatasetRecord): AsyncGenerator<Record<string, string>[]> {
    const view = source.view!;
    const plan = await this.resolve(view.accountId, view, { fetchCalendars: true });
    const side = await this.loadSide(plan.left, plan.joins);
    // A calendar is known ahead: for time-series readers a view with one goes on for a year past its
    // data with rows that carry only the calendar's values, so a forecast finds the feature's future
    // (as for a data set whose future rows hold features only). Model sessions read without them.
    if (source.viewCalendarAhead && plan.joins.some((j) => j.kind === 'calendar') && plan.left.identityKind === 'timestamp') {
      const ts = plan.left.identityColumn!;
      for (const t of futureTimestamps(side.rows.map((r) => parseTimestamp(String(r[ts] ?? ''))), CALENDAR_HORIZON_DAYS)) side.rows.push({ [ts]: t });
      for (const j of plan.joins) if (j.kind === 'calendar' && j.holidays) j.events = holidayEvents(j.holidays, ...yearsOf(plan.left, side.rows));
    }
    const joined = joinRows(side, plan.columns);
    const CHUNK = 5_000;
    for (let i = 0; i < joined.length; i += CHUNK) yield joined.slice(i, i + CHUNK);
  }

  // ---- resolving a definition against the data sets as they are now ----

  private async resolve(accountId: string, view: Pick<ViewRecord, 'name' | 'datasetName' | 'definition' | 'calendarEvents'>, o: { fetchCalendars: boolean }): Promise<{ left: DatasetRecord; joins: ResolvedJoin[]; columns: Record<string, StoredColumn> }> {
    const left = await this.datasets.get(accountId, view.datasetName);
    const events: CalendarEvents = { ...(view.calendarEvents ?? {}) };
    let fetched = false;
    const resolveJoins = async (joins: StoredJoin[]): Promise<ResolvedJoin[]> => {
      const out: ResolvedJoin[] = [];
      for (const j of joins) {
        const interval = joinIntervalOf(j);
        const aliases = Object.fromEntries(Object.entries(j.columnOptions).filter(([, o]) => o.alias).map(([c, o]) => [c, o.alias!]));
        if (j.dataSet) {
          const dataset = await this.datasets.get(accountId, j.dataSet.name);
          out.push({ kind: 'dataSet', dataset, interval, aliases, joins: await resolveJoins(j.joins) });
        } else {
          const cal = j.calendar!;
          const calendarName = cal.name ?? cal.url!;
          let list: CalendarEvent[] | undefined;
          if (cal.name) list = undefined; // computed for the data's years when joined
          else if (events[cal.url!]) list = events[cal.url!];
          else if (o.fetchCalendars) {
            list = await fetchIcs(cal.url!, { allowHosts: this.opts.allowHosts, timeoutMs: this.opts.timeoutMs, timeZone: cal.timeZone }).catch((e: Error) => {
              throw ValidationError.of('calendar', `The calendar ${cal.url} could not be read: ${e.message}`);
            });
            events[cal.url!] = list;
            fetched = true;
          } else list = [];
          out.push({ kind: 'calendar', calendarName, holidays: cal.name, events: list, interval, aliases });
        }
      }
      return out;
    };
    const joins = await resolveJoins(view.definition.joins);
    if (fetched && 'accountId' in view) {
      await new ViewsStore(this.db).saveCalendarEvents(accountId, view.name, view.definition, events);
      view.calendarEvents = events; // later reads through this record do not fetch again
    }
    const columns = viewColumns(left, joins, view.definition.columns);
    return { left, joins, columns };
  }

  /** A data set's rows with its own nested joins applied, for the join above it. */
  private async loadSide(dataset: DatasetRecord, joins: ResolvedJoin[]): Promise<SourceRows> {
    const rows: Record<string, string>[] = [];
    for await (const batch of this.datasets.iterateRows(dataset)) for (const r of batch) rows.push(r);
    const sides = new Map<ResolvedJoin, SourceRows>();
    for (const j of joins) {
      if (j.kind === 'dataSet') sides.set(j, await this.loadSide(j.dataset, j.joins));
      else if (j.holidays) j.events = holidayEvents(j.holidays, ...yearsOf(dataset, rows));
    }
    return { dataset, rows, joins, sides };
  }

  private async readJoins(raw: unknown, where: string, depth = 0): Promise<StoredJoin[]> {
    if (raw === undefined || raw === null) return [];
    if (depth >= MAX_JOIN_DEPTH) throw ValidationError.of(where, `joins nest at most ${MAX_JOIN_DEPTH} levels deep`);
    if (!Array.isArray(raw)) throw ValidationError.of(where, 'joins is a list');
    const out: StoredJoin[] = [];
    for (const [i, item] of raw.entries()) {
      const at = `${where}[${i}]`;
      if (!isPlainObject(item)) throw ValidationError.of(at, 'a join is an object with dataSet or calendar');
      const j = lowerKeys(item);
      const dataSet = isPlainObject(j.dataset) ? lowerKeys(j.dataset) : undefined;
      const calendar = isPlainObject(j.calendar) ? lowerKeys(j.calendar) : undefined;
      if (!!dataSet === !!calendar) throw ValidationError.of(at, 'a join names exactly one of dataSet or calendar');
      const join: StoredJoin = { columnOptions: readColumnOptions(j.columnoptions, at), joins: await this.readJoins(j.joins, `${at}.joins`, depth + 1) };
      if (dataSet) {
        if (typeof dataSet.name !== 'string' || !dataSet.name) throw ValidationError.of(`${at}.dataSet.name`, 'the joined data set needs a name');
        join.dataSet = { name: dataSet.name };
      } else {
        const c = calendar!;
        const name = typeof c.name === 'string' && c.name ? c.name : undefined;
        const url = typeof c.url === 'string' && c.url ? c.url : undefined;
        if (!!name === !!url) throw ValidationError.of(`${at}.calendar`, 'a calendar has either a name (e.g. Nexosis.Holidays-US) or a url of an iCalendar file');
        if (name) holidayCalendar(name);
        if (url) {
          const refusal = await outboundRefusal(url, this.opts.allowHosts);
          if (refusal) throw ValidationError.of(`${at}.calendar.url`, refusal);
        }
        const timeZone = typeof c.timezone === 'string' && c.timezone ? c.timezone : undefined;
        if (timeZone) assertTimeZone(timeZone);
        join.calendar = { ...(name ? { name } : { url }), ...(timeZone ? { timeZone } : {}) };
      }
      out.push(join);
    }
    return out;
  }
}

const CALENDAR_HORIZON_DAYS = 366;
const MAX_JOIN_DEPTH = 8;

/**
 * Timestamps after the last one, at the data's usual step (the most common gap; whole months or
 * years when the gaps are such), up to `days` ahead; ISO strings.
 */
export function futureTimestamps(times: (number | null)[], days: number): string[] {
  const sorted = times.filter((t): t is number => t !== null).sort((a, b) => a - b);
  if (sorted.length < 2) return [];
  const counts = new Map<number, number>();
  for (let i = Math.max(1, sorted.length - 200); i < sorted.length; i++) {
    const d = sorted[i]! - sorted[i - 1]!;
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  if (counts.size === 0) return [];
  const step = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  const last = sorted[sorted.length - 1]!;
  const end = last + days * 86_400_000;
  const DAY = 86_400_000;
  const months = step >= 28 * DAY && step <= 31 * DAY ? 1 : step >= 89 * DAY && step <= 92 * DAY ? 3 : step >= 365 * DAY && step <= 366 * DAY ? 12 : 0;
  const out: string[] = [];
  for (let k = 1; k < 100_000; k++) {
    let t: number;
    if (months) { const d = new Date(last); t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k * months, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()); }
    else t = last + k * step;
    if (t > end) break;
    out.push(new Date(t).toISOString());
  }
  return out;
}

function yearsOf(dataset: DatasetRecord, rows: Record<string, string>[]): [number, number] {
  const ts = dataset.identityKind === 'timestamp' ? dataset.identityColumn : null;
  let lo = Infinity;
  let hi = -Infinity;
  if (ts) for (const r of rows) { const y = Number(String(r[ts] ?? '').slice(0, 4)); if (y > 0) { lo = Math.min(lo, y); hi = Math.max(hi, y); } }
  return Number.isFinite(lo) ? [lo - 1, hi + 1] : [0, -1];
}

function joinIntervalOf(j: StoredJoin): JoinInterval | undefined {
  for (const o of Object.values(j.columnOptions)) if (o.joinInterval) return o.joinInterval as JoinInterval;
  return undefined;
}

function readColumnOptions(raw: unknown, at: string): StoredJoin['columnOptions'] {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw ValidationError.of(`${at}.columnOptions`, 'columnOptions maps column names to {joinInterval, alias}');
  const out: StoredJoin['columnOptions'] = {};
  for (const [col, o] of Object.entries(raw)) {
    if (o === null || o === undefined) { out[col] = {}; continue; }
    if (!isPlainObject(o)) throw ValidationError.of(`${at}.columnOptions.${col}`, 'column options are an object');
    const l = lowerKeys(o);
    const opt: { joinInterval?: string; alias?: string } = {};
    if (l.joininterval !== undefined && l.joininterval !== null) {
      const v = String(l.joininterval).toLowerCase();
      if (!(JOIN_INTERVALS as readonly string[]).includes(v)) throw ValidationError.of(`${at}.columnOptions.${col}.joinInterval`, `joinInterval is one of ${JOIN_INTERVALS.join(', ')}`);
      opt.joinInterval = v;
    }
    if (typeof l.alias === 'string' && l.alias) opt.alias = l.alias;
    out[col] = opt;
  }
  return out;
}

function lowerKeys(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
}

function validateName(name: string): void {
  const problem = nameProblem(name, 'view');
  if (problem) throw ValidationError.of('viewName', problem);
}

function joinedMissingValues(joins: readonly ResolvedJoin[]): string[] {
  return joins.flatMap((j) => (j.kind === 'dataSet' ? [...j.dataset.missingValues, ...joinedMissingValues(j.joins)] : []));
}
