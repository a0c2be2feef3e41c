/**
 * Model selection: cross-validate a short list of candidates on the training rows, also score
 * blends of the best ones from their out-of-fold predictions, and pick the champion; then refit it
 * on all rows. Folds run round by round (every candidate on fold 0, then fold 1, …) so that when the
 * work budget runs out all candidates have been judged on the same rows. The budget counts work, not
 * time (training cells × candidate fits), so the same data and seed give the same contest on any
 * machine, however loaded.
 */
import type { FitOptions, Frame, Task, TrainedModel } from '../../frame.js';
import { balancedClassWeights } from '../../encode.js';
import { BlendModel } from './blend-model.js';
import { contestCandidates, makeLearner, type CandidateSpec } from './candidates.js';
import { inThreadExecutor, type CandidateExecutor } from './executor.js';
import type { ContestData, FoldJob, FoldOutcome } from './fold-job.js';
import { foldRows, forwardChainingSplits, shuffledFolds, stratifiedFolds } from './folds.js';
import { rankContestants, type CrossValidated, type EnsembleKind, type Ranking, type SelectionRule } from './rank-contestants.js';
import type { ClassificationSelection } from './scoring.js';
import { extrapolatedSquaredErrors, isScreened, screenedOut, SCREEN_TREES, treesInCv, withTrees, type ScreenEntry } from './screening.js';

export interface ContestOptions {
  seed: number;
  /**
   * Training cells (rows × feature columns) the fold fits may process in total, summed over
   * candidates; the first fold always runs. Default DEFAULT_CONTEST_WORK; Infinity = every fold.
   */
  workBudget?: number;
  /** Classification: weight classes to equal total weight (balancedClassWeights). */
  balance: boolean;
  folds?: number;
  executor?: CandidateExecutor;
  /** Classification: rank candidates by CV log loss (default) or macro-F1. */
  selectBy?: ClassificationSelection;
  /** How the champion is chosen from the cross-validated contestants (default DEFAULT_SELECTION_RULE). */
  selectionRule?: SelectionRule;
  /** Ensembles beside the single candidates (default DEFAULT_ENSEMBLES). */
  ensembles?: EnsembleKind;
  /** Override the default short list (tests, experiments). */
  candidates?: CandidateSpec[];
  /** The rows in time order, for rows a session split by time: folds chain forward (forwardChainingSplits), not at random. */
  timeOrder?: Int32Array;
}

export interface ContestResult extends Ranking {
  task: Task;
  /** Failed candidates with their error message. */
  failed: { id: string; error: string }[];
  /** Candidates dropped after their first-fold screen (screening.ts), in candidate order. */
  screenedOut: string[];
  folds: number;
  foldsEvaluated: number;
  /** Training cells the fold fits processed (what the work budget counts). */
  work: number;
  /** The rows of the evaluated folds: those `champion.outOfFold` predicts. */
  evaluatedRows: Int32Array;
  seconds: number;
}

const DEFAULT_FOLDS = 5;
/**
 * The best cross-validated contestant, now that a non-negative stack of every candidate competes
 * (DEFAULT_ENSEMBLES). Before the stack, 'linear-within-one-standard-error' was the default (issue 10:
 * it removed one set more than 0.02 AUC below its best reference on the yardstick's tuning half). With
 * the stack, on 50 of the 57 yardstick sets (bench/yardstick-cache.ts, nested CV; the 7 largest were
 * not cached in time) the tuning half went from mean AUC 0.7275 to 0.7293 (best reference 0.7286) and
 * RMSE ÷ LightGBM 0.904 → 0.898, with no set 0.02 AUC below its best reference either way; keeping the
 * linear preference with the stack lost AUC on the first 32 of them. The confirmation half agreed: AUC
 * 0.7758 → 0.7784 (best reference 0.7812), sets 0.02 below their best 2 → 1, RMSE ÷ LightGBM 0.941 → 0.927.
 */
