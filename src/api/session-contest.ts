/** A completed session's contest as the /contest resource shows it (routes/contest.ts), or none. */
import type { SessionRecord, SessionResults } from '../store/sessions-store.js';
import type { ContestantView, ContestView } from '../service/models/contest-view.js';
import { isPlainObject } from '../domain/lenient.js';

/** The contest as stored, or for a forecast the chosen method scored on its holdout periods. */
export function contestOf(session: SessionRecord, results: SessionResults): ContestView | undefined {
  if (isPlainObject(results.extra.contest)) return results.extra.contest as unknown as ContestView;
  if (session.type !== 'forecast' || !session.algorithm) return undefined;
  const algorithm = session.algorithm as unknown as ContestantView['algorithm'];
  const metrics = Object.fromEntries(Object.entries(results.metrics).filter(([, v]) => typeof v === 'number' || v === 'NaN')) as ContestantView['metrics'];
  const champion: ContestantView = {
    id: algorithm.key || algorithm.name,
    algorithm,
    dataSourceProperties: results.extra.smoothed ? ['Aggregated', 'Imputed', 'Smoothed'] : ['Aggregated', 'Imputed'],
    metrics,
  };
  return { championMetric: 'meanAbsoluteError', champion, contestants: [champion] };
}
