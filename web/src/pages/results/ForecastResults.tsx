import { useQuery } from '@tanstack/react-query';
import { get, getAll } from '../../api';
import { Chart, ChartCard } from '../../components/Chart';
import { ErrorNote, MetricCards, RecordTable } from '../../components/ui';
import { PALETTE } from '../../charts/echarts';
import { forecastOption, type Band } from '../../charts/series';
import { parseTime } from '../../lib/time';
import { formatNumber } from '../../lib/words';
import { forecastMethodInWords } from '../../lib/method-names';
import type { Session, SessionResults } from '../../types';
import { holdoutOf } from './detect';
import { pointsOf, recentHistory, resultRows, timestampColumn } from './series-data';
import { forecastZoomStart } from '../../lib/forecast-zoom';

/** Quantile pairs drawn as bands, outer first: [lower level, upper level, name, colour]. */
const BANDS: [string, string, string, string][] = [
  ['0.05', '0.95', '90 % interval', PALETTE.bandOuter],
  ['0.2', '0.8', '60 % interval', PALETTE.band],
];

export function ForecastResults({ session }: { session: Session }) {
  const ts = timestampColumn(session);
  const target = session.targetColumn!;
  const levels = new Set(session.availablePredictionIntervals.map((l) => String(Number(l))));
  const q = useQuery({
    queryKey: ['results', session.sessionId, 'forecast'],
    queryFn: async () => {
      const head = await get<SessionResults>(`/v1/sessions/${session.sessionId}/results`, { pageSize: 1 });
      const [history, forecastRows] = await Promise.all([recentHistory(session), resultRows(session)]);
      const bands: Band[] = [];
      for (const [lo, hi, name, color] of BANDS) {
        if (!levels.has(lo) || !levels.has(hi)) continue;
        const [l, u] = await Promise.all([resultRows(session, lo), resultRows(session, hi)]);
        bands.push({ name, color, lower: pointsOf(l, ts, target), upper: pointsOf(u, ts, target) });
      }
      const outliers = await getAll<Record<string, string>>(`/v1/sessions/${session.sessionId}/results/outliers`).then((a) => a.rows).catch(() => []);
      return { head, history, forecastRows, bands, outliers };
    },
  });
  const d = q.data;
  const forecast = d ? pointsOf(d.forecastRows, ts, target) : [];
  const forecastStart = forecast[0]?.[0] ?? parseTime(session.startDate ?? '');
  // The forecast may overlap the last observations (a start date inside the data): the history is drawn up to its end regardless.
  const holdout = d ? holdoutOf(d.head as unknown as Record<string, unknown>, target, ts) : undefined;
  const outliers = d ? pointsOf(d.outliers, ts, `${target}:actual`) : [];
  const zoomStart = d && d.history.length > 0 && forecast.length > 0
    ? forecastZoomStart({ historyTimes: d.history.map((p) => p[0]), forecastStart, forecastEnd: forecast[forecast.length - 1]![0], holdoutStart: holdout?.start })
    : undefined;
  const option = d ? forecastOption({ target, history: d.history, forecast, bands: d.bands, forecastStart, holdout: holdout?.start ? { start: holdout.start, predicted: holdout.predicted } : undefined, outliers, zoomStart }) : undefined;
  const outer = d?.bands[0];

  return (
    <>
      <ErrorNote error={q.error} />
      {d && (
        <section aria-labelledby="fc-metrics">
          <h2 id="fc-metrics">How well it forecasts</h2>
          <p className="hint">Measured by forecasting the last periods of the data from the ones before (a holdout), with the method chosen: <span title={d.head.algorithm?.key ? `Method ${d.head.algorithm.key}` : undefined} data-testid="forecast-method">{d.head.algorithm ? forecastMethodInWords(d.head.algorithm.name) : '—'}</span>.</p>
          <MetricCards metrics={d.head.metrics} order={['meanAbsolutePercentError', 'meanAbsoluteScaledError', 'rootMeanSquareError', 'meanAbsoluteError', 'rSquared']}
            hints={{ meanAbsoluteScaledError: 'Below 1: better than repeating last season.', meanAbsolutePercentError: 'Average error as a share of the actual value.' }} />
        </section>
      )}
      {option && (
        <ChartCard id="forecast" title="Forecast" description={`History of ${target}, the forecast${d!.bands.length ? ', and the ranges the future value should fall in with the stated probabilities' : ''}. ${zoomStart !== undefined ? `It opens on the forecast and the history since ${new Date(zoomStart).toISOString().slice(0, 10)}; drag the slider's handles for the rest.` : 'Drag the slider to zoom.'}`}>
          <Chart testId="chart-forecast" option={option} height={420}
            summary={`Forecast of ${target}: ${forecast.length} periods from ${new Date(forecastStart).toISOString().slice(0, 10)}, after ${d!.history.length} observed periods${outer ? `, with a ${outer.name}` : ''}`} />
          {!holdout && <p className="hint">The holdout period behind the metrics is marked on the chart when the results describe it.</p>}
        </ChartCard>
      )}
      {d && d.forecastRows.length > 0 && (
        <section className="card" aria-labelledby="fc-table">
          <h2 id="fc-table">Forecast values</h2>
          <RecordTable caption={`${forecast.length} forecast periods`} columns={[ts, target, ...(outer ? ['lower (5 %)', 'upper (95 %)'] : [])]}
            rows={d.forecastRows.map((r, i) => ({
              [ts]: r[ts]!.slice(0, 10),
              [target]: formatNumber(Number(r[target])),
              ...(outer ? { 'lower (5 %)': formatNumber(outer.lower[i]?.[1] ?? NaN), 'upper (95 %)': formatNumber(outer.upper[i]?.[1] ?? NaN) } : {}),
            }))} />
        </section>
      )}
    </>
  );
}
