import { useQuery } from '@tanstack/react-query';
import { get } from '../../api';
import { Chart, ChartCard } from '../../components/Chart';
import { ErrorNote, MetricCards, Note, RecordTable } from '../../components/ui';
import { PALETTE } from '../../charts/echarts';
import { effectOption, impactOption, type Band } from '../../charts/series';
import { parseTime } from '../../lib/time';
import { effectInWords, formatNumber, formatPercent, pValueInWords } from '../../lib/words';
import { impactModelInWords } from '../../lib/method-names';
import type { Session, SessionResults } from '../../types';
import { cumulativeFields, effectInterval } from './detect';
import { describeModel } from '../../lib/model-description';
import { controlsInWords } from '../../lib/impact-controls';
import { impactTable } from '../../lib/impact-table';
import { pointsOf, recentHistory, resultRows, timestampColumn, type Point } from './series-data';

export function ImpactResults({ session }: { session: Session }) {
  const ts = timestampColumn(session);
  const target = session.targetColumn!;
  const q = useQuery({
    queryKey: ['results', session.sessionId, 'impact'],
    queryFn: async () => {
      const head = await get<SessionResults>(`/v1/sessions/${session.sessionId}/results`, { pageSize: 1 });
      const [rows, before] = await Promise.all([resultRows(session), recentHistory(session, session.startDate ?? undefined)]);
      return { head, rows, before };
    },
  });
  const d = q.data;
  if (q.error) return <ErrorNote error={q.error} />;
  if (!d) return null;

  const metrics = d.head.metrics;
  const pValue = Number(metrics.pValue);
  const absolute = Number(metrics.absoluteEffect);
  const relative = Number(metrics.relativeEffect);
  const observedWindow = pointsOf(d.rows, ts, target);
  const windowStart = observedWindow[0]?.[0] ?? parseTime(session.startDate ?? '');
  const windowEnd = observedWindow[observedWindow.length - 1]?.[0] ?? parseTime(session.endDate ?? '');
  const observed = [...d.before.filter(([t]) => t < windowStart), ...observedWindow];
  const predicted = pointsOf(d.rows, ts, `${target}:predicted`);
  const lower = pointsOf(d.rows, ts, `${target}:lower`);
  const upper = pointsOf(d.rows, ts, `${target}:upper`);
  // The level of every interval of the session: the counterfactual's, the effects' and their sums'.
  const level = Number((d.head as unknown as Record<string, unknown>).effectIntervalLevel ?? 0.95);
  const levelWords = `${formatPercent(level)} interval`;
  const hasBand = lower.length === predicted.length && upper.length === predicted.length && predicted.length > 0;
  const band: Band | undefined = hasBand ? { name: `${levelWords} without the event`, lower, upper, color: PALETTE.band } : undefined;

  const observedAt = new Map(observedWindow);
  const effect: Point[] = predicted.flatMap(([t, p]): Point[] => (observedAt.has(t) ? [[t, observedAt.get(t)! - p]] : []));
  // Pointwise: the observed value minus each end of the counterfactual's interval.
  const effectBand: Band | undefined = hasBand ? {
    name: levelWords, color: PALETTE.bandOrange,
    lower: upper.map(([t, u]): Point => [t, (observedAt.get(t) ?? NaN) - u]),
    upper: lower.map(([t, l]): Point => [t, (observedAt.get(t) ?? NaN) - l]),
  } : undefined;
  let sum = 0;
  const cumulative: Point[] = effect.map(([t, e]): Point => [t, (sum += e)]);
  const cum = cumulativeFields(d.rows[0], target);
  const cumulativeBand: Band | undefined = cum ? { name: levelWords, color: PALETTE.bandOrange, lower: pointsOf(d.rows, ts, cum.lower), upper: pointsOf(d.rows, ts, cum.upper) } : undefined;
  const absInterval = effectInterval(d.head as unknown as Record<string, unknown>, 'absoluteEffect');
  const relInterval = effectInterval(d.head as unknown as Record<string, unknown>, 'relativeEffect');
  const controls = controlsInWords(d.head as unknown as Record<string, unknown>);

  return (
    <>
      <section aria-labelledby="impact-summary">
        <h2 id="impact-summary">What the event changed</h2>
        <div className="card verdict" data-testid="impact-verdict">
          <p>{effectInWords(target, absolute, relative)}</p>
          {absInterval && <p>With {formatPercent(absInterval.level)} confidence the total effect lies between {formatNumber(absInterval.lower)} and {formatNumber(absInterval.upper)}{relInterval ? ` (${formatPercent(relInterval.lower)} to ${formatPercent(relInterval.upper)})` : ''}.</p>}
          <p><strong>{pValueInWords(pValue)}</strong></p>
          {controls && (
            <p data-testid="impact-controls" className={controls.disagrees ? 'warning' : undefined}>
              {controls.controls} {controls.without}
              {controls.disagrees && ' The two disagree: the result rests on those columns, and holds only if the event did not affect them.'}
            </p>
          )}
        </div>
        <MetricCards metrics={metrics} order={['pValue', 'absoluteEffect', 'relativeEffect']} />
        <p className="hint">Counterfactual model: <span title={d.head.algorithm?.key ? `Model ${d.head.algorithm.key}` : undefined} data-testid="impact-model">{d.head.algorithm ? impactModelInWords(d.head.algorithm.name) : '—'}</span>{d.head.algorithm?.description ? ` — ${describeModel(d.head.algorithm.description)}` : ''}.</p>
      </section>
      <ChartCard id="impact" title="Observed and expected without the event" description={`The dashed line is what the model, fitted on the periods before the event, expected in the window; the shaded band is its ${levelWords}.`}>
        <Chart testId="chart-impact" option={impactOption({ target, observed, counterfactual: predicted, band, window: [windowStart, windowEnd] })} height={400}
          summary={`${target} observed against the counterfactual over the event window of ${predicted.length} periods; ${effectInWords(target, absolute, relative)}`} />
      </ChartCard>
      <div className="chart-grid">
        <ChartCard id="pointwise" title="Effect in each period" description="Observed minus expected, per period; where the band leaves zero, the difference is larger than chance.">
          <Chart testId="chart-pointwise" option={effectOption({ name: 'pointwise effect', effect, band: effectBand, unit: target })}
            summary={`Pointwise effect over ${effect.length} periods, from ${formatNumber(Math.min(...effect.map((e) => e[1])))} to ${formatNumber(Math.max(...effect.map((e) => e[1])))}`}
            table={{ columns: ['period', 'effect'], rows: effect.map(([t, e]) => [new Date(t).toISOString().slice(0, 10), e]) }} />
        </ChartCard>
        <ChartCard id="cumulative" title="Cumulative effect" description="The effect added up from the start of the window.">
          <Chart testId="chart-cumulative" option={effectOption({ name: 'cumulative effect', effect: cumulative, band: cumulativeBand, unit: target })}
            summary={`Cumulative effect reaching ${formatNumber(cumulative[cumulative.length - 1]?.[1] ?? NaN)} at the end of the window`} />
          {!cumulativeBand && <p className="hint">The cumulative effect's interval is drawn when the results carry it per period.</p>}
        </ChartCard>
      </div>
      {effect.length === 0 && <Note>The results have no rows for the event window.</Note>}
      <section className="card" aria-labelledby="impact-rows">
        <h2 id="impact-rows">Per period</h2>
        <RecordTable caption={`${d.rows.length} periods of the event window`} {...impactTable(d.rows, ts, target, level)} />
      </section>
    </>
  );
}
