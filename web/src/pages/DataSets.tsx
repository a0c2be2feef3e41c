import { useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, get, upload } from '../api';
import { ConfirmButton, ErrorNote, Field, Note, Pager, StatusBadge, usePageTitle } from '../components/ui';
import { formatBytes, formatDate } from '../lib/words';
import { nameFromFile } from '../lib/upload-name';
import type { DataSetSummary, ImportItem, Paged } from '../types';

const PAGE_SIZE = 20;

export function DataSetsPage() {
  usePageTitle('Data sets');
  return (
    <>
      <h1 tabIndex={-1}>Data sets</h1>
      <div className="two-columns">
        <UploadCard />
        <ImportCard />
      </div>
      <DataSetList />
    </>
  );
}

function UploadCard() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [name, setName] = useState('');
  const [markers, setMarkers] = useState('');
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<{ sent: number; total: number }>();
  const [phase, setPhase] = useState<'idle' | 'sending' | 'processing'>('idle');
  const [error, setError] = useState<unknown>();
  const abort = useRef<() => void>(undefined);

  const choose = (f: File | undefined) => {
    if (!f) return;
    setFile(f);
    setError(undefined);
    if (!name) setName(nameFromFile(f.name));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.current?.click(); }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || !name) { setError(new Error(file ? 'Give the data set a name' : 'Choose a CSV file first')); return; }
    setError(undefined);
    setPhase('sending');
    setProgress({ sent: 0, total: file.size });
    const query = markers.trim() ? `?missingValues=${encodeURIComponent(markers.trim())}` : '';
    const job = upload<DataSetSummary>('PUT', `/v1/data/${encodeURIComponent(name)}${query}`, file, 'text/csv', (sent, total) => {
      setProgress({ sent, total });
      if (sent >= total) setPhase('processing');
    });
    abort.current = job.abort;
    try {
      const ds = await job.promise;
      await queryClient.invalidateQueries({ queryKey: ['data'] });
      // The data set's page shows the upload's notes (a column of day-first dates, empty columns left out): they are kept with it.
      navigate(`/data/${encodeURIComponent(ds.dataSetName)}`);
    } catch (err) {
      setError(err);
      setPhase('idle');
    }
  };
  const percent = progress && progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;

  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload a CSV file</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          role="button"
          tabIndex={0}
          aria-describedby="drop-hint"
          onClick={() => input.current?.click()}
          onKeyDown={onKey}
          onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="drop-zone"
        >
          {file ? <><strong>{file.name}</strong><span>{formatBytes(file.size)} — choose another</span></> : <><strong>Drop a CSV file here</strong><span>or press to choose one</span></>}
        </div>
        <p id="drop-hint" className="hint">The first line names the columns. Column types and roles are inferred; you can change them afterwards.</p>
        <input ref={input} type="file" accept=".csv,text/csv,text/plain" className="visually-hidden" aria-label="CSV file" tabIndex={-1} onChange={(e) => choose(e.target.files?.[0])} />
        <Field label="Data set name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} hint="Uploading to an existing name adds rows to it (rows with the same key or timestamp are replaced)." error={error instanceof ApiError ? error.field('dataSetName') : undefined} />
        <Field label="Missing values (optional)" value={markers} onChange={(e) => setMarkers(e.target.value)} placeholder="-9999, unknown" hint="What the file writes for a value it lacks, comma separated. Empty cells, NA, N/A, null and ? are missing anyway." error={error instanceof ApiError ? error.field('missingValues') : undefined} />
        {phase !== 'idle' && (
          <div className="progress">
            <label htmlFor="upload-progress">{phase === 'sending' ? `Uploading… ${percent} %` : 'Reading the rows on the server…'}</label>
            <progress id="upload-progress" max={100} value={phase === 'sending' ? percent : undefined} />
            {phase === 'sending' && <button type="button" className="button subtle small" onClick={() => abort.current?.()}>Cancel</button>}
          </div>
        )}
        <ErrorNote error={error} shownFields={['dataSetName', 'missingValues']} />
        <button className="button primary" type="submit" disabled={phase !== 'idle'}>Upload</button>
      </form>
    </section>
  );
}

