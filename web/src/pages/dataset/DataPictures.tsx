import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getAll } from '../../api';
import { Chart } from '../../components/Chart';
import { ErrorNote, SelectField } from '../../components/ui';
import { barsOption } from '../../charts/common';
import { overTimeOption, smallHistogramOption } from '../../charts/data-set';
import { categoryColumns, numericColumns, timestampColumn } from '../../lib/data-sets';
import { histogramFromBins } from '../../lib/histogram';
import { seriesOverTime } from '../../lib/series-over-time';
import { formatNumber } from '../../lib/words';
import type { Columns, DataSetStats } from '../../types';
import { useColumnStats } from './ColumnStatsTable';

/** Rows fetched for the line chart: enough for a clear picture, few enough to fetch and draw at once. */
export const ROWS_DRAWN = 5000;
/** Histograms shown before "Show all": a wide data set's sixty would bury the rest of the page. */
const HISTOGRAMS_FIRST = 12;

interface Props { name: string; columns: Columns; totalCount: number; missingValues: string[] }

/** A picture of the data: a timed data set over time, any other as the spread of its columns. */
export function DataPictures(props: Props) {
  const time = timestampColumn(props.columns);
  const numbers = numericColumns(props.columns);
  if (time && numbers.length > 0) return <OverTime {...props} time={time} numbers={numbers} />;
  return <Distributions {...props} />;
}

function OverTime({ name, totalCount, missingValues, time, numbers }: Props & { time: string; numbers: string[] }) {
  const [column, setColumn] = useState(numbers[0]!);
  const shown = numbers.includes(column) ? column : numbers[0]!;
  const rows = useQuery({
    queryKey: ['data', 'one', name, 'rows-drawn'],
    queryFn: () => getAll<Record<string, string>>(`/v1/data/${encodeURIComponent(name)}`, {}, ROWS_DRAWN),
  });
  // Keyed by the markers' text: the page passes a new array on every render, and a new option redraws the chart (and resets its zoom).
  const series = useMemo(() => rows.data && seriesOverTime(rows.data.rows.slice(0, ROWS_DRAWN), time, shown, missingValues), [rows.data, time, shown, missingValues.join('\u0000')]);
  const option = useMemo(() => series && overTimeOption(series.points, shown), [series, shown]);
  const fetched = Math.min(rows.data?.rows.length ?? 0, ROWS_DRAWN);
  const pts = series?.points ?? [];
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const summary = pts.length === 0 ? `No readable values of ${shown} over ${time}`
    : `${shown} over ${time}: ${pts.length} points from ${day(pts[0]![0])} to ${day(pts[pts.length - 1]![0])}, values ${formatNumber(Math.min(...pts.map((p) => p[1])))} to ${formatNumber(Math.max(...pts.map((p) => p[1])))}`;
  return (
    <section className="card" aria-labelledby="pictures-title">
      <h2 id="pictures-title">Over time</h2>
      {numbers.length > 1 && (
        <div className="inline-form">
          <SelectField label="Column drawn" value={shown} onChange={(e) => setColumn(e.target.value)} options={numbers} />
        </div>
      )}
      <ErrorNote error={rows.error} />
      {rows.isPending && <p className="loading">Fetching the rows…</p>}
      {option && <Chart option={option} summary={summary} height={300} testId="chart-over-time" />}
      {rows.data && (
        <p className="hint" data-testid="rows-drawn">
          {totalCount > fetched ? `Drawn from the first ${fetched.toLocaleString()} of ${totalCount.toLocaleString()} rows.` : `Drawn from all ${fetched.toLocaleString()} rows.`}
          {series && series.merged > 0 ? ` Rows sharing a time are drawn as their mean (${series.merged.toLocaleString()} times).` : ''}
          {series && series.skipped > 0 ? ` ${series.skipped.toLocaleString()} rows without a time or a number are left out.` : ''}
        </p>
      )}
    </section>
  );
}

function Distributions({ name, columns }: Props) {
  const stats = useColumnStats(name);
  const [all, setAll] = useState(false);
  const numbers = numericColumns(columns);
  const categories = categoryColumns(columns);
  if (numbers.length === 0 && categories.length === 0) return null;
  const shown = all ? numbers : numbers.slice(0, HISTOGRAMS_FIRST);
  return (
    <section className="card" aria-labelledby="pictures-title">
      <h2 id="pictures-title">How the values spread</h2>
      <ErrorNote error={stats.error} />
      {stats.isPending && <p className="loading">Counting the values…</p>}
      {stats.data && numbers.length > 0 && (
        <>
          <p className="hint">Each numeric column over all rows, in ten equal ranges.</p>
          <div className="small-multiples">
            {shown.map((c) => <ColumnHistogram key={c} column={c} stats={stats.data} />)}
          </div>
          {numbers.length > shown.length && (
            <button type="button" className="button subtle small" onClick={() => setAll(true)}>Show all {numbers.length} numeric columns</button>
          )}
        </>
      )}
      {stats.data && categories.length > 0 && <TopValues columns={categories} stats={stats.data} />}
    </section>
  );
}

function ColumnHistogram({ column, stats }: { column: string; stats: DataSetStats }) {
  const h = useMemo(() => histogramFromBins(stats.columns[column]?.distribution ?? []), [stats, column]);
  const option = useMemo(() => h && smallHistogramOption(h, column), [h, column]);
  if (!h || !option) return null;
  const ranges = h.counts.map((n, i): [string, number] => [`${formatNumber(h.edges[i]!)} – ${formatNumber(h.edges[i + 1]!)}`, n]);
  const fullest = ranges.reduce((a, b) => (b[1] > a[1] ? b : a));
  return (
    <div className="small-chart">
      <h3>{column}</h3>
      <Chart option={option} height={150} testId={`chart-histogram-${column}`}
        summary={`Histogram of ${column}: ${formatNumber(h.edges[0]!)} to ${formatNumber(h.edges[h.edges.length - 1]!)}, most rows (${fullest[1]}) in ${fullest[0]}`}
        table={{ columns: ['Range', 'Rows'], rows: ranges }} />
    </div>
  );
}

function TopValues({ columns, stats }: { columns: string[]; stats: DataSetStats }) {
  const [column, setColumn] = useState(columns[0]!);
  const shown = columns.includes(column) ? column : columns[0]!;
  const s = stats.columns[shown];
  const { items, option } = useMemo(() => {
    const items = (s?.distribution ?? []).flatMap((d) => ('value' in d ? [{ name: d.value, value: d.count }] : []));
    return { items, option: barsOption(items, 'Rows') };
  }, [s]);
  const more = s ? s.distinctCount - items.length : 0;
  return (
    <>
      <h3>Most frequent values</h3>
      {columns.length > 1 && (
        <div className="inline-form">
          <SelectField label="Column counted" value={shown} onChange={(e) => setColumn(e.target.value)} options={columns} />
        </div>
      )}
      {items.length > 0 && (
        <Chart option={option} height={Math.max(140, 28 * items.length + 60)} testId="chart-top-values"
          summary={`The ${items.length} most frequent values of ${shown}: ${items.slice(0, 5).map((i) => `${i.name} (${i.value})`).join(', ')}${items.length > 5 ? ', …' : ''}`}
          table={{ columns: ['Value', 'Rows'], rows: items.map((i) => [i.name, i.value]) }} />
      )}
      {more > 0 && <p className="hint">{more.toLocaleString()} other values are rarer.</p>}
    </>
  );
}
