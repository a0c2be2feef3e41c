import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, get } from '../api';
import { Checkbox, ErrorNote, Field, SelectField, usePageTitle } from '../components/ui';
import type { Columns, DataSetPage, DataSetSummary, Paged, Session } from '../types';
import { hasTimestamp } from '../lib/data-sets';
import { dataTypeInWords, listInWords } from '../lib/words';
import { suggestedDomain } from '../lib/prediction-domain';
import { useColumnStats } from './dataset/ColumnStatsTable';

type Kind = 'model' | 'forecast' | 'impact';
const KINDS: { value: Kind; label: string; hint: string }[] = [
  { value: 'model', label: 'Train a model', hint: 'Learn to predict a column (classification or regression), or find unusual rows (anomalies).' },
  { value: 'forecast', label: 'Forecast', hint: 'Predict the future values of a numeric column of a time series, with intervals.' },
  { value: 'impact', label: 'Measure an impact', hint: 'Estimate what an event changed: the series against what it would have been without it.' },
];
/** '' leaves resultInterval out: the service then follows the data's spacing (a day unless the rows are a coarser grid). */
const INTERVALS = [{ value: '', label: 'As the data' }, ...['Hour', 'Day', 'Week', 'Month', 'Quarter', 'Year'].map((i) => ({ value: i, label: i }))];

function defaultTarget(columns: Columns, numericOnly: boolean): string {
  const names = Object.keys(columns).filter((c) => !['timestamp', 'key'].includes(columns[c]!.role ?? '') && columns[c]!.dataType !== 'date');
  const usable = numericOnly ? names.filter((c) => columns[c]!.dataType.startsWith('numeric')) : names;
  return usable.find((c) => columns[c]!.role === 'target') ?? usable[usable.length - 1] ?? '';
}

/** First and last timestamp of a data set with a timestamp (a time series' rows come back in time order; others in upload order). */
function useDateRange(name: string, ds: DataSetSummary | undefined) {
  return useQuery({
    enabled: ds !== undefined && hasTimestamp(ds),
    queryKey: ['data', 'range', name, ds?.rowCount],
    queryFn: async () => {
      const ts = Object.keys(ds!.columns).find((c) => ds!.columns[c]!.role === 'timestamp')!;
      const first = await get<DataSetPage>(`/v1/data/${encodeURIComponent(name)}`, { pageSize: 1, include: [ts] });
      const last = await get<DataSetPage>(`/v1/data/${encodeURIComponent(name)}`, { pageSize: 1, page: Math.max(0, first.totalCount - 1), include: [ts] });
      return { first: first.data[0]?.[ts] ?? '', last: last.data[0]?.[ts] ?? '' };
    },
  });
}

export function NewSessionPage() {
  usePageTitle('New session');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [kind, setKind] = useState<Kind>((params.get('type') as Kind) ?? 'model');
  const [dataSet, setDataSet] = useState(params.get('dataSet') ?? '');
  const list = useQuery({ queryKey: ['data', 'all-names'], queryFn: () => get<Paged & { items: DataSetSummary[] }>('/v1/data', { pageSize: 1000, sortBy: 'lastModified', sortOrder: 'desc' }) });
  const sets = list.data?.items ?? [];
  const choices = kind === 'model' ? sets : sets.filter(hasTimestamp);
  // Only a fresh list may overrule the data set in the address (a cached one may predate an upload).
  useEffect(() => {
    if (!list.isFetching && choices.length > 0 && !choices.some((d) => d.dataSetName === dataSet)) setDataSet(choices[0]!.dataSetName);
  }, [list.isFetching, choices, dataSet]);
  const ds = list.isFetching ? undefined : sets.find((d) => d.dataSetName === dataSet);

  return (
    <>
      <p className="breadcrumb"><Link to="/sessions">Sessions</Link> ›</p>
      <h1 tabIndex={-1}>New session</h1>
      <ErrorNote error={list.error} />
      <fieldset className="kind-choice">
        <legend>What do you want to do?</legend>
        {KINDS.map((k) => (
          <label key={k.value} className={`kind-option${kind === k.value ? ' selected' : ''}`}>
            <input type="radio" name="kind" value={k.value} checked={kind === k.value} onChange={() => setKind(k.value)} />
            <span><strong>{k.label}</strong><span className="hint">{k.hint}</span></span>
          </label>
        ))}
      </fieldset>
      {list.isSuccess && choices.length === 0 && (
        <p className="note info">{kind === 'model' ? 'Upload a data set first.' : 'Forecasts and impact analyses need a time series: a data set with a date column that identifies each row.'} <Link to="/data">Go to data sets</Link>.</p>
      )}
      {choices.length > 0 && (
        <div className="stacked-form"><SelectField label="Data set" value={dataSet} onChange={(e) => setDataSet(e.target.value)} options={choices.map((d) => ({ value: d.dataSetName, label: `${d.dataSetName} (${d.rowCount.toLocaleString()} rows)` }))} /></div>
      )}
      {ds && kind === 'model' && <ModelForm key={ds.dataSetName} ds={ds} onCreated={(s) => navigate(`/sessions/${s.sessionId}`)} />}
      {ds && kind !== 'model' && <SeriesForm key={`${kind}-${ds.dataSetName}`} kind={kind} ds={ds} onCreated={(s) => navigate(`/sessions/${s.sessionId}`)} />}
    </>
  );
}