export const DEFAULT_SELECTION_RULE: SelectionRule = 'best-mean';
/** Equal-weight blends of the best 2 and 3 and a non-negative stack of all candidates (see DEFAULT_SELECTION_RULE). */
export const DEFAULT_ENSEMBLES: EnsembleKind = 'stack';
/** The work budget of a contest on up to 10,000 rows, in training cells (contestWorkBudget). */
export const DEFAULT_CONTEST_WORK = 1_000_000;

/**
 * A contest's work budget for its number of rows: 1 million training cells up to 10,000 rows, then
 * growing with the square root of the size, at most 6 million. All five folds of the five default
 * candidates fit in it up to about 50,000 cells (3,500 rows × 13 columns, credit_data: about 9 s on
 * two idle cores, where the 3 s wall-clock budget it replaces allowed one or two folds); larger data
 * get fewer folds, down to the first alone (a 100,000-row sample × 20 columns: one fold, about as long
 * as the 60 s cap it replaces). The same data and seed always evaluate the same folds, however busy
 * the machine.
 */
export function contestWorkBudget(rows: number): number {
  return Math.round(Math.min(6 * DEFAULT_CONTEST_WORK, DEFAULT_CONTEST_WORK * Math.max(1, Math.sqrt(rows / 10_000))));
}

type CandidateState = CrossValidated;

export async function runContest(frame: Frame, target: Float64Array, task: Task, opts: ContestOptions): Promise<ContestResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  validateTarget(frame, target, task);
  const n = frame.nRows;
  const width = task.kind === 'classification' ? task.classes.length : 1;
  const splits = contestSplits(target, task, width, opts);
  const nFolds = splits.length;
  const executor = opts.executor ?? inThreadExecutor;
  const data: ContestData = { frame, target, task };
  const states = new Map<string, CandidateState>();
  const budget = opts.workBudget ?? DEFAULT_CONTEST_WORK;
  const columns = Math.max(1, frame.columns.length);
  let work = 0;
  const failed: { id: string; error: string }[] = [];

  const jobFor = (spec: CandidateSpec, fold: number): FoldJob => ({
    candidate: spec,
    fold,
    trainRows: splits[fold].train,
    testRows: splits[fold].test,
    seed: opts.seed + fold,
    balance: opts.balance,
  });
  const record = (state: CandidateState, outcome: FoldOutcome, share = 1) => {
    if (!outcome.predictions.every(Number.isFinite)) throw new Error(`${state.spec.id} predicted non-finite values`);
    const rows = splits[outcome.fold].test;
    for (let i = 0; i < rows.length; i++) {
      for (let c = 0; c < width; c++) state.outOfFold[rows[i] * width + c] = outcome.predictions[i * width + c];
    }
    state.fitSeconds += outcome.fitSeconds;
    work += share * splits[outcome.fold].train.length * columns;
  };

  const candidates = opts.candidates ?? contestCandidates(n, task.kind);
  const screenedOutIds = await runFirstRound(candidates, async (spec, part) => {
    const trees = part === 'rest' ? treesInCv(spec) - SCREEN_TREES : part === 'whole' ? 0 : SCREEN_TREES / 2;
    const job = jobFor(part === 'whole' ? spec : withTrees(spec, trees), 0);
    return executor.run(data, { ...job, seed: job.seed + PART_SEED_OFFSET[part] });
  }, (spec, outcome, share) => {
    const state: CandidateState = { spec, outOfFold: new Float64Array(n * width), fitSeconds: 0 };
    record(state, outcome, share);
    states.set(spec.id, state);
  }, (spec, share) => {
    work += share * splits[0].train.length * columns;
  }, executor, task, target, splits[0].test, failed);
  if (states.size === 0) throw new Error(`every candidate failed: ${failed.map((f) => `${f.id}: ${f.error}`).join('; ')}`);

  let foldsEvaluated = 1;
  for (let fold = 1; fold < nFolds; fold++) {
    // Candidates in their spec order, whatever order the executor finished them in.
    const active = candidates.map((c) => states.get(c.id)).filter((s): s is CandidateState => s !== undefined);
    if (work + active.length * splits[fold].train.length * columns > budget) break;
    await runJobs(executor, active, async (state) => {
      try {
        record(state, await executor.run(data, jobFor(state.spec, fold)));
      } catch (e) {
        failed.push({ id: state.spec.id, error: (e as Error).message });
        states.delete(state.spec.id);
      }
    });
    foldsEvaluated++;
  }

  const evaluatedRows = rowsOfFolds(splits, foldsEvaluated);
  const ranked = rankContestants(
    task,
    opts.selectBy ?? 'logLoss',
    candidates.map((c) => states.get(c.id)).filter((s): s is CandidateState => s !== undefined),
    evaluatedRows,
    target,
    foldsEvaluated,
    opts.selectionRule ?? DEFAULT_SELECTION_RULE,
    opts.ensembles ?? DEFAULT_ENSEMBLES,
  );
  return { task, ...ranked, failed: sortedFailures(failed, candidates), screenedOut: candidates.filter((c) => screenedOutIds.has(c.id)).map((c) => c.id), folds: nFolds, foldsEvaluated, work, evaluatedRows, seconds: elapsed() / 1000 };
}

