import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, get, getAll } from '../../api';
import { Chart, ChartCard } from '../../components/Chart';
import { ErrorNote, MetricCards, Note, type MetricIntervals, Pager, SelectField, formatMetric } from '../../components/ui';
import { PALETTE } from '../../charts/echarts';
import { barsOption, histogramOption, singleHistogram } from '../../charts/common';
import { confusionOption, predictedActualOption, prOption, reliabilityOption, rocOption } from '../../charts/classification';
import { expectedCalibrationError, hardestClass, histogram, prCurve, reliabilityBins, rocCurve, type Scored } from '../../lib/curves';
import { confusionLayout } from '../../lib/confusion-layout';
import { candidateName, describeModel } from '../../lib/model-description';
import { AnomalousRows } from './AnomalousRows';
import { formatNumber, formatPercent, metricLabel } from '../../lib/words';
import type { Contestant, Session, SessionResults } from '../../types';
import { explanationOf, intervalFields, recordExplanation, scoresAreCalibrated } from './detect';
import { ExplanationView } from '../../components/ExplanationView';

const METRIC_ORDER = ['accuracy', 'rocAreaUnderCurve', 'macroAverageF1Score', 'macroAveragePrecision', 'macroAverageRecall', 'matthewsCorrelationCoefficient', 'rSquared', 'rootMeanSquareError', 'meanAbsoluteError', 'percentAnomalies'];
const METRIC_HINTS: Record<string, string> = {
  accuracy: 'Share of test rows classified right.',
  rocAreaUnderCurve: '0.5 is guessing, 1 is perfect ranking.',
  matthewsCorrelationCoefficient: '0 is guessing, 1 is perfect; fair with unequal classes.',
  rSquared: 'Share of the variation the model explains (1 is perfect).',
  percentAnomalies: 'Share of rows scored as anomalous.',
};

/** The metric hints, with what a perfectly calibrated model's expected calibration error would be on these test rows. */
function hintsFor(r: SessionResults): Record<string, string> {
  const reference = r.expectedCalibrationErrorReference as { mean: number; upper95: number } | undefined;
  if (!reference) return METRIC_HINTS;
  return { ...METRIC_HINTS, expectedCalibrationError: `Perfectly calibrated scores would show about ${formatPercent(reference.mean)} on these rows by chance (up to ${formatPercent(reference.upper95)}).` };
}

/** Results of a model session: the held-back test rows' metrics and pictures for its domain, the contest, the importance of features. */
export function ModelResults({ session }: { session: Session }) {
  const results = useQuery({ queryKey: ['results', session.sessionId, 'head'], queryFn: () => get<SessionResults>(`/v1/sessions/${session.sessionId}/results`, { pageSize: 1 }) });
  const r = results.data;
  const contest = useContest(session);
  const domain = session.predictionDomain;
  const intervals = r?.metricIntervals as MetricIntervals | undefined;
  // A small session keeps the champion trained again on all rows after the test (model-compute.ts keptFit).
  const refitRows = r && typeof r.modelTrainingRows === 'number' && typeof r.trainingRows === 'number' && r.modelTrainingRows > r.trainingRows ? r.modelTrainingRows : undefined;
  return (
    <>
      <ErrorNote error={results.error} />
      {r && (
        <section aria-labelledby="metrics-title">
          <h2 id="metrics-title">How well it does</h2>
          <p className="hint">{domain === 'anomalies' ? 'Scores of every row of the data set.' : `Measured on ${r.totalCount.toLocaleString()} test rows held back from training.`} Model: {r.algorithm?.name ?? '—'}{r.algorithm?.description ? ` — ${describeModel(r.algorithm.description, contest.data?.champion, contest.data?.contestants)}` : ''}.{refitRows ? ` After the test, the model was trained again on all ${refitRows.toLocaleString()} rows.` : ''}</p>
          <MetricCards metrics={r.metrics} order={METRIC_ORDER} hints={hintsFor(r)} intervals={intervals} />
          {intervals !== undefined && <p className="hint">Each interval is where the model's figure on new rows like these would lie, judged from how much it varies over resamples of the {r.totalCount.toLocaleString()} test rows{intervals.otherMethods?.rocAreaUnderCurve ? '; the ROC AUC\'s by Newcombe\'s score method instead, since resampling cannot show the misranked pairs a test set near a perfect ranking lacks' : ''}.</p>}
          {session.modelId && <p><Link className="button primary" to={`/models/${session.modelId}`}>Try the model</Link></p>}
        </section>
      )}
      {r && domain === 'classification' && <ClassificationCharts session={session} results={r} />}
      {r && domain === 'regression' && <RegressionCharts session={session} />}
      {r && domain === 'anomalies' && <AnomalyCharts session={session} />}
      <FeatureImportance session={session} />
      {domain !== 'anomalies' && session.modelId && <Explanations session={session} refitted={refitRows !== undefined} />}
      <Leaderboard session={session} />
    </>
  );
}

