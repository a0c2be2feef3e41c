/**
 * Scores the candidates' out-of-fold predictions, adds blends (average of the best 2 and 3) and
 * picks the champion. A blend must be strictly better than every single model to win.
 */
import type { Task } from '../../frame.js';
import type { CandidateSpec } from './candidates.js';
import { ranking, scorePredictions, type ClassificationSelection, type SelectionMetric, type TaskMetrics } from './scoring.js';

export interface Contestant {
  id: string;
  algorithm: string;
  metrics: TaskMetrics;
  /** Mean fit seconds per fold (a blend: the sum over its members). */
  fitSeconds: number;
}

export interface CrossValidated {
  spec: CandidateSpec;
  /** Predictions for every row of the evaluated folds (row-major, `width` per row). */
  outOfFold: Float64Array;
  fitSeconds: number;
}

export interface Ranking {
  contestants: Contestant[];
  /** outOfFold: the champion's predictions on the evaluated rows (in their order), which calibrate its scores and intervals. */
  champion: { id: string; members: CandidateSpec[]; outOfFold: Float64Array };
  championMetric: { name: SelectionMetric; value: number };
}

const BLEND_SIZES = [2, 3];

export function rankContestants(
  task: Task,
  selectBy: ClassificationSelection,
  candidates: CrossValidated[],
  evaluatedRows: Int32Array,
  target: Float64Array,
  foldsEvaluated: number,
): Ranking {
  const { metric, ranksBefore } = ranking(task, selectBy);
  const width = task.kind === 'classification' ? task.classes.length : 1;
  const yEval = Float64Array.from(evaluatedRows, (r) => target[r]);
  const scoreOf = (oof: Float64Array) => scorePredictions(task, yEval, gatherRows(oof, evaluatedRows, width));
  const entry = (id: string, algorithm: string, members: CrossValidated[], outOfFold: Float64Array) => ({
    members,
    contestant: {
      id,
      algorithm,
      metrics: scoreOf(outOfFold),
      fitSeconds: members.reduce((a, m) => a + m.fitSeconds, 0) / foldsEvaluated,
    } satisfies Contestant,
  });
  const singles = candidates.map((c) => entry(c.spec.id, c.spec.algorithm, [c], c.outOfFold));
  singles.sort((a, b) => (ranksBefore(a.contestant.metrics, b.contestant.metrics) ? -1 : ranksBefore(b.contestant.metrics, a.contestant.metrics) ? 1 : 0));
  const blends = BLEND_SIZES.filter((m) => m <= singles.length).map((m) => {
    const members = singles.slice(0, m).map((s) => s.members[0]);
    return entry(`blend(${members.map((s) => s.spec.id).join('+')})`, 'blend', members, averageArrays(members.map((s) => s.outOfFold)));
  });
  let best = singles[0];
  for (const e of blends) if (ranksBefore(e.contestant.metrics, best.contestant.metrics)) best = e;
  return {
    contestants: [...singles, ...blends].map((e) => e.contestant),
    champion: {
      id: best.contestant.id,
      members: best.members.map((m) => m.spec),
      outOfFold: gatherRows(averageArrays(best.members.map((m) => m.outOfFold)), evaluatedRows, width),
    },
    championMetric: { name: metric, value: (best.contestant.metrics as unknown as Record<string, number>)[metric] },
  };
}

function gatherRows(a: Float64Array, rows: Int32Array, width: number): Float64Array {
  const out = new Float64Array(rows.length * width);
  for (let i = 0; i < rows.length; i++) for (let c = 0; c < width; c++) out[i * width + c] = a[rows[i] * width + c];
  return out;
}

function averageArrays(arrays: Float64Array[]): Float64Array {
  const out = new Float64Array(arrays[0].length);
  for (const a of arrays) for (let j = 0; j < out.length; j++) out[j] += a[j] / arrays.length;
  return out;
}