export interface FitChampionOptions {
  seed: number;
  balance: boolean;
  /** Threads for each refit (GBDT members: the same model on any count); default 1. */
  threads?: number;
}

/** Refits the contest's champion (each member of a blend) on all the given rows. */
export function fitChampion(frame: Frame, target: Float64Array, task: Task, result: ContestResult, opts: FitChampionOptions): TrainedModel {
  const fitOptions: FitOptions = {
    seed: opts.seed,
    weights: opts.balance && task.kind === 'classification' ? balancedClassWeights(target, task.classes.length) : undefined,
  };
  const models = result.champion.members.map((spec) => makeLearner(spec, 'final', frame.nRows, opts.threads).fit(frame, target, task, fitOptions));
  return models.length === 1 ? models[0] : new BlendModel(task, models, result.champion.weights);
}

function validateTarget(frame: Frame, target: Float64Array, task: Task): void {
  if (target.length !== frame.nRows) throw new Error(`target has ${target.length} values for ${frame.nRows} rows`);
  if (frame.nRows < 2) throw new Error(`a contest needs at least 2 rows, got ${frame.nRows}`);
  if (task.kind === 'regression') {
    if (target.some((v) => !Number.isFinite(v))) throw new Error('regression target contains missing or infinite values');
    return;
  }
  const present = new Set<number>();
  for (const v of target) {
    if (!Number.isInteger(v) || v < 0 || v >= task.classes.length) throw new Error(`class index ${v} is not in 0..${task.classes.length - 1}`);
    present.add(v);
  }
  if (present.size < 2) {
    const only = [...present].map((c) => task.classes[c]).join(', ');
    throw new Error(`classification needs at least two classes in the training data; found only: ${only || 'none'}`);
  }
}

/** Runs `work` over items with the executor's concurrency (each lane takes the next item). */
async function runJobs<T>(executor: CandidateExecutor, items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, executor.concurrency) }, lane));
}

/** Failures in candidate order: lanes finish in an order that depends on timing. */
function sortedFailures(failed: { id: string; error: string }[], candidates: CandidateSpec[]): { id: string; error: string }[] {
  const rank = new Map(candidates.map((c, i) => [c.id, i]));
  return [...failed].sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
}

/** The rows the first `nFolds` folds predict, ascending. */
function rowsOfFolds(splits: { test: Int32Array }[], nFolds: number): Int32Array {
  const rows: number[] = [];
  for (let k = 0; k < nFolds; k++) for (const r of splits[k].test) rows.push(r);
  return Int32Array.from(rows).sort();
}

/** Each fold's training and held-out rows: seeded random folds (by class in classification), or forward-chaining ones in time order. */
function contestSplits(target: Float64Array, task: Task, width: number, opts: ContestOptions): { train: Int32Array; test: Int32Array }[] {
  const n = target.length;
  if (opts.timeOrder) return forwardChainingSplits(opts.timeOrder, opts.folds ?? DEFAULT_FOLDS);
  const nFolds = Math.max(2, Math.min(opts.folds ?? DEFAULT_FOLDS, n));
  const foldOf = task.kind === 'classification' ? stratifiedFolds(Int32Array.from(target), width, nFolds, opts.seed) : shuffledFolds(n, nFolds, opts.seed);
  return Array.from({ length: nFolds }, (_, k) => foldRows(foldOf, k));
}