/** Roles a session may give the data set's columns for itself (the stored metadata stays as it is). */
function ColumnRoles({ columns, roles, setRole, fixed, note }: { columns: Columns; roles: Record<string, string>; setRole: (c: string, r: string) => void; fixed: Set<string>; note: string }) {
  const free = Object.keys(columns).filter((c) => !fixed.has(c));
  if (free.length === 0) return null;
  return (
    <details className="column-roles" open={free.length <= 12}>
      <summary>Columns ({free.filter((c) => roles[c] === 'feature').length} of {free.length} used as features)</summary>
      <p className="hint">{note}</p>
      <div className="roles-grid">
        {free.map((c) => (
          <label key={c} className="role-item">
            <span>{c} <span className="hint" data-testid="column-type">{dataTypeInWords(columns[c]!.dataType)}</span></span>
            <select aria-label={`Role of ${c}`} value={roles[c] ?? 'feature'} onChange={(e) => setRole(c, e.target.value)}>
              <option value="feature">feature</option>
              <option value="none">not used</option>
              <option value="key">key</option>
            </select>
          </label>
        ))}
      </div>
    </details>
  );
}

function rolesPatch(columns: Columns, roles: Record<string, string>): Record<string, { role: string }> {
  return Object.fromEntries(Object.entries(roles).filter(([c, r]) => (columns[c]!.role ?? 'feature') !== r).map(([c, r]) => [c, { role: r }]));
}

/** Starting a session from a form: busy while the request is out, the API's error (per field too) when it fails. */
function useSessionStart(onCreated: (s: Session) => void) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const start = async (path: string, body: Record<string, unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await api<Session>('POST', path, body));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const fieldError = (f: string) => (error instanceof ApiError ? error.field(f) : undefined);
  return { error, busy, start, fieldError };
}

