/**
 * Scores the candidates' out-of-fold predictions, adds blends (average of the best 2 and 3) and
 * picks the champion. A blend must be strictly better than every single model to win. With the
 * one-standard-error rule the champion is instead the simplest contestant whose per-row loss is
 * within one standard error of the best one's (see oneStandardErrorChoice).
 */
import type { Task } from '../../frame.js';
import type { CandidateSpec } from './candidates.js';
import { ranking, scorePredictions, type ClassificationSelection, type SelectionMetric, type TaskMetrics } from './scoring.js';
import { classificationStackWeights, regressionStackWeights } from './stacking.js';

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

/**
 * 'best-mean': the contestant with the best cross-validated metric. 'one-standard-error': the
 * simplest contestant not worse than that one by more than one standard error of the paired per-row
 * loss difference (log loss or squared error), so a near-tie on the rows seen goes to the model with
 * fewer ways to overfit them.
 */
export type SelectionRule = 'best-mean' | 'one-standard-error' | 'linear-within-one-standard-error';

/**
 * The ensembles that compete beside the single candidates: 'average' = equal-weight blends of the
 * best 2 and 3; 'stack' = also a non-negative stack of every candidate (stacking.ts).
 */
export type EnsembleKind = 'average' | 'stack';

export interface Ranking {
  contestants: Contestant[];
  /** outOfFold: the champion's predictions on the evaluated rows (in their order), which calibrate its scores and intervals. */
  /** weights: of each member's predictions (summing to 1); equal when absent. */
  champion: { id: string; members: CandidateSpec[]; weights?: number[]; outOfFold: Float64Array };
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
  rule: SelectionRule = 'best-mean',
  ensembles: EnsembleKind = 'average',
): Ranking {
  const { metric, ranksBefore } = ranking(task, selectBy);
  const width = task.kind === 'classification' ? task.classes.length : 1;
  const yEval = Float64Array.from(evaluatedRows, (r) => target[r]);
  const scoreOf = (oof: Float64Array) => scorePredictions(task, yEval, gatherRows(oof, evaluatedRows, width));
  const entry = (id: string, algorithm: string, members: CrossValidated[], outOfFold: Float64Array, weights?: number[]) => ({
    members,
    weights: weights ?? members.map(() => 1 / members.length),
    outOfFold,
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
  if (ensembles === 'stack' && singles.length > 1) {
    const stack = stackEntry(task, singles.map((s) => s.members[0]), evaluatedRows, yEval, width);
    if (stack) blends.push(entry(`stack(${stack.members.map((m, j) => `${m.spec.id}:${stack.weights[j].toFixed(2)}`).join('+')})`, 'blend', stack.members, stack.outOfFold, stack.weights));
  }
  let best = singles[0];
  for (const e of blends) if (ranksBefore(e.contestant.metrics, best.contestant.metrics)) best = e;
  if (rule !== 'best-mean' && (task.kind === 'regression' || selectBy === 'logLoss')) {
    const lossOf = (e: typeof best) => rowLosses(task, yEval, gatherRows(e.outOfFold, evaluatedRows, width));
    const complexityOf = rule === 'one-standard-error'
      ? (e: typeof best) => e.members.reduce((a, m) => a + complexity(m.spec), 0)
      : (e: typeof best) => (e.members.length === 1 && e.members[0].spec.algorithm === 'linear' ? 1 : 2);
    best = oneStandardErrorChoice([...singles, ...blends], best, lossOf, complexityOf);
  }
  return {
    contestants: [...singles, ...blends].map((e) => e.contestant),
    champion: {
      id: best.contestant.id,
      members: best.members.map((m) => m.spec),
      ...(best.members.length > 1 ? { weights: best.weights } : {}),
      outOfFold: gatherRows(best.outOfFold, evaluatedRows, width),
    },
    championMetric: { name: metric, value: (best.contestant.metrics as unknown as Record<string, number>)[metric] },
  };
}

/** Linear models have the fewest ways to fit noise, tree ensembles more, a blend the sum of its members'. */
function complexity(spec: CandidateSpec): number {
  return spec.algorithm === 'linear' ? 1 : 2;
}

/** Per-row loss of the selection metric: −ln p(true class) (clipped as classificationMetrics) or the squared error. */
function rowLosses(task: Task, y: Float64Array, predictions: Float64Array): Float64Array {
  if (task.kind === 'regression') return Float64Array.from(y, (v, i) => (v - predictions[i]) ** 2);
  const k = task.classes.length;
  return Float64Array.from(y, (c, i) => -Math.log(Math.min(1, Math.max(1e-15, predictions[i * k + c]))));
}

/**
 * The one-standard-error rule: among contestants whose mean loss exceeds the best one's by at most one
 * standard error of the paired row-wise difference, the least complex; ties in complexity go to the
 * better mean (the earlier in ranked order).
 */
function oneStandardErrorChoice<E>(entries: E[], best: E, lossOf: (e: E) => Float64Array, complexityOf: (e: E) => number): E {
  const bestLoss = lossOf(best);
  const n = bestLoss.length;
  let chosen = best;
  for (const e of entries) {
    if (e === best || complexityOf(e) >= complexityOf(chosen)) continue;
    const loss = lossOf(e);
    let mean = 0;
    for (let i = 0; i < n; i++) mean += (loss[i] - bestLoss[i]) / n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (loss[i] - bestLoss[i] - mean) ** 2;
    const standardError = Math.sqrt(ss / Math.max(1, n - 1) / n);
    if (mean <= standardError) chosen = e;
  }
  return chosen;
}

/** The stack of all candidates with its members (weight > 0), their weights and out-of-fold predictions; null when one member is left. */
function stackEntry(task: Task, candidates: CrossValidated[], rows: Int32Array, y: Float64Array, width: number) {
  const weights = task.kind === 'classification'
    ? classificationStackWeights(candidates.map((c) => Float64Array.from(rows, (r, i) => c.outOfFold[r * width + y[i]])))
    : regressionStackWeights(candidates.map((c) => Float64Array.from(rows, (r) => c.outOfFold[r])), y);
  const members = candidates.filter((_, j) => weights[j] > 0);
  if (members.length < 2) return null;
  const kept = weights.filter((w) => w > 0);
  const outOfFold = new Float64Array(candidates[0].outOfFold.length);
  members.forEach((m, j) => {
    for (let i = 0; i < outOfFold.length; i++) outOfFold[i] += kept[j] * m.outOfFold[i];
  });
  return { members, weights: kept, outOfFold };
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