type FirstRoundPart = 'whole' | 'a' | 'b' | 'rest';
/** Seeds of a screened forest's parts apart from the fold's own, so the three parts grow independent trees. */
const PART_SEED_OFFSET: Record<FirstRoundPart, number> = { whole: 0, a: 0, b: 1_000_003, rest: 2_000_006 };

/**
 * The first fold: every candidate, the screened ones (screening.ts) first as two halves of
 * SCREEN_TREES trees; those clearly worse than the best contestant stop there, the others grow the
 * rest of their trees and are recorded as one forest of their full size. Deterministic whatever the
 * order in which jobs finish: the screen runs once every part is in. Returns the ids screened out.
 */
async function runFirstRound(
  candidates: CandidateSpec[],
  run: (spec: CandidateSpec, part: FirstRoundPart) => Promise<FoldOutcome>,
  keep: (spec: CandidateSpec, outcome: FoldOutcome, share: number) => void,
  charge: (spec: CandidateSpec, share: number) => void,
  executor: CandidateExecutor,
  task: Task,
  target: Float64Array,
  testRows: Int32Array,
  failed: { id: string; error: string }[],
): Promise<Set<string>> {
  const parts = candidates.flatMap((spec): { spec: CandidateSpec; part: FirstRoundPart }[] =>
    isScreened(spec, task) ? [{ spec, part: 'a' }, { spec, part: 'b' }] : [{ spec, part: 'whole' }]);
  const outcomes = new Map<string, FoldOutcome>();
  const failedIds = new Set<string>();
  await runJobs(executor, parts, async ({ spec, part }) => {
    try {
      outcomes.set(`${spec.id}/${part}`, await run(spec, part));
    } catch (e) {
      if (!failedIds.has(spec.id)) failed.push({ id: spec.id, error: (e as Error).message });
      failedIds.add(spec.id);
    }
  });
  const alive = candidates.filter((c) => !failedIds.has(c.id));
  const y = Float64Array.from(testRows, (r) => target[r]);
  const entries: ScreenEntry[] = alive.map((spec) => {
    if (!isScreened(spec, task)) {
      const p = outcomes.get(`${spec.id}/whole`)!.predictions;
      return { id: spec.id, screened: false, losses: Float64Array.from(y, (v, i) => (p[i] - v) ** 2) };
    }
    const [a, b] = [outcomes.get(`${spec.id}/a`)!.predictions, outcomes.get(`${spec.id}/b`)!.predictions];
    return { id: spec.id, screened: true, losses: extrapolatedSquaredErrors(a, b, y, SCREEN_TREES / 2, treesInCv(spec)) };
  });
  const out = entries.length > 1 ? screenedOut(entries) : new Set<string>();
  const survivors = alive.filter((spec) => isScreened(spec, task) && !out.has(spec.id));
  await runJobs(executor, survivors, async (spec) => {
    try {
      outcomes.set(`${spec.id}/rest`, await run(spec, 'rest'));
    } catch (e) {
      failed.push({ id: spec.id, error: (e as Error).message });
      failedIds.add(spec.id);
    }
  });
  for (const spec of candidates) {
    if (failedIds.has(spec.id)) continue;
    if (!isScreened(spec, task)) {
      keep(spec, outcomes.get(`${spec.id}/whole`)!, 1);
      continue;
    }
    const total = treesInCv(spec);
    if (out.has(spec.id)) {
      charge(spec, SCREEN_TREES / total);
      continue;
    }
    const [a, b, rest] = (['a', 'b', 'rest'] as const).map((p) => outcomes.get(`${spec.id}/${p}`)!);
    const half = SCREEN_TREES / 2;
    const predictions = Float64Array.from(rest.predictions, (v, i) => (half * (a.predictions[i] + b.predictions[i]) + (total - SCREEN_TREES) * v) / total);
    keep(spec, { candidateId: spec.id, fold: 0, predictions, fitSeconds: a.fitSeconds + b.fitSeconds + rest.fitSeconds }, 1);
  }
  return out;
}
