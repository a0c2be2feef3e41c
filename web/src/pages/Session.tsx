import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import { AddressError, ErrorNote, Note, StatusBadge, Warnings, usePageTitle } from '../components/ui';
import { SessionMessages } from '../components/SessionMessages';
import { formatDate } from '../lib/words';
import { FINISHED, type Session } from '../types';
import { kindOf } from './Sessions';
import { ModelResults } from './results/ModelResults';
import { ForecastResults } from './results/ForecastResults';
import { ImpactResults } from './results/ImpactResults';

/** One session: its status, live until it ends, then its results. */
export function SessionPage() {
  const { id = '' } = useParams();
  const session = useQuery({
    queryKey: ['sessions', 'one', id],
    queryFn: () => get<Session>(`/v1/sessions/${id}`),
    refetchInterval: (q) => (q.state.data && !FINISHED.has(q.state.data.status) ? 1500 : false),
  });
  const s = session.data;
  usePageTitle(s?.name ?? 'Session');
  return (
    <>
      <p className="breadcrumb"><Link to="/sessions">Sessions</Link> ›</p>
      <h1 tabIndex={-1}>{s?.name ?? 'Session'}</h1>
      {session.error && <AddressError error={session.error} what="session" id={id} list={{ to: '/sessions', label: 'Your sessions' }} />}
      {s && (
        <>
          <div className="session-head" aria-live="polite">
            <StatusBadge status={s.status} />
            <span>{kindOf(s)}</span>
            <span>on <Link to={`/data/${encodeURIComponent(s.dataSourceName)}`}>{s.dataSourceName}</Link></span>
            {s.targetColumn && s.predictionDomain !== 'anomalies' && <span>target <strong>{s.targetColumn}</strong></span>}
            {s.startDate && <span>{s.startDate.slice(0, 10)} – {s.endDate?.slice(0, 10)} by {s.resultInterval?.toLowerCase()}</span>}
            {s.modelId && <Link to={`/models/${s.modelId}`}>model {s.modelId.slice(0, 8)}…</Link>}
          </div>
          <details className="history">
            <summary>Timeline and messages</summary>
            <ol className="plain-list">{s.statusHistory.map((h) => <li key={h.date + h.status}>{formatDate(h.date)} — {h.status}</li>)}</ol>
            <SessionMessages messages={s.messages} />
          </details>
          {!FINISHED.has(s.status) && <Note><span className="spinner" aria-hidden="true" /> {s.status === 'requested' ? 'Waiting for a worker…' : 'Working on it…'} This page updates by itself.</Note>}
          {s.status === 'failed' && <ErrorNote error={new Error(s.messages.filter((m) => m.severity === 'error').map((m) => m.message).join(' ') || 'The session failed.')} title="The session failed" />}
          {s.status === 'completed' && <Warnings messages={s.messages} testId="session-warnings" />}
          {s.status === 'completed' && s.type === 'model' && <ModelResults session={s} />}
          {s.status === 'completed' && s.type === 'forecast' && <ForecastResults session={s} />}
          {s.status === 'completed' && s.type === 'impact' && <ImpactResults session={s} />}
        </>
      )}
    </>
  );
}