function ClassificationCharts({ session, results }: { session: Session; results: SessionResults }) {
  const id = session.sessionId;
  const target = session.targetColumn!;
  const matrix = useQuery({ queryKey: ['results', id, 'confusion'], queryFn: () => get<{ classes: string[]; confusionMatrix: number[][] }>(`/v1/sessions/${id}/results/confusionmatrix`) });
  const scores = useQuery({
    queryKey: ['results', id, 'classscores'],
    queryFn: () => getAll<Record<string, string>>(`/v1/sessions/${id}/results/classscores`).then((a) => ({ rows: a.rows, classes: (a.first.classes as string[]) ?? [] })),
  });
  const classes = scores.data?.classes ?? matrix.data?.classes ?? [];
  const confusion = useMemo(() => (matrix.data ? confusionLayout(matrix.data.classes) : undefined), [matrix.data]);
  const [chosen, setChosen] = useState<string>();
  // Several classes: the curves open on the class the model separates worst, not on the first, which
  // may be trivially separable (iris: setosa) and make every curve look perfect.
  const hardest = useMemo(() => (classes.length > 2 ? hardestClass(classes, scores.data?.rows ?? [], target) : undefined), [classes, scores.data, target]);
  const positive = chosen ?? hardest ?? classes[classes.length > 2 ? 0 : 1] ?? classes[0] ?? '';
  const scored: Scored[] = useMemo(() => (scores.data?.rows ?? []).map((row) => ({ score: Number(row[`${target}:${positive}`]), positive: row[`${target}:actual`] === positive })), [scores.data, target, positive]);
  const roc = useMemo(() => rocCurve(scored), [scored]);
  const pr = useMemo(() => prCurve(scored), [scored]);
  const calibrated = scoresAreCalibrated(results);
  const bins = useMemo(() => (calibrated ? reliabilityBins(scored, 10) : []), [calibrated, scored]);
  const hist = useMemo(() => {
    const pos = scored.filter((s) => s.positive).map((s) => s.score);
    const neg = scored.filter((s) => !s.positive).map((s) => s.score);
    const all = scored.map((s) => s.score).filter(Number.isFinite);
    const range: [number, number] = [Math.min(0, ...all), Math.max(1, ...all)];
    const hp = histogram(pos, 20, range);
    const hn = histogram(neg, 20, range);
    return { edges: hp.edges, groups: [{ name: `actual ${positive}`, counts: hp.counts, color: PALETTE.blue }, { name: 'actual other classes', counts: hn.counts, color: PALETTE.orange }] };
  }, [scored, positive]);
  const other = classes.length === 2 ? classes.find((c) => c !== positive) : 'the other classes';

  return (
    <section aria-labelledby="class-charts-title">
      <h2 id="class-charts-title">Test rows in pictures</h2>
      <ErrorNote error={matrix.error ?? scores.error} />
      <div className="chart-grid">
        {matrix.data && confusion && (
          <ChartCard id="confusion" title="Confusion matrix" wide={confusion.wide} description={`Rows are the actual class, columns the predicted one; the diagonal holds the right answers.${confusion.showZeros ? '' : ' Blank cells count no rows.'}`}>
            <Chart testId="chart-confusion" option={confusionOption(matrix.data.classes, matrix.data.confusionMatrix, confusion)} height={confusion.height}
              summary={`Confusion matrix of ${matrix.data.classes.length} classes: ${matrix.data.classes.map((c, i) => `${matrix.data.confusionMatrix[i]![i]} of ${matrix.data.confusionMatrix[i]!.reduce((a, b) => a + b, 0)} ${c} right`).join(', ')}`}
              table={{ columns: ['actual \\ predicted', ...matrix.data.classes], rows: matrix.data.classes.map((c, i) => [c, ...matrix.data.confusionMatrix[i]!]) }} />
          </ChartCard>
        )}
        {classes.length > 0 && (
          <div className="card class-choice">
            <SelectField label="Class the curves are drawn for" hint={`Each curve treats this class as positive and ${other} as negative.${hardest && !chosen ? ` They open on ${hardest}, the class the model tells apart least well (lowest ROC AUC).` : ''}`} value={positive} onChange={(e) => setChosen(e.target.value)} options={classes} />
          </div>
        )}
      </div>
      <div className="chart-grid">
        {roc && (
          <ChartCard id="roc" title="ROC curve" description="How many positives the model finds (up) for how many false alarms (right), as the threshold falls.">
            <Chart testId="chart-roc" option={rocOption(roc.points, roc.auc, positive)} summary={`ROC curve for ${positive}: area under the curve ${formatNumber(roc.auc, 3)}`}
              table={{ columns: ['false-positive rate', 'true-positive rate'], rows: thin(roc.points) }} />
          </ChartCard>
        )}
        {pr && (
          <ChartCard id="pr" title="Precision–recall curve" description="How many of the rows flagged as this class really are (precision), for each share of the class found (recall).">
            <Chart testId="chart-pr" option={prOption(pr.points, pr.averagePrecision, pr.baseline, positive)} summary={`Precision-recall curve for ${positive}: average precision ${formatNumber(pr.averagePrecision, 3)}, chance level ${formatNumber(pr.baseline, 2)}`}
              table={{ columns: ['recall', 'precision'], rows: thin(pr.points) }} />
          </ChartCard>
        )}
        {scored.length > 0 && (
          <ChartCard id="score-histogram" title="Class scores" description={`Scores for ${positive} of the test rows, by their actual class: the less the two overlap, the better the model separates them.`}>
            <Chart testId="chart-scores" option={histogramOption(hist, `Score for ${positive}`)} summary={`Histogram of the scores for ${positive}: ${scored.filter((s) => s.positive).length} rows of ${positive}, ${scored.filter((s) => !s.positive).length} of other classes`} />
          </ChartCard>
        )}
        <ChartCard id="reliability" title="Reliability" description="Whether a score of 0.8 means the class turns up 8 times in 10.">
          {calibrated && bins.length > 0 ? (
            <>
              <Chart testId="chart-reliability" option={reliabilityOption(bins, positive)} summary={`Reliability curve for ${positive}: mean gap between score and share ${formatNumber(expectedCalibrationError(bins), 3)}`}
                table={{ columns: ['predicted', 'observed', 'rows'], rows: bins.map((b) => [b.meanPredicted, b.observed, b.count]) }} />
              {/* Not the metric above: that one bins each row's highest class score in 15 bins (Guo et al.); this is the score for one class in the chart's bins, and on a few hundred rows the two differ by the binning alone. */}
              <p className="hint" data-testid="reliability-gap">Mean gap between the score for {positive} and how often {positive} turns up, over these {bins.length} bins: {formatPercent(expectedCalibrationError(bins))}. The expected calibration error above measures each row's highest class score, in 15 bins.</p>
            </>
          ) : (
            <Note>This model's class scores rank the rows but are not calibrated probabilities, so a reliability curve would not mean what it shows. It appears here for models whose results report calibration.</Note>
          )}
        </ChartCard>
      </div>
    </section>
  );
}

