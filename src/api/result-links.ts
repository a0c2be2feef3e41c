/**
 * The parts of a completed session's results beside its rows, each with the rule that says whether the
 * session offers it: the sub-resources answer 404 by these rules, and `GET /sessions/<id>/results` links
 * to the parts that answer, as the original service did (compat-notes §4.4: `self`, `contest`,
 * `prediction-interval:<p>`, …, then the paging links), so that a client can discover them.
 */
import type { SessionRecord, SessionResults } from '../store/sessions-store.js';
import { INTERVAL_PART_PREFIX } from '../store/result-pages.js';
import { isPlainObject } from '../domain/lenient.js';
import { contestOf } from './session-contest.js';
import type { Link } from './paging.js';

export type ResultPartRule = (s: SessionRecord, r: SessionResults) => boolean;

/** Outliers are a forecast's, before it completes too (an empty list until then). */
export const offersOutliers = (s: SessionRecord): boolean => s.type === 'forecast';

/** By rel, in the order the links list them: the path under /sessions/<id> and whether the session offers it. */
export const RESULT_PARTS = {
  contest: { path: 'contest', offered: (s, r) => contestOf(s, r) !== undefined },
  outliers: { path: 'results/outliers', offered: offersOutliers },
  confusionMatrix: { path: 'results/confusionmatrix', offered: (_s, r) => Array.isArray(r.extra.confusionMatrix) },
  classScores: { path: 'results/classscores', offered: (_s, r) => 'classScores' in r.parts },
  anomalyScores: { path: 'results/anomalyscores', offered: (_s, r) => 'anomalyScores' in r.parts },
  mahalanobisDistances: { path: 'results/mahalanobisdistances', offered: (_s, r) => 'anomalyScores' in r.parts },
  featureImportance: { path: 'results/featureimportance', offered: (_s, r) => isPlainObject(r.extra.featureImportance) },
} satisfies Record<string, { path: string; offered: ResultPartRule }>;

/** The interval levels a session's results hold rows for ("0.05" … "0.95"), ascending. */
export function intervalLevels(r: SessionResults): string[] {
  return Object.keys(r.parts).filter((p) => p.startsWith(INTERVAL_PART_PREFIX)).map((p) => p.slice(INTERVAL_PART_PREFIX.length)).sort((a, b) => Number(a) - Number(b));
}

/**
 * Links to the parts the session offers: its contest, a `prediction-interval:<p>` link per interval level
 * (to the rows of that level: the original's href left out `/results`, which led to the session instead),
 * then the other parts.
 */
export function resultLinks(base: string, s: SessionRecord, r: SessionResults): Link[] {
  const session = `${base}/sessions/${s.id}`;
  const part = (rel: keyof typeof RESULT_PARTS): Link[] => (RESULT_PARTS[rel].offered(s, r) ? [{ rel, href: `${session}/${RESULT_PARTS[rel].path}` }] : []);
  return [
    ...part('contest'),
    ...intervalLevels(r).map((level) => ({ rel: `prediction-interval:${level}`, href: `${session}/results?predictionInterval=${level}` })),
    ...(['outliers', 'confusionMatrix', 'classScores', 'anomalyScores', 'mahalanobisDistances', 'featureImportance'] as const).flatMap(part),
  ];
}