function ModelForm({ ds, onCreated }: { ds: DataSetSummary; onCreated: (s: Session) => void }) {
  const [target, setTarget] = useState(defaultTarget(ds.columns, false));
  const stats = useColumnStats(ds.dataSetName);
  const suggestion = ds.columns[target] ? suggestedDomain(target, ds.columns[target]!, stats.data?.columns[target]) : undefined;
  // The domain follows the target until the user picks one; a new target is a new suggestion (anomalies have no target and stay).
  const [chosenDomain, setChosenDomain] = useState<string>();
  const domain = chosenDomain ?? suggestion?.domain ?? 'classification';
  const chooseTarget = (t: string) => {
    setTarget(t);
    if (chosenDomain !== 'anomalies') setChosenDomain(undefined);
  };
  const [balance, setBalance] = useState(true);
  const [containsAnomalies, setContainsAnomalies] = useState(true);
  const [anomalyShare, setAnomalyShare] = useState('');
  // Its problem shows once the form was sent, not while the number is being typed.
  const [shareChecked, setShareChecked] = useState(false);
  const [name, setName] = useState('');
  const [callbackUrl, setCallbackUrl] = useState('');
  const [roles, setRoles] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(ds.columns).map(([c, m]) => [c, m.role === 'none' ? 'none' : m.role === 'key' ? 'key' : 'feature'])));
  const { error, busy, start: startSession, fieldError: fe } = useSessionStart(onCreated);
  const targets = Object.keys(ds.columns).filter((c) => ds.columns[c]!.role !== 'timestamp');
  const fixed = useMemo(() => new Set(Object.keys(ds.columns).filter((c) => (domain !== 'anomalies' && c === target) || ds.columns[c]!.role === 'timestamp')), [ds, domain, target]);

  const share = domain === 'anomalies' && containsAnomalies && anomalyShare.trim() ? shareOf(anomalyShare) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setShareChecked(true);
    if (share && 'problem' in share) return;
    const columns: Record<string, { role: string }> = rolesPatch(ds.columns, Object.fromEntries(Object.entries(roles).filter(([c]) => !fixed.has(c))));
    if (domain !== 'anomalies') columns[target] = { role: 'target' };
    await startSession('/v1/sessions/model', {
      dataSourceName: ds.dataSetName, predictionDomain: domain,
      ...(domain !== 'anomalies' ? { targetColumn: target } : {}),
      ...(domain === 'classification' ? { balance } : {}),
      ...(domain === 'anomalies' ? { extraParameters: { containsAnomalies, ...(share && 'fraction' in share ? { contamination: share.fraction } : {}) } } : {}),
      ...(name ? { name } : {}), ...(callbackUrl ? { callbackUrl } : {}),
      columns,
    });
  };
  return (
    <form className="card stacked-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Model session">
      <SelectField label="Prediction domain" value={domain} onChange={(e) => setChosenDomain(e.target.value)} error={fe('predictionDomain')}
        hint={chosenDomain === undefined && suggestion ? `Suggested: ${suggestion.reason}` : undefined} options={[
        { value: 'classification', label: 'Classification — predict a category' },
        { value: 'regression', label: 'Regression — predict a number' },
        { value: 'anomalies', label: 'Anomalies — find unusual rows' },
      ]} />
      {domain !== 'anomalies' && <SelectField label="Target column" hint="The column the model learns to predict." value={target} onChange={(e) => chooseTarget(e.target.value)} options={targets} error={fe('targetColumn')} />}
      {domain === 'classification' && <Checkbox label="Balance the classes" hint="Predicts rarer classes as often as if every class were equally common (the default)." checked={balance} onChange={(e) => setBalance(e.target.checked)} />}
      {domain === 'anomalies' && <Checkbox label="The data contains anomalies" hint="Off: every row is taken as normal, and the model learns what normal looks like." checked={containsAnomalies} onChange={(e) => setContainsAnomalies(e.target.checked)} />}
      {domain === 'anomalies' && containsAnomalies && (
        <Field label="Share of anomalies (%), if you know it" inputMode="decimal" value={anomalyShare} onChange={(e) => setAnomalyShare(e.target.value)} error={(shareChecked && share && 'problem' in share ? share.problem : undefined) ?? fe('extraParameters.contamination')}
          hint="Up to 50. Empty: estimated from the data, which is rough on small tables. The API calls it extraParameters.contamination, a fraction." />
      )}
      <ColumnRoles columns={ds.columns} roles={roles} setRole={(c, r) => setRoles((x) => ({ ...x, [c]: r }))} fixed={fixed} note="Features are what the model learns from. Leave out identifiers and anything not known at prediction time. A key column identifies rows in the results." />
      <details>
        <summary>More options</summary>
        <Field label="Name" hint="Shown in lists; a default names the data set." value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Callback URL" type="url" hint="Receives a POST with the session at each status change." value={callbackUrl} onChange={(e) => setCallbackUrl(e.target.value)} error={fe('callbackUrl')} />
      </details>
      <ErrorNote error={error} shownFields={['predictionDomain', 'targetColumn', 'callbackUrl', 'extraParameters.contamination']} />
      <button className="button primary" type="submit" disabled={busy}>{busy ? 'Starting…' : 'Start training'}</button>
    </form>
  );
}

/** A percentage typed in the form ('5', '2.5 %', '2,5') as the fraction the API takes, or why it is not one it accepts (0 to 50 %). */
function shareOf(percent: string): { fraction: number } | { problem: string } {
  const x = Number(percent.trim().replace(/\s*%$/, '').replace(',', '.'));
  return Number.isFinite(x) && x > 0 && x <= 50 ? { fraction: x / 100 } : { problem: 'Give a percentage above 0 and at most 50, such as 5, or leave it empty.' };
}

function toDateInput(iso: string): string {
  return iso ? iso.slice(0, 10) : '';
}