/** Every nth point of a long curve, for the numbers table (the chart keeps them all). */
function thin(points: [number, number][], max = 60): [number, number][] {
  const step = Math.max(1, Math.ceil(points.length / max));
  return points.filter((_, i) => i % step === 0 || i === points.length - 1);
}

function RegressionCharts({ session }: { session: Session }) {
  const target = session.targetColumn!;
  const rows = useQuery({ queryKey: ['results', session.sessionId, 'rows'], queryFn: () => getAll<Record<string, string>>(`/v1/sessions/${session.sessionId}/results`) });
  const data = rows.data?.rows ?? [];
  const points = data.map((r): [number, number] => [Number(r[`${target}:actual`]), Number(r[target])]).filter((p) => p.every(Number.isFinite));
  const residuals = points.map(([a, p]) => a - p);
  const interval = intervalFields(data[0], target);
  const covered = interval ? data.filter((r) => Number(r[interval.lower]) <= Number(r[`${target}:actual`]) && Number(r[`${target}:actual`]) <= Number(r[interval.upper])).length : 0;
  return (
    <section aria-labelledby="reg-title">
      <h2 id="reg-title">Test rows in pictures</h2>
      <ErrorNote error={rows.error} />
      <div className="chart-grid">
        {points.length > 0 && (
          <ChartCard id="predicted-actual" title="Predicted against actual" description="Points on the dashed line are predicted exactly.">
            <Chart testId="chart-predicted-actual" option={predictedActualOption(points, target)} summary={`Scatter of predicted against actual ${target} for ${points.length} test rows`} />
          </ChartCard>
        )}
        {residuals.length > 0 && (
          <ChartCard id="residuals" title="Errors" description="Actual minus predicted: centred on zero when the model is not biased.">
            <Chart testId="chart-residuals" option={singleHistogram(histogram(residuals, 24), `Actual − predicted ${target}`, PALETTE.blue, { value: 0, label: '0' })} summary={`Histogram of the errors of ${residuals.length} test rows`} />
          </ChartCard>
        )}
      </div>
      {interval
        ? <Note>Prediction intervals{interval.level !== undefined ? ` (${formatPercent(interval.level)} level)` : ''}: {covered} of {data.length} test rows ({formatPercent(covered / Math.max(1, data.length))}) have their actual value inside the interval.</Note>
        : <p className="hint">Prediction intervals appear here when the results carry them.</p>}
    </section>
  );
}

