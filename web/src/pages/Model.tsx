import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError, get } from '../api';
import { Chart } from '../components/Chart';
import { AddressError, CodeBlock, ErrorNote, MetricCards, Note, Warnings, usePageTitle } from '../components/ui';
import { barsOption } from '../charts/common';
import { curlSnippet, nexosisClientSnippet, type Example } from '../lib/snippets';
import { dataTypeInWords, formatDate, formatNumber, formatPercent, modelPurpose, roleInWords } from '../lib/words';
import { levelledIntervals } from '../lib/result-fields';
import type { DataSetPage, Model } from '../types';
import { explanationOf, recordExplanation } from './results/detect';
import { ExplanationView } from '../components/ExplanationView';

/** Columns a prediction request sends: every feature (and the key, echoed back), never the target. */
function inputColumns(m: Model): string[] {
  return Object.entries(m.columns).filter(([, c]) => c.role === 'feature' || c.role === 'key').map(([n]) => n);
}

/** The column the model predicts (none for an anomaly model). */
function targetOf(m: Model): string | undefined {
  return Object.entries(m.columns).find(([, c]) => c.role === 'target')?.[0];
}

function inputType(dataType: string): string {
  return dataType.startsWith('numeric') ? 'number' : dataType === 'date' ? 'text' : 'text';
}

export function ModelPage() {
  const { id = '' } = useParams();
  usePageTitle(`Model ${id.slice(0, 8)}`);
  const model = useQuery({ queryKey: ['models', 'one', id], queryFn: () => get<Model>(`/v1/models/${id}`) });
  const m = model.data;
  return (
    <>
      <p className="breadcrumb"><Link to="/models">Models</Link> ›</p>
      <h1 tabIndex={-1}>Model <code>{id.slice(0, 8)}</code></h1>
      {model.error && <AddressError error={model.error} what="model" id={id} list={{ to: '/models', label: 'Your models' }} />}
      {m && (
        <>
          <p className="lead" data-testid="model-purpose">
            {modelPurpose(m.predictionDomain, targetOf(m))} from {inputColumns(m).length} {inputColumns(m).length === 1 ? 'column' : 'columns'} of <Link to={`/data/${encodeURIComponent(m.dataSourceName)}`}>{m.dataSourceName}</Link>.
          </p>
          <p className="facts">
            {m.predictionDomain} · {m.algorithm.name} · created {formatDate(m.createdDate)} · <Link to={`/sessions/${m.sessionId}`}>its session and charts</Link>
          </p>
          <MetricCards metrics={m.metrics} order={['accuracy', 'rocAreaUnderCurve', 'macroAverageF1Score', 'rSquared', 'rootMeanSquareError']} />
          <TryPrediction model={m} />
          <Snippets model={m} />
          <details className="card">
            <summary>Columns the model uses</summary>
            <ul className="plain-list">{Object.entries(m.columns).map(([n, c]) => <li key={n}><strong>{n}</strong> — {dataTypeInWords(c.dataType)}, {roleInWords(c.role)}</li>)}</ul>
          </details>
        </>
      )}
    </>
  );
}

function dataSetGone(name: string): string {
  return `The data set ${name} has been deleted, so there is no row to fill from. The model still predicts: type the values in.`;
}

/** The levels of the ranges asked for around a regression prediction: a likely and a near-certain one. */
const PREDICTION_INTERVALS = [0.8, 0.95];

