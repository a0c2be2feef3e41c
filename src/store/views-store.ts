import type { Db } from './db.js';
import type { Page, PageOf } from './paging.js';
import type { StoredColumn } from './schema.js';

/** One side of a view's join: another data set or a calendar, each with nested joins of its own. */
export interface StoredJoin {
  dataSet?: { name: string };
  calendar?: { name?: string; url?: string; timeZone?: string };
  columnOptions: Record<string, { joinInterval?: string; alias?: string }>;
  joins: StoredJoin[];
}

export interface ViewDefinition {
  joins: StoredJoin[];
  /** Column metadata the client set on the view (overrides what the joined sources say). */
  columns: Record<string, Partial<StoredColumn>>;
}

/** A calendar's events, by calendar (its name or URL): the day (YYYY-MM-DD) and the event's name. */
export type CalendarEvents = Record<string, { day: string; name: string }[]>;

export interface ViewRecord {
  accountId: string;
  name: string;
  datasetName: string;
  definition: ViewDefinition;
  calendarEvents: CalendarEvents | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ViewRow {
  account_id: string; name: string; dataset_name: string; definition: ViewDefinition | string;
  calendar_events: CalendarEvents | string | null; created_at: Date | string; updated_at: Date | string;
}

export class ViewsStore {
  constructor(private readonly db: Db) {}

  /** Creates or replaces a view; `created` says which. A replaced view forgets the URL calendars it fetched. */
  async put(accountId: string, name: string, datasetName: string, definition: ViewDefinition): Promise<{ view: ViewRecord; created: boolean }> {
    const [r] = await this.db.query<ViewRow & { created: boolean }>(
      `INSERT INTO views (account_id, name, dataset_name, definition) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (account_id, name) DO UPDATE SET dataset_name = EXCLUDED.dataset_name, definition = EXCLUDED.definition,
         calendar_events = NULL, updated_at = now()
       RETURNING *, (xmax = 0) AS created`, [accountId, name, datasetName, JSON.stringify(definition)]);
    return { view: toRecord(r!), created: Boolean(r!.created) };
  }

  async find(accountId: string, name: string): Promise<ViewRecord | undefined> {
    const [r] = await this.db.query<ViewRow>('SELECT * FROM views WHERE account_id = $1 AND name = $2', [accountId, name]);
    return r && toRecord(r);
  }

  /**
   * Views whose name contains `partialName` (any case) and that read the data set `dataSetName`
   * (on the left or in any join), by name.
   */
  async list(accountId: string, q: { partialName?: string; dataSetName?: string; page: Page }): Promise<PageOf<ViewRecord>> {
    const conds = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (q.partialName) { params.push(q.partialName); conds.push(`position(lower($${params.length}) in lower(name)) > 0`); }
    if (q.dataSetName) {
      params.push(q.dataSetName);
      conds.push(`(dataset_name = $${params.length} OR position($${params.length + 1} in definition::text) > 0)`);
      params.push(`"name": ${JSON.stringify(q.dataSetName)}`); // jsonb's text form
    }
    const where = conds.join(' AND ');
    const [n] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM views WHERE ${where}`, params);
    const rows = await this.db.query<ViewRow>(`SELECT * FROM views WHERE ${where} ORDER BY name LIMIT ${q.page.size} OFFSET ${q.page.page * q.page.size}`, params);
    let items = rows.map(toRecord);
    // The text match above is a cheap pre-filter; keep only views that really join that data set.
    if (q.dataSetName) items = items.filter((v) => v.datasetName === q.dataSetName || readsDataset(v.definition.joins, q.dataSetName!));
    return { items, totalCount: Number(n!.n) };
  }

  /** Views that read a data set (on the left or in a join). */
  async readingDataset(accountId: string, datasetName: string): Promise<ViewRecord[]> {
    const rows = await this.db.query<ViewRow>('SELECT * FROM views WHERE account_id = $1', [accountId]);
    return rows.map(toRecord).filter((v) => v.datasetName === datasetName || readsDataset(v.definition.joins, datasetName));
  }

  async delete(accountId: string, name: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM views WHERE account_id = $1 AND name = $2 RETURNING name', [accountId, name]);
    return rows.length > 0;
  }

  /** Keeps the events of the URL calendars of a view once fetched (unless the view was replaced meanwhile). */
  async saveCalendarEvents(accountId: string, name: string, definition: ViewDefinition, events: CalendarEvents): Promise<void> {
    await this.db.query('UPDATE views SET calendar_events = $4::jsonb WHERE account_id = $1 AND name = $2 AND definition = $3::jsonb',
      [accountId, name, JSON.stringify(definition), JSON.stringify(events)]);
  }
}

function readsDataset(joins: StoredJoin[], name: string): boolean {
  return joins.some((j) => j.dataSet?.name === name || readsDataset(j.joins, name));
}

function parsed<T>(v: T | string): T {
  return typeof v === 'string' ? (JSON.parse(v) as T) : v;
}

function toRecord(r: ViewRow): ViewRecord {
  return {
    accountId: r.account_id,
    name: r.name,
    datasetName: r.dataset_name,
    definition: parsed(r.definition),
    calendarEvents: r.calendar_events === null ? null : parsed(r.calendar_events),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}
