import { get, getAll } from '../../api';
import { parseTime } from '../../lib/time';
import type { DataSetPage, Session } from '../../types';

export type Point = [number, number];

export function timestampColumn(session: Session): string {
  return Object.keys(session.columns).find((c) => session.columns[c]!.role === 'timestamp') ?? 'timestamp';
}

/** (time, value) points of rows, skipping rows without a number. */
export function pointsOf(rows: Record<string, string>[], ts: string, column: string): Point[] {
  return rows.flatMap((r): Point[] => {
    const t = parseTime(r[ts]);
    const v = r[column] === '' || r[column] === undefined ? NaN : Number(r[column]);
    return Number.isFinite(t) && Number.isFinite(v) ? [[t, v]] : [];
  });
}

/** The last (up to) 2,000 observations of the target before `until` (all rows when undefined), oldest first. */
export async function recentHistory(session: Session, until?: string): Promise<Point[]> {
  const ts = timestampColumn(session);
  const target = session.targetColumn!;
  const path = `/v1/data/${encodeURIComponent(session.dataSourceName)}`;
  const query = { include: [ts, target], ...(until ? { endDate: until } : {}) };
  const head = await get<DataSetPage>(path, { ...query, pageSize: 1000 });
  let rows = head.data;
  if (head.totalPages > 1) {
    const last = await get<DataSetPage>(path, { ...query, pageSize: 1000, page: head.totalPages - 1 });
    const before = head.totalPages > 2 ? await get<DataSetPage>(path, { ...query, pageSize: 1000, page: head.totalPages - 2 }) : head;
    rows = [...before.data, ...last.data];
  }
  return pointsOf(rows, ts, target).sort((a, b) => a[0] - b[0]);
}

export async function resultRows(session: Session, predictionInterval?: string): Promise<Record<string, string>[]> {
  return (await getAll<Record<string, string>>(`/v1/sessions/${session.sessionId}/results`, predictionInterval ? { predictionInterval } : {})).rows;
}
