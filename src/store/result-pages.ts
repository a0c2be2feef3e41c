/**
 * Session results in pages. The per-row parts of a result (the result rows, class scores, anomaly
 * scores, outliers, the rows of each forecast interval level) are cut into pages of
 * RESULT_PAGE_ROWS rows, each stored as its own JSON text, so a 1M-row session is written in many
 * short statements and an API page reads one or two stored pages, never the whole set. The rest
 * of the result (metrics, confusion matrix, contest, calibration…) is small and kept whole.
 */

/** Rows per stored page: the API's largest page (MAX_PAGE_SIZE) so any API page touches at most two. */
export const RESULT_PAGE_ROWS = 1000;

/** Per-row arrays inside `extra` that are paged; `intervals` is an object of row arrays by level. */
const PAGED_EXTRA = ['classScores', 'anomalyScores', 'outliers'] as const;
const INTERVALS = 'intervals';

/** Part names: 'data', 'classScores', 'anomalyScores', 'outliers', 'intervals:<level>'. */
export const INTERVAL_PART_PREFIX = `${INTERVALS}:`;
export const intervalPart = (level: string): string => INTERVAL_PART_PREFIX + level;

/** One paged part: its row count and its pages, each a JSON array text. */
export interface ResultPart {
  name: string;
  rows: number;
  pages: string[];
}

/** A session's results cut into pages (made where they are computed: a worker thread for big ones). */
export interface PagedResults<M extends Record<string, unknown> = Record<string, unknown>> {
  metrics: M;
  /** The small remainder of `extra`, as JSON text (key order kept). */
  extra: string;
  parts: ResultPart[];
}

function pagesOf(name: string, rows: readonly unknown[], pageRows: number): ResultPart {
  const pages: string[] = [];
  for (let i = 0; i < rows.length; i += pageRows) pages.push(JSON.stringify(rows.slice(i, i + pageRows)));
  return { name, rows: rows.length, pages };
}

/** Splits results into pages: `data` and the per-row arrays of `extra` are paged, the rest stays whole. */
export function pageResults<M extends Record<string, unknown>>(metrics: M, data: readonly unknown[], extra: Record<string, unknown>, pageRows = RESULT_PAGE_ROWS): PagedResults<M> {
  const parts = [pagesOf('data', data, pageRows)];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra)) {
    if ((PAGED_EXTRA as readonly string[]).includes(key) && Array.isArray(value)) {
      parts.push(pagesOf(key, value, pageRows));
    } else if (key === INTERVALS && isRowsByLevel(value)) {
      for (const [level, rows] of Object.entries(value)) parts.push(pagesOf(intervalPart(level), rows, pageRows));
    } else {
      rest[key] = value;
    }
  }
  return { metrics, extra: JSON.stringify(rest), parts };
}

function isRowsByLevel(v: unknown): v is Record<string, unknown[]> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(Array.isArray);
}

/** What the header row of a paged result says about its parts: rows per part, in stored order. */
export interface PartsManifest {
  pageRows: number;
  rows: Record<string, number>;
}

export function manifestOf(r: PagedResults, pageRows = RESULT_PAGE_ROWS): PartsManifest {
  return { pageRows, rows: Object.fromEntries(r.parts.map((p) => [p.name, p.rows])) };
}

/** The stored pages that hold rows [start, end) and where the range starts in the first of them. */
export function pageSpan(start: number, end: number, pageRows: number): { first: number; last: number; skip: number } {
  const first = Math.floor(start / pageRows);
  return { first, last: Math.max(first, Math.ceil(end / pageRows) - 1), skip: start - first * pageRows };
}
