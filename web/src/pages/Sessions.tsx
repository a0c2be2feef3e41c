import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get } from '../api';
import { ConfirmButton, ErrorNote, Note, Pager, StatusBadge, usePageTitle } from '../components/ui';
import { formatDate } from '../lib/words';
import { FINISHED, type Paged, type Session } from '../types';

export function kindOf(s: Pick<Session, 'type' | 'predictionDomain'>): string {
  return s.type === 'model' ? s.predictionDomain : s.type;
}

/** Every session, newest first; the list asks again every two seconds while any is still running. */
export function SessionsPage() {
  usePageTitle('Sessions');
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const dataSourceName = params.get('dataSourceName') ?? undefined;
  const [page, setPage] = useState(0);
  const list = useQuery({
    queryKey: ['sessions', 'list', dataSourceName, page],
    queryFn: () => get<Paged & { items: Session[] }>('/v1/sessions', { page, pageSize: 25, sortBy: 'requestedDate', sortOrder: 'desc', dataSourceName }),
    refetchInterval: (q) => (q.state.data?.items.some((s) => !FINISHED.has(s.status)) ? 2000 : false),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('DELETE', `/v1/sessions/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  const items = list.data?.items ?? [];
  return (
    <>
      <h1 tabIndex={-1}>Sessions{dataSourceName ? ` on ${dataSourceName}` : ''}</h1>
      <div className="actions">
        <Link className="button primary" to={`/sessions/new${dataSourceName ? `?dataSet=${encodeURIComponent(dataSourceName)}` : ''}`}>New session</Link>
        {dataSourceName && <Link className="button subtle" to="/sessions">All sessions</Link>}
      </div>
      <ErrorNote error={list.error ?? remove.error} />
      {list.isSuccess && items.length === 0 && <Note>No sessions yet. A session trains a model, forecasts a series, or measures the impact of an event.</Note>}
      {items.length > 0 && (
        <section className="card">
          <div className="table-scroll">
            <table aria-live="polite">
              <caption className="visually-hidden">Sessions, newest first; statuses update by themselves</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Data set</th><th scope="col">Status</th><th scope="col">Requested</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {items.map((s) => (
                  <tr key={s.sessionId} data-session-id={s.sessionId}>
                    <th scope="row"><Link to={`/sessions/${s.sessionId}`}>{s.name ?? s.sessionId}</Link></th>
                    <td>{kindOf(s)}</td>
                    <td><Link to={`/data/${encodeURIComponent(s.dataSourceName)}`}>{s.dataSourceName}</Link></td>
                    <td><StatusBadge status={s.status} /></td>
                    <td>{formatDate(s.requestedDate)}</td>
                    <td><ConfirmButton label="Delete" confirmLabel="Delete session" disabled={!FINISHED.has(s.status)} onConfirm={() => remove.mutate(s.sessionId)} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={list.data?.totalPages ?? 0} onPage={setPage} label="Session pages" />
        </section>
      )}
    </>
  );
}
