import { useState } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get } from '../api';
import { ConfirmButton, ErrorNote, Note, Pager, formatMetric, usePageTitle } from '../components/ui';
import { formatDate, metricLabel } from '../lib/words';
import type { Model, Paged } from '../types';

export const HEADLINE: Record<string, string> = { classification: 'macroAverageF1Score', regression: 'rootMeanSquareError', anomalies: 'percentAnomalies' };

export function ModelsPage() {
  usePageTitle('Models');
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const list = useQuery({ queryKey: ['models', 'list', page], queryFn: () => get<Paged & { items: Model[] }>('/v1/models', { page, pageSize: 25 }), placeholderData: keepPreviousData });
  const remove = useMutation({ mutationFn: (id: string) => api('DELETE', `/v1/models/${id}`), onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['models'] }) });
  const items = list.data?.items ?? [];
  return (
    <>
      <h1 tabIndex={-1}>Models</h1>
      <ErrorNote error={list.error ?? remove.error} />
      {list.isSuccess && items.length === 0 && <Note>No models yet. A model session that completes leaves one here. <Link to="/sessions/new?type=model">Train a model</Link>.</Note>}
      {items.length > 0 && (
        <section className="card">
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">Models</caption>
              <thead><tr><th scope="col">Model</th><th scope="col">Domain</th><th scope="col">Data set</th><th scope="col">Algorithm</th><th scope="col">Headline metric</th><th scope="col">Created</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {items.map((m) => {
                  const metric = HEADLINE[m.predictionDomain];
                  return (
                    <tr key={m.modelId}>
                      <th scope="row"><Link to={`/models/${m.modelId}`}><code>{m.modelId.slice(0, 8)}</code></Link></th>
                      <td>{m.predictionDomain}</td>
                      <td><Link to={`/data/${encodeURIComponent(m.dataSourceName)}`}>{m.dataSourceName}</Link></td>
                      <td>{m.algorithm.name}</td>
                      <td>{metric && m.metrics[metric] !== undefined ? `${metricLabel(metric)} ${formatMetric(metric, m.metrics[metric])}` : '—'}</td>
                      <td>{formatDate(m.createdDate)}</td>
                      <td><ConfirmButton label="Delete" confirmLabel="Delete model" onConfirm={() => remove.mutate(m.modelId)} /></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={list.data?.totalPages ?? 0} onPage={setPage} label="Model pages" />
        </section>
      )}
    </>
  );
}