function SeriesForm({ kind, ds, onCreated }: { kind: 'forecast' | 'impact'; ds: DataSetSummary; onCreated: (s: Session) => void }) {
  const range = useDateRange(ds.dataSetName, ds);
  const timestamp = Object.keys(ds.columns).find((c) => ds.columns[c]!.role === 'timestamp');
  const numeric = Object.keys(ds.columns).filter((c) => c !== timestamp && ds.columns[c]!.dataType.startsWith('numeric'));
  const [target, setTarget] = useState(defaultTarget(ds.columns, true));
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [interval, setResultInterval] = useState('');
  const [eventName, setEventName] = useState('');
  const [name, setName] = useState('');
  const [callbackUrl, setCallbackUrl] = useState('');
  // Forecast features need values over the forecast period, which new data rarely has: off unless chosen.
  const [roles, setRoles] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(ds.columns).map(([c, m]) => [c, kind === 'forecast' ? 'none' : m.role === 'none' ? 'none' : 'feature'])));
  const { error, busy, start: startSession, fieldError: fe } = useSessionStart(onCreated);
  const fixed = useMemo(() => new Set([target, ...(timestamp ? [timestamp] : [])]), [target, timestamp]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const columns: Record<string, { role: string }> = { ...rolesPatch(ds.columns, Object.fromEntries(Object.entries(roles).filter(([c]) => !fixed.has(c)))), [target]: { role: 'target' } };
    await startSession(`/v1/sessions/${kind}`, {
      dataSourceName: ds.dataSetName, targetColumn: target, ...(interval ? { resultInterval: interval } : {}),
      ...(start ? { startDate: start } : {}), ...(end ? { endDate: end } : {}),
      ...(kind === 'impact' ? { eventName } : {}),
      ...(name ? { name } : {}), ...(callbackUrl ? { callbackUrl } : {}),
      columns,
    });
  };
  const fields = ['targetColumn', 'startDate', 'endDate', 'resultInterval', 'eventName', 'callbackUrl'];
  // An impact needs its event named and its window; the button says which of them are still empty.
  const missing = kind === 'impact' ? [...(eventName.trim() ? [] : ['the event name']), ...(start ? [] : ['the start of the event window']), ...(end ? [] : ['the end of the event window'])] : [];
  return (
    <form className="card stacked-form" onSubmit={(e) => void submit(e)} noValidate aria-label={kind === 'forecast' ? 'Forecast session' : 'Impact session'}>
      {range.data && <p className="hint">The data runs from {toDateInput(range.data.first)} to {toDateInput(range.data.last)}.</p>}
      <SelectField label={kind === 'forecast' ? 'Column to forecast' : 'Column the event may have changed'} value={target} onChange={(e) => setTarget(e.target.value)} options={numeric} error={fe('targetColumn')} />
      <SelectField label="Period" hint="The length of one step of the series; values within a period are aggregated. As the data: the spacing of its rows (a day for irregular rows)." value={interval} onChange={(e) => setResultInterval(e.target.value)} options={INTERVALS} error={fe('resultInterval')} />
      {kind === 'impact' && <Field label="Event name (required)" required hint="What happened, e.g. “new law”, “price change”." value={eventName} onChange={(e) => setEventName(e.target.value)} error={fe('eventName')} />}
      <div className="two-fields">
        <Field label={kind === 'forecast' ? 'Forecast from' : 'Event window starts (required)'} required={kind === 'impact'} type="date" hint={kind === 'forecast' ? 'Empty: right after the last observation. At the latest the last date in the data.' : 'The first period the event may have affected.'} value={start} onChange={(e) => setStart(e.target.value)} error={fe('startDate')} />
        <Field label={kind === 'forecast' ? 'Forecast until' : 'Event window ends (required)'} required={kind === 'impact'} type="date" hint={kind === 'forecast' ? 'Empty: one seasonal cycle.' : 'The last period of the window.'} value={end} onChange={(e) => setEnd(e.target.value)} error={fe('endDate')} />
      </div>
      <ColumnRoles columns={ds.columns} roles={roles} setRole={(c, r) => setRoles((x) => ({ ...x, [c]: r }))} fixed={fixed} note={kind === 'forecast'
        ? 'A feature must have values over the whole forecast period (upload them as future rows first).'
        : 'Features are controls: series the event did not change, which help predict what would have happened. Mark the event itself, and anything it changed, as not used.'} />
      <details>
        <summary>More options</summary>
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Callback URL" type="url" hint="Receives a POST with the session at each status change." value={callbackUrl} onChange={(e) => setCallbackUrl(e.target.value)} error={fe('callbackUrl')} />
      </details>
      <ErrorNote error={error} shownFields={fields} />
      {missing.length > 0 && <p className="hint" id="impact-missing" data-testid="impact-missing">To start, fill in {listInWords(missing)}.</p>}
      <button className="button primary" type="submit" disabled={busy || missing.length > 0} aria-describedby={missing.length > 0 ? 'impact-missing' : undefined}>{busy ? 'Starting…' : kind === 'forecast' ? 'Start forecast' : 'Start impact analysis'}</button>
    </form>
  );
}