function TryPrediction({ model }: { model: Model }) {
  const cols = useMemo(() => inputColumns(model), [model]);
  const target = targetOf(model);
  const [values, setValues] = useState<Record<string, string>>({});
  const sample = useMutation({
    mutationFn: async () => {
      const head = await get<DataSetPage>(`/v1/data/${encodeURIComponent(model.dataSourceName)}`, { pageSize: 1 }).catch((e: unknown) => {
        throw e instanceof ApiError && e.status === 404 ? new Error(dataSetGone(model.dataSourceName)) : e;
      });
      const at = Math.floor(Math.random() * Math.max(1, head.totalCount));
      const row = (await get<DataSetPage>(`/v1/data/${encodeURIComponent(model.dataSourceName)}`, { pageSize: 1, page: at })).data[0] ?? {};
      return row;
    },
    onSuccess: (row) => setValues(Object.fromEntries(cols.map((c) => [c, row[c] ?? '']))),
  });
  const predict = useMutation({
    mutationFn: async () => {
      const ask = (includeExplanations: boolean, predictionIntervals?: number[]) => api<Record<string, unknown> & { data: Record<string, string>[]; messages: { severity: string; message: string }[] }>('POST', `/v1/models/${model.modelId}/predict`, {
        data: [Object.fromEntries(cols.filter((c) => (values[c] ?? '') !== '').map((c) => [c, values[c]]))],
        extraParameters: { includeClassScores: model.predictionDomain === 'classification', includeExplanations, ...(predictionIntervals ? { predictionIntervals } : {}) },
      });
      // Anomaly models give no explanations (the API says so with a 400): predict without them.
      if (model.predictionDomain === 'anomalies') return ask(false);
      if (model.predictionDomain !== 'regression') return ask(true);
      // A regression model gives a range around its prediction on request; one that has none says so with a 400.
      try {
        return await ask(true, PREDICTION_INTERVALS);
      } catch (e) {
        if (e instanceof ApiError && e.status === 400 && 'predictionIntervals' in (e.body.errorDetails ?? {})) return ask(true);
        throw e;
      }
    },
  });
  const answer = predict.data;
  const record = answer?.data[0];
  const outputName = model.predictionDomain === 'anomalies' ? 'anomaly' : target ?? '';
  const intervals = model.predictionDomain === 'regression' && target ? levelledIntervals(record, target) : [];
  const classScores = record && target && model.predictionDomain === 'classification' ? Object.entries(record).filter(([k]) => k.startsWith(`${target}:`) && !/:(lower|upper|contribution|explanation|shap)$/.test(k)).map(([k, v]) => ({ name: k.slice(target.length + 1), value: Number(v) })).filter((s) => Number.isFinite(s.value)) : [];
  const contributions = answer ? explanationOf(answer, 0) : undefined;
  const detail = answer ? recordExplanation(answer, 0) : undefined;
  const submit = (e: FormEvent) => { e.preventDefault(); predict.mutate(); };

  return (
    <section className="card" aria-labelledby="try-title">
      <h2 id="try-title">Try a prediction</h2>
      <p className="hint">Fill in a record (empty values are allowed) or take one from the data set, and ask the model.</p>
      <form onSubmit={submit} aria-label="Prediction input">
        <div className="predict-grid">
          {cols.map((c) => (
            <div className="field" key={c}>
              <label htmlFor={`in-${c}`}>{c}<span className="hint type-hint">{dataTypeInWords(model.columns[c]!.dataType)}</span></label>
              <input id={`in-${c}`} name={c} type={inputType(model.columns[c]!.dataType)} step="any" value={values[c] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [c]: e.target.value }))} />
            </div>
          ))}
        </div>
        <div className="actions">
          <button type="submit" className="button primary" disabled={predict.isPending}>Predict</button>
          <button type="button" className="button subtle" onClick={() => sample.mutate()} disabled={sample.isPending}>Fill from a row of {model.dataSourceName}</button>
        </div>
      </form>
      <ErrorNote error={predict.error ?? sample.error} />
      {record && (
        <div className="prediction" role="status" aria-live="polite" data-testid="prediction">
          <p className="prediction-value">{model.predictionDomain === 'anomalies' ? 'Anomaly score' : `Predicted ${outputName}`}: <strong>{model.predictionDomain === 'regression' || model.predictionDomain === 'anomalies' ? formatNumber(Number(record[outputName])) : record[outputName]}</strong>
            {model.predictionDomain === 'anomalies' && <span> — {Number(record.anomaly) < 0 ? 'anomalous' : 'normal'}</span>}</p>
          <Warnings messages={answer?.messages ?? []} testId="prediction-warnings" />
          {target && `${target}:lower` in record && <p>Interval: {formatNumber(Number(record[`${target}:lower`]))} to {formatNumber(Number(record[`${target}:upper`]))}</p>}
          {intervals.length > 0 && (
            <ul className="plain-list" data-testid="prediction-intervals">
              {intervals.map((i) => <li key={i.level}>{formatPercent(i.level)} prediction interval: <strong>{formatNumber(i.lower)} to {formatNumber(i.upper)}</strong></li>)}
            </ul>
          )}
          {classScores.length > 0 && <Chart testId="chart-class-scores" option={barsOption([...classScores].sort((a, b) => b.value - a.value), 'Score')} height={Math.max(160, 34 * classScores.length + 60)} summary={`Class scores: ${classScores.map((s) => `${s.name} ${formatNumber(s.value, 3)}`).join(', ')}`} />}
          {detail
            ? <ExplanationView key={JSON.stringify(record)} explanation={detail} preferredClass={record[outputName]} />
            : contributions
            ? <Chart testId="chart-explanation" option={barsOption([...contributions].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, 20).map((c) => ({ name: c.feature, value: c.value })), 'Contribution', true)} height={Math.max(200, 26 * Math.min(20, contributions.length) + 60)} summary="How much each value moved this prediction" />
            : <p className="hint">Explanations of single predictions appear here when the model provides them.</p>}
        </div>
      )}
    </section>
  );
}

function Snippets({ model }: { model: Model }) {
  const cols = inputColumns(model);
  const [example, setExample] = useState<Example>(() => Object.fromEntries(cols.map((c) => [c, model.columns[c]!.dataType.startsWith('numeric') ? '0' : ''])));
  // Example values from the first row of the data set, so the snippet runs as it is.
  useEffect(() => {
    void get<DataSetPage>(`/v1/data/${encodeURIComponent(model.dataSourceName)}`, { pageSize: 1 })
      .then((d) => { const row = d.data[0]; if (row) setExample(Object.fromEntries(cols.map((c) => [c, row[c] ?? '']))); })
      .catch(() => {});
  }, [model.modelId]);
  const base = window.location.origin;
  return (
    <section className="card" aria-labelledby="code-title">
      <h2 id="code-title">Call it from code</h2>
      <p>Use an API key from your <Link to="/account">account</Link> (here read from <code>$SIBYL_API_KEY</code>).</p>
      <CodeBlock label="curl" code={curlSnippet(base, model.modelId, example)} />
      <CodeBlock label="JavaScript (nexosis-api-client)" code={nexosisClientSnippet(base, model.modelId, example)} />
      <Note>The original service's other clients (Python, .NET, Ruby, Java) work too: point their base URL at <code>{base}/v1</code>.</Note>
    </section>
  );
}