function ImportCard() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const imports = useQuery({
    queryKey: ['imports'],
    queryFn: () => get<Paged & { items: ImportItem[] }>('/v1/imports', { pageSize: 5, sortBy: 'requestedDate', sortOrder: 'desc' }),
    // Live status: ask again while an import is still running.
    refetchInterval: (q) => (q.state.data?.items.some((i) => !['completed', 'failed', 'cancelled'].includes(i.status.toLowerCase())) ? 1500 : false),
  });
  const start = useMutation({
    mutationFn: () => api<ImportItem>('POST', '/v1/imports/url', { dataSetName: name, url }),
    onSuccess: () => { setUrl(''); void queryClient.invalidateQueries({ queryKey: ['imports'] }); },
  });
  const seen = useRef(new Set<string>());
  for (const i of imports.data?.items ?? []) {
    if (i.status.toLowerCase() === 'completed' && !seen.current.has(i.importId)) {
      seen.current.add(i.importId);
      void queryClient.invalidateQueries({ queryKey: ['data'] });
    }
  }
  const err = start.error instanceof ApiError ? start.error : undefined;
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import from a URL</h2>
      <form onSubmit={(e) => { e.preventDefault(); start.mutate(); }} noValidate>
        <Field label="Address of a CSV or JSON file" type="url" placeholder="https://example.org/data.csv" value={url} onChange={(e) => { setUrl(e.target.value); if (!name) setName(nameFromFile(e.target.value.split('/').pop() ?? '')); }} error={err?.field('url')} />
        <Field label="Data set name" value={name} onChange={(e) => setName(e.target.value)} error={err?.field('dataSetName')} />
        <ErrorNote error={start.error} shownFields={['url', 'dataSetName']} />
        <button className="button" type="submit" disabled={start.isPending}>Import</button>
      </form>
      {(imports.data?.items.length ?? 0) > 0 && (
        <>
          <h3>Recent imports</h3>
          <ul className="plain-list imports" aria-live="polite">
            {imports.data!.items.map((i) => (
              <li key={i.importId}>
                <Link to={`/data/${encodeURIComponent(i.dataSetName)}`}>{i.dataSetName}</Link> <StatusBadge status={i.status} />
                <div className="hint">{i.parameters.url} · {formatDate(i.requestedDate)}</div>
                {i.messages.filter((m) => m.severity === 'error').map((m) => <div key={m.message} className="field-error">{m.message}</div>)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function DataSetList() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const list = useQuery({ queryKey: ['data', 'list', page], queryFn: () => get<Paged & { items: DataSetSummary[] }>('/v1/data', { page, pageSize: PAGE_SIZE, sortBy: 'lastModified', sortOrder: 'desc' }) });
  const remove = useMutation({
    mutationFn: (name: string) => api('DELETE', `/v1/data/${encodeURIComponent(name)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['data'] }),
  });
  const items = list.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="list-title">
      <h2 id="list-title">Your data sets</h2>
      <ErrorNote error={list.error ?? remove.error} />
      {list.isSuccess && items.length === 0 && <Note>No data sets yet. Upload a CSV file above to begin.</Note>}
      {items.length > 0 && (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Your data sets</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Rows</th><th scope="col">Columns</th><th scope="col">Size</th><th scope="col">Kind</th><th scope="col">Changed</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.dataSetName}>
                  <th scope="row"><Link to={`/data/${encodeURIComponent(d.dataSetName)}`}>{d.dataSetName}</Link></th>
                  <td className="num">{d.rowCount.toLocaleString()}</td>
                  <td className="num">{d.columnCount}</td>
                  <td className="num">{formatBytes(d.dataSetSize)}</td>
                  <td>{d.isTimeSeries ? 'time series' : 'table'}</td>
                  <td>{formatDate(d.lastModified)}</td>
                  <td><ConfirmButton label="Delete" confirmLabel={`Delete ${d.dataSetName}`} onConfirm={() => remove.mutate(d.dataSetName)} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={list.data?.totalPages ?? 0} onPage={setPage} label="Data set pages" />
    </section>
  );
}
