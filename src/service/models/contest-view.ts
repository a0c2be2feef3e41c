/** The contest as the /contest resource shows it: each candidate's algorithm and cross-validated metrics. */
import type { AlgorithmInfo } from '../../ml/frame.js';
import { makeLearner, type CandidateSpec, type ContestResult } from '../../ml/tabular/contest/index.js';
import type { AlgorithmView } from './model-artifact.js';
import { metricValues } from '../../domain/metric-values.js';

export interface ContestantView {
  id: string;
  algorithm: AlgorithmView;
  dataSourceProperties: string[];
  metrics: Record<string, number | 'NaN'>;
}

export interface ContestView {
  championMetric: string;
  champion: ContestantView;
  contestants: ContestantView[];
}

/** Missing values are left to each learner (GBDT learns a side, linear models impute). */
const DATA_SOURCE_PROPERTIES = ['Imputed'];

export function algorithmView(a: AlgorithmInfo): AlgorithmView {
  return { name: a.name, description: a.description, key: a.key };
}

export function contestView(result: ContestResult, candidates: CandidateSpec[]): ContestView {
  const specs = new Map(candidates.map((c) => [c.id, c]));
  const algorithmOf = (id: string, key: string): AlgorithmView => {
    const spec = specs.get(id);
    if (spec) return algorithmView(makeLearner(spec, 'final').algorithm);
    const stacked = id.startsWith('stack(');
    const members = id.replace(/^(blend|stack)\(|\)$/g, '').split('+').map((m) => m.replace(':', ' weight '));
    return { name: 'Blend', description: `${stacked ? 'Weighted average' : 'Average'} of the predictions of ${members.join(', ')}`, key };
  };
  const contestants = result.contestants.map((c) => ({
    id: c.id,
    algorithm: algorithmOf(c.id, c.algorithm),
    dataSourceProperties: DATA_SOURCE_PROPERTIES,
    metrics: metricValues(c.metrics as unknown as Record<string, number>),
  }));
  const champion = contestants.find((c) => c.id === result.champion.id) ?? contestants[0]!;
  return { championMetric: result.championMetric.name, champion, contestants };
}