function AnomalyCharts({ session }: { session: Session }) {
  const id = session.sessionId;
  const scores = useQuery({ queryKey: ['results', id, 'anomalyscores'], queryFn: () => getAll<Record<string, string>>(`/v1/sessions/${id}/results/anomalyscores`) });
  const values = (scores.data?.rows ?? []).map((r) => Number(r.anomaly)).filter(Number.isFinite);
  return (
    <section aria-labelledby="anomaly-title">
      <h2 id="anomaly-title">Anomaly scores</h2>
      <ErrorNote error={scores.error} />
      {values.length > 0 && (
        <ChartCard id="anomaly-scores" title="Score distribution" description="Below zero (left of the red line) a row is anomalous; the further left, the more unusual.">
          <Chart testId="chart-anomaly-scores" option={singleHistogram(histogram(values, 30), 'Anomaly score', PALETTE.blue, { value: 0, label: 'anomalous below 0' })}
            summary={`Histogram of ${values.length} anomaly scores; ${values.filter((v) => v < 0).length} below zero`} />
        </ChartCard>
      )}
      <AnomalousRows session={session} />
    </section>
  );
}

function FeatureImportance({ session }: { session: Session }) {
  const q = useQuery({
    queryKey: ['results', session.sessionId, 'importance'],
    queryFn: () => get<{ featureImportance: Record<string, number | string>; meanAbsoluteContributions?: Record<string, number>; contributionScale?: string; contributionRows?: number }>(`/v1/sessions/${session.sessionId}/results/featureimportance`, { pageSize: 1000 }),
    // The session says whether it has any (anomaly sessions do not): no request that must fail.
    enabled: session.supportsFeatureImportance !== false,
    retry: false,
  });
  if (q.isError || !q.data) return null;
  const items = Object.entries(q.data.featureImportance).flatMap(([name, v]) => (typeof v === 'number' ? [{ name, value: v }] : [])).slice(0, 30);
  if (items.length === 0) return null;
  const contributions = Object.entries(q.data.meanAbsoluteContributions ?? {}).map(([name, value]) => ({ name, value })).sort((a, b) => b.value - a.value).slice(0, 30);
  return (
    <ChartCard id="importance" title="Feature importance" description={`How much each column moves the model's predictions${items.length === 30 ? ' (the 30 that matter most)' : ''}.`}>
      <Chart testId="chart-importance" option={barsOption(items, 'Importance')} height={Math.max(220, 26 * items.length + 60)}
        summary={`Feature importance: ${items.slice(0, 5).map((i) => `${i.name} ${formatNumber(i.value, 2)}`).join(', ')}${items.length > 5 ? ', …' : ''}`}
        table={{ columns: ['feature', 'importance'], rows: items.map((i) => [i.name, i.value]) }} />
      {contributions.length > 0 && (
        <>
          <h3>Mean absolute contribution</h3>
          <p className="hint">How far each column moves a prediction on average ({q.data.contributionScale} scale), over {q.data.contributionRows} held-back rows: the per-record explanations below, averaged.</p>
          <Chart testId="chart-contribution-importance" option={barsOption(contributions, 'Mean |contribution|')} height={Math.max(220, 26 * contributions.length + 60)}
            summary={`Mean absolute contribution: ${contributions.slice(0, 5).map((i) => `${i.name} ${formatNumber(i.value, 3)}`).join(', ')}${contributions.length > 5 ? ', …' : ''}`}
            table={{ columns: ['feature', 'mean absolute contribution'], rows: contributions.map((i) => [i.name, i.value]) }} />
        </>
      )}
    </ChartCard>
  );
}

