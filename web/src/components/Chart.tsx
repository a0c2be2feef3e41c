import { useEffect, useRef, type ReactNode } from 'react';
import { BASE_TEXT, echarts, type ChartOption } from '../charts/echarts';

interface ChartProps {
  option: ChartOption;
  /** What the chart shows, read by screen readers in place of the picture. */
  summary: string;
  height?: number;
  /** The numbers behind the chart, offered as a table under it. */
  table?: { columns: string[]; rows: (string | number)[][] };
  testId?: string;
  children?: ReactNode;
}

/** One ECharts chart that follows its container's width; the picture is labelled, its data can be read as a table. */
export function Chart({ option, summary, height = 320, table, testId }: ChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init>>(undefined);

  useEffect(() => {
    if (!ref.current) return;
    const c = echarts.init(ref.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(ref.current);
    return () => { resize.disconnect(); c.dispose(); chart.current = undefined; };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ textStyle: BASE_TEXT, animation: false, aria: { enabled: true, label: { description: summary } }, ...option }, { notMerge: true });
  }, [option, summary]);

  return (
    <figure className="chart">
      <div ref={ref} role="img" aria-label={summary} style={{ height }} data-testid={testId} className="chart-canvas" />
      {table && table.rows.length > 0 && (
        <details className="chart-data">
          <summary>Show the numbers</summary>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={`Numbers of: ${summary}`}>
            <table>
              <thead><tr>{table.columns.map((c) => <th scope="col" key={c}>{c}</th>)}</tr></thead>
              <tbody>{table.rows.map((r, i) => <tr key={i}>{r.map((v, j) => <td key={j}>{typeof v === 'number' ? Number(v.toPrecision(6)) : v}</td>)}</tr>)}</tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}

/** A titled section holding one chart or more. */
export function ChartCard({ title, description, children, id, wide }: { title: string; description?: ReactNode; children: ReactNode; id?: string; wide?: boolean }) {
  return (
    <section className={`card chart-card${wide ? ' wide' : ''}`} aria-labelledby={id ? `${id}-title` : undefined} data-chart={id}>
      <h3 id={id ? `${id}-title` : undefined}>{title}</h3>
      {description && <p className="hint">{description}</p>}
      {children}
    </section>
  );
}
