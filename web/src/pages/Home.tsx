import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import { StatusBadge, usePageTitle } from '../components/ui';
import { formatDate } from '../lib/words';
import { FINISHED, type DataSetSummary, type Model, type Paged, type Session } from '../types';

/** The start page: three steps from an empty account to a model, ticked off as they are done, and recent sessions. */
export function HomePage() {
  usePageTitle('Start');
  const data = useQuery({ queryKey: ['data', 'count'], queryFn: () => get<Paged & { items: DataSetSummary[] }>('/v1/data', { pageSize: 1 }) });
  const sessions = useQuery({
    queryKey: ['sessions', 'recent'],
    queryFn: () => get<Paged & { items: Session[] }>('/v1/sessions', { pageSize: 5, sortBy: 'requestedDate', sortOrder: 'desc' }),
    refetchInterval: (q) => (q.state.data?.items.some((s) => !FINISHED.has(s.status)) ? 2000 : false),
  });
  const models = useQuery({ queryKey: ['models', 'count'], queryFn: () => get<Paged & { items: Model[] }>('/v1/models', { pageSize: 1 }) });

  const steps = [
    { done: (data.data?.totalCount ?? 0) > 0, title: 'Upload a data set', body: <>A CSV file with a header line: one row per record. <Link to="/data">Upload one</Link>.</> },
    { done: (sessions.data?.totalCount ?? 0) > 0, title: 'Start a session', body: <>Train a model (classification, regression, anomalies), forecast a series, or measure the impact of an event. <Link to="/sessions/new">Start a session</Link>.</> },
    { done: (models.data?.totalCount ?? 0) > 0, title: 'Use the model', body: <>Look at its results, try predictions in the browser, then <Link to="/account">create an API key</Link> to call it from your code.</> },
  ];

  return (
    <>
      <h1 tabIndex={-1}>Welcome to Sibyl</h1>
      <section className="card" aria-labelledby="steps-title">
        <h2 id="steps-title">Getting started</h2>
        <ol className="steps">
          {steps.map((s) => (
            <li key={s.title} className={s.done ? 'done' : undefined}>
              <span className="step-mark" aria-hidden="true">{s.done ? '✓' : ''}</span>
              <div><strong>{s.title}</strong>{s.done && <span className="visually-hidden"> (done)</span>}<p>{s.body}</p></div>
            </li>
          ))}
        </ol>
      </section>
      {(sessions.data?.items.length ?? 0) > 0 && (
        <section className="card" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent sessions</h2>
          <ul className="plain-list">
            {sessions.data!.items.map((s) => (
              <li key={s.sessionId}>
                <Link to={`/sessions/${s.sessionId}`}>{s.name ?? s.sessionId}</Link> <StatusBadge status={s.status} /> <span className="hint">{formatDate(s.requestedDate)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