/** Input columns the explain table shows before "Show all": a table of eight fits a laptop's card. */
const FIRST_INPUTS = 8;
/** Test rows the explain table shows a page. */
const EXPLAIN_PAGE = 8;

/** Test rows, each of which can be sent to the model to be explained (when the model explains its predictions). */
function Explanations({ session, refitted }: { session: Session; refitted: boolean }) {
  const target = session.targetColumn!;
  const [page, setPage] = useState(0);
  const rows = useQuery({
    queryKey: ['results', session.sessionId, 'explain-rows', page],
    queryFn: () => get<SessionResults>(`/v1/sessions/${session.sessionId}/results`, { page, pageSize: EXPLAIN_PAGE }),
    placeholderData: keepPreviousData,
  });
  const explain = useMutation({
    mutationFn: async (row: Record<string, string>) => {
      const record = Object.fromEntries(Object.entries(row).filter(([k]) => k !== target && !k.startsWith(`${target}:`)));
      const answer = await api<Record<string, unknown>>('POST', `/v1/models/${session.modelId}/predict`, { data: [record], extraParameters: { includeClassScores: session.predictionDomain === 'classification', includeExplanations: true } });
      return { row, answer, contributions: explanationOf(answer, 0), detail: recordExplanation(answer, 0) };
    },
  });
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string>();
  const explainPasted = () => {
    try {
      const parsed: unknown = JSON.parse(pasted);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      setPasteError(undefined);
      explain.mutate(Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])));
    } catch {
      setPasteError('Paste one record as a JSON object, e.g. {"column": "value", "other": 12}.');
    }
  };
  const d = rows.data;
  const [allColumns, setAllColumns] = useState(false);
  const inputs = d?.data[0] ? Object.keys(d.data[0]).filter((c) => c !== target && !c.startsWith(`${target}:`)) : [];
  const shownInputs = allColumns ? inputs : inputs.slice(0, FIRST_INPUTS);
  return (
    <section className="card" aria-labelledby="explain-title">
      <h2 id="explain-title">Why a row got its prediction</h2>
      <p className="hint">Pick a test row to see how much each of its values pushed the prediction up or down.</p>
      {refitted && (
        <p className="hint">After the test, the model was trained again on all rows, these included: the prediction explained here may differ from the tested prediction in the table.</p>
      )}
      <ErrorNote error={rows.error ?? explain.error} />
      {d && d.data.length > 0 && (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Test rows to explain</caption>
            <thead><tr><th scope="col">Actual</th><th scope="col">Predicted</th>{shownInputs.map((c) => <th scope="col" key={c}>{c}</th>)}<th scope="col"><span className="visually-hidden">Explain</span></th></tr></thead>
            <tbody>
              {d.data.map((row, i) => (
                <tr key={i}>
                  <td>{row[`${target}:actual`]}</td>
                  <td>{session.predictionDomain === 'regression' ? formatNumber(Number(row[target])) : row[target]}</td>
                  {shownInputs.map((c) => <td key={c}>{row[c]}</td>)}
                  <td><button type="button" className="button subtle small" onClick={() => explain.mutate(row)}
                    aria-label={`Explain test row ${(page * EXPLAIN_PAGE + i + 1).toLocaleString()}: actual ${row[`${target}:actual`] ?? '—'}, predicted ${session.predictionDomain === 'regression' ? formatNumber(Number(row[target])) : row[target]}`}>Explain</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {inputs.length > FIRST_INPUTS && (
        <button type="button" className="button subtle small" aria-expanded={allColumns} onClick={() => setAllColumns((v) => !v)}>
          {allColumns ? `Show the first ${FIRST_INPUTS} input columns` : `Show all ${inputs.length} input columns`}
        </button>
      )}
      {d && <Pager page={page} totalPages={d.totalPages} onPage={setPage} label="Test row pages" />}
      <details className="paste-record">
        <summary>Or paste a record</summary>
        <label htmlFor="paste-record">Record as JSON (column → value)</label>
        <textarea id="paste-record" rows={4} value={pasted} onChange={(e) => setPasted(e.target.value)} aria-describedby={pasteError ? 'paste-record-error' : undefined} />
        {pasteError && <p id="paste-record-error" className="field-error" role="alert">{pasteError}</p>}
        <p><button type="button" className="button subtle small" onClick={explainPasted}>Explain this record</button></p>
      </details>
      {explain.data && (
        explain.data.detail
          ? <>
              <p role="status" aria-live="polite">Predicted <strong>{session.predictionDomain === 'regression' ? formatNumber(Number((explain.data.answer.data as Record<string, string>[])[0]?.[target])) : String((explain.data.answer.data as Record<string, string>[])[0]?.[target] ?? '')}</strong>{explain.data.row[`${target}:actual`] !== undefined && <> (actual: {explain.data.row[`${target}:actual`]})</>}.</p>
              <ExplanationView key={JSON.stringify(explain.data.row)} explanation={explain.data.detail} preferredClass={(explain.data.answer.data as Record<string, string>[])[0]?.[target]} />
            </>
          : explain.data.contributions
          ? <Chart testId="chart-explanation" option={barsOption([...explain.data.contributions].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, 20).map((c) => ({ name: c.feature, value: c.value })), 'Contribution to the prediction', true)}
              height={Math.max(200, 26 * Math.min(20, explain.data.contributions.length) + 60)} summary={`Contributions of the row's values to its prediction ${String((explain.data.answer.data as Record<string, string>[])[0]?.[target] ?? '')}`} />
          : <Note>The model predicted <strong>{String((explain.data.answer.data as Record<string, string>[] | undefined)?.[0]?.[target] ?? '—')}</strong> for this row, but this installation's models do not explain their predictions yet (the answer has no explanations).</Note>
      )}
    </section>
  );
}

function lowerIsBetter(metric: string): boolean {
  return /error|loss|deviance|brier/i.test(metric);
}

function useContest(session: Session) {
  return useQuery({
    queryKey: ['results', session.sessionId, 'contest'],
    queryFn: () => get<{ championMetric: string; champion: Contestant; contestants: Contestant[] }>(`/v1/sessions/${session.sessionId}/contest`),
    // Anomaly sessions fit one model and hold no contest: no request that must fail.
    enabled: session.predictionDomain !== 'anomalies',
    retry: false,
  });
}

function Leaderboard({ session }: { session: Session }) {
  const q = useContest(session);
  if (!q.data) return null;
  const { championMetric, champion } = q.data;
  const all = [...q.data.contestants];
  if (!all.some((c) => c.id === champion.id)) all.push(champion);
  const sign = lowerIsBetter(championMetric) ? 1 : -1;
  all.sort((a, b) => sign * ((a.metrics[championMetric] ?? Infinity * sign) - (b.metrics[championMetric] ?? Infinity * sign)));
  const metricNames = [championMetric, ...Object.keys(champion.metrics).filter((m) => m !== championMetric)].slice(0, 6);
  return (
    <section className="card" aria-labelledby="contest-title">
      <h2 id="contest-title">Contest</h2>
      <p className="hint">Every candidate was scored by cross-validation on the training rows; the best by {metricLabel(championMetric)} ({lowerIsBetter(championMetric) ? 'lower' : 'higher'} is better) became the model.</p>
      <div className="table-scroll">
        <table className="leaderboard">
          <caption className="visually-hidden">Contest leaderboard</caption>
          <thead><tr><th scope="col">Rank</th><th scope="col">Candidate</th>{metricNames.map((m) => <th scope="col" key={m} className="num">{metricLabel(m)}</th>)}</tr></thead>
          <tbody>
            {all.map((c, i) => (
              <tr key={c.id} className={c.id === champion.id ? 'champion' : undefined}>
                <td>{i + 1}</td>
                <th scope="row"><span title={`${c.algorithm.description} Candidate ${c.id}.`}>{candidateName(c, all)}</span>{c.id === champion.id && <span className="badge status-completed">chosen</span>}</th>
                {metricNames.map((m) => <td key={m} className="num">{formatMetric(m, c.metrics[m])}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
