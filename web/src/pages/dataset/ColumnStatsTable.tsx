import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api';
import { ErrorNote } from '../../components/ui';
import { summarizeColumn, type ColumnSummary } from '../../lib/column-summary';
import { formatPercent } from '../../lib/words';
import { nameParts } from '../../lib/name-breaks';
import { ColumnPager, ColumnSearch, useColumnPages } from '../../components/ColumnPages';
import type { Columns, DataSetStats } from '../../types';

/**
 * The statistics of every column. Keyed under the data set's own query, so saving its columns or
 * missing values (which change what the statistics count) fetches them again.
 */
export function useColumnStats(name: string) {
  return useQuery({
    queryKey: ['data', 'one', name, 'stats'],
    queryFn: () => get<DataSetStats>(`/v1/data/${encodeURIComponent(name)}/stats`),
  });
}

/** One row per column, a page at a time: what Sibyl inferred and what the values look like, to check before a session. */
export function ColumnStatsTable({ name, columns }: { name: string; columns: Columns }) {
  const stats = useColumnStats(name);
  const pages = useColumnPages(Object.keys(columns));
  const rows = stats.data ? pages.shown.flatMap((c) => {
    const s = stats.data.columns[c];
    return s ? [{ column: c, summary: summarizeColumn(columns[c]!.dataType, s) }] : [];
  }) : [];
  // Over every column, so the table keeps its columns from page to page.
  const anyUnreadable = stats.data ? Object.keys(columns).some((c) => {
    const s = stats.data.columns[c];
    return s !== undefined && summarizeColumn(columns[c]!.dataType, s).unreadable > 0;
  }) : false;
  return (
    <section className="card" aria-labelledby="stats-title">
      <h2 id="stats-title">Column statistics</h2>
      <p className="hint">Over all rows. Numbers show their spread (sd: standard deviation), dates their range, other columns their most frequent values. Missing cells count empty cells, NA, null and the data set's own missing values.</p>
      <ErrorNote error={stats.error} />
      {stats.isPending && <p className="loading">Counting the values…</p>}
      {stats.data && <ColumnSearch pages={pages} label="Statistics of the columns named" />}
      {rows.length > 0 && (
        <div className="table-scroll stats-scroll" tabIndex={0} role="region" aria-label="Statistics of each column">
          <table className="stats-table" data-testid="column-stats">
            <caption className="visually-hidden">Statistics of each column</caption>
            <thead>
              <tr>
                <th scope="col">Column</th><th scope="col">Type</th><th scope="col">Role</th>
                <th scope="col" className="num">Values</th><th scope="col" className="num">Missing</th>
                {anyUnreadable && <th scope="col" className="num" title="Cells that are neither missing nor a value of the column's type">Unreadable</th>}
                <th scope="col" className="num">Distinct</th>
                <th scope="col" className="num">Min</th><th scope="col" className="num">Median</th><th scope="col" className="num">Mean</th>
                <th scope="col" className="num">Max</th><th scope="col" className="num">sd</th><th scope="col">Most frequent</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ column, summary: s }) => (
                <tr key={column} data-column={column}>
                  <th scope="row"><span className="column-name">{nameParts(column).map((p, i) => <Fragment key={i}>{i > 0 && <wbr />}{p}</Fragment>)}</span></th>
                  <td>{columns[column]!.dataType}</td>
                  <td>{columns[column]!.role ?? '—'}</td>
                  <td className="num">{s.present.toLocaleString()}</td>
                  <td className="num">{s.missing === 0 ? '0' : `${s.missing.toLocaleString()} (${formatPercent(s.missingShare, 2)})`}</td>
                  {anyUnreadable && <td className={`num${s.unreadable > 0 ? ' highlight' : ''}`}>{s.unreadable.toLocaleString()}</td>}
                  <td className="num">{s.distinct.toLocaleString()}</td>
                  <td className="num">{s.min ?? ''}</td>
                  <td className="num">{s.median ?? ''}</td>
                  <td className="num">{s.mean ?? ''}</td>
                  <td className="num">{s.max ?? ''}</td>
                  <td className="num">{s.sd ?? ''}</td>
                  <td className="top-values">{topValues(s)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {stats.data && <ColumnPager pages={pages} label="Statistics pages" />}
    </section>
  );
}

function topValues(s: ColumnSummary): string {
  if (!s.top) return '';
  const shown = s.top.map((t) => `${t.value} (${t.count.toLocaleString()})`).join(', ');
  return s.otherValues ? `${shown}, ${s.otherValues.toLocaleString()} more` : shown;
}
