import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getAll } from '../../api';
import { ErrorNote, Pager, RecordTable, SelectField } from '../../components/ui';
import { formatSignificant } from '../../lib/words';
import type { Session } from '../../types';

const PAGE_SIZE = 20;

/** Columns the session wrote (the score, its tail probability), shown rounded: their full precision is noise. */
const isScoreColumn = (c: string) => c === 'anomaly' || c.startsWith('anomaly:');
/** Their headers in words: the API's field names say nothing to a reader. */
const SCORE_HEADERS: Record<string, string> = { anomaly: 'anomaly score', 'anomaly:tailProbability': 'tail probability' };
const header = (c: string) => (isScoreColumn(c) ? SCORE_HEADERS[c] ?? c : c);

/**
 * The rows scored anomalous, most unusual (lowest score) first unless the data's own order is chosen.
 * The results API pages in row order only, so the rows are fetched whole and sorted here.
 */
export function AnomalousRows({ session }: { session: Session }) {
  const id = session.sessionId;
  const rows = useQuery({ queryKey: ['results', id, 'anomalous-rows'], queryFn: () => getAll<Record<string, string>>(`/v1/sessions/${id}/results`) });
  const [order, setOrder] = useState<'score' | 'data'>('score');
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => {
    const all = rows.data?.rows ?? [];
    return order === 'score' ? [...all].sort((a, b) => Number(a.anomaly) - Number(b.anomaly)) : all;
  }, [rows.data, order]);
  const shown = sorted.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [header(k), isScoreColumn(k) && v !== '' ? formatSignificant(Number(v), 3) : v])));
  const fields = sorted[0] ? Object.keys(sorted[0]) : [];
  const columns = [...fields.filter(isScoreColumn), ...fields.filter((c) => !isScoreColumn(c))].map(header);
  return (
    <section className="card" aria-labelledby="anomalous-rows-title">
      <ErrorNote error={rows.error} />
      {rows.data && (
        <>
          <h3 id="anomalous-rows-title">Anomalous rows ({rows.data.total.toLocaleString()})</h3>
          {sorted.length === 0 ? <p>No row was scored as anomalous.</p> : (
            <>
              <SelectField label="Order" value={order} onChange={(e) => { setOrder(e.target.value as 'score' | 'data'); setPage(0); }}
                options={[{ value: 'score', label: 'Most unusual first (lowest score)' }, { value: 'data', label: 'As in the data' }]} />
              <RecordTable rows={shown} columns={columns} highlight={(c) => c === SCORE_HEADERS.anomaly}
                caption={`Rows scored below zero; the lower the score, the more unusual the row.${fields.includes('anomaly:tailProbability') ? ' Tail probability: the share of training rows that looked at least as anomalous.' : ''} Scores and probabilities to 3 significant digits.`} />
              <Pager page={page} totalPages={Math.ceil(sorted.length / PAGE_SIZE)} onPage={setPage} label="Anomalous row pages" />
            </>
          )}
        </>
      )}
    </section>
  );
}
