/**
 * Model selection: cross-validate a short list of candidates on the training rows, also score
 * blends of the best ones from their out-of-fold predictions, and pick the champion; then refit it
 * on all rows. Folds run round by round (every candidate on fold 0, then fold 1, …) so that when the
 * time budget runs out all surviving candidates have been judged on the same rows.
 */
import type { FitOptions, Frame, Task, TrainedModel } from '../../frame.js';
import { balancedClassWeights } from '../../encode.js';
import { BlendModel } from './blend-model.js';
import { contestCandidates, makeLearner, type CandidateSpec } from './candidates.js';
import { inThreadExecutor, type CandidateExecutor } from './executor.js';
import type { ContestData, FoldJob, FoldOutcome } from './fold-job.js';
import { foldRows, shuffledFolds, stratifiedFolds } from './folds.js';
import { rankContestants, type CrossValidated, type Ranking } from './rank-contestants.js';
import type { ClassificationSelection } from './scoring.js';

export interface ContestOptions {
  seed: number;
  timeBudgetMs: number;
  /** Classification: weight classes to equal total weight (balancedClassWeights). */
  balance: boolean;
  folds?: number;
  executor?: CandidateExecutor;
  /** Classification: rank candidates by CV log loss (default) or macro-F1. */
  selectBy?: ClassificationSelection;
  /** Override the default short list (tests, experiments). */
  candidates?: CandidateSpec[];
}

export interface ContestResult extends Ranking {
  task: Task;
  /** Candidates left out because the time budget ran out before their first fold. */
  skipped: string[];
  /** Failed candidates with their error message. */
  failed: { id: string; error: string }[];
  folds: number;
  foldsEvaluated: number;
  seconds: number;
}

const DEFAULT_FOLDS = 5;
/** Candidates still start their first fold until this share of the budget is used. */
const FIRST_ROUND_SHARE = 0.5;

interface CandidateState extends CrossValidated {
  firstFoldWallMs: number;
}

export async function runContest(frame: Frame, target: Float64Array, task: Task, opts: ContestOptions): Promise<ContestResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  validateTarget(frame, target, task);
  const n = frame.nRows;
  const width = task.kind === 'classification' ? task.classes.length : 1;
  const nFolds = Math.max(2, Math.min(opts.folds ?? DEFAULT_FOLDS, n));
  const foldOf =
    task.kind === 'classification'
      ? stratifiedFolds(Int32Array.from(target), width, nFolds, opts.seed)
      : shuffledFolds(n, nFolds, opts.seed);
  const splits = Array.from({ length: nFolds }, (_, k) => foldRows(foldOf, k));
  const executor = opts.executor ?? inThreadExecutor;
  const data: ContestData = { frame, target, task };
  const states = new Map<string, CandidateState>();
  const skipped: string[] = [];
  const failed: { id: string; error: string }[] = [];

  const jobFor = (spec: CandidateSpec, fold: number): FoldJob => ({
    candidate: spec,
    fold,
    trainRows: splits[fold].train,
    testRows: splits[fold].test,
    seed: opts.seed + fold,
    balance: opts.balance,
    timeBudgetMs: Math.max(1000, opts.timeBudgetMs - elapsed()),
  });
  const record = (state: CandidateState, outcome: FoldOutcome) => {
    if (!outcome.predictions.every(Number.isFinite)) throw new Error(`${state.spec.id} predicted non-finite values`);
    const rows = splits[outcome.fold].test;
    for (let i = 0; i < rows.length; i++) {
      for (let c = 0; c < width; c++) state.outOfFold[rows[i] * width + c] = outcome.predictions[i * width + c];
    }
    state.fitSeconds += outcome.fitSeconds;
  };

  const candidates = opts.candidates ?? contestCandidates(n);
  await runJobs(executor, candidates, async (spec) => {
    if (states.size + failed.length > 0 && elapsed() > opts.timeBudgetMs * FIRST_ROUND_SHARE) {
      skipped.push(spec.id);
      return;
    }
    const jobStart = performance.now();
    try {
      const outcome = await executor.run(data, jobFor(spec, 0));
      const state: CandidateState = { spec, outOfFold: new Float64Array(n * width), fitSeconds: 0, firstFoldWallMs: performance.now() - jobStart };
      record(state, outcome);
      states.set(spec.id, state);
    } catch (e) {
      failed.push({ id: spec.id, error: (e as Error).message });
    }
  });
  if (states.size === 0) throw new Error(`every candidate failed: ${failed.map((f) => `${f.id}: ${f.error}`).join('; ')}`);

  let foldsEvaluated = 1;
  for (let fold = 1; fold < nFolds; fold++) {
    const active = [...states.values()];
    const roundMs = active.reduce((a, s) => a + s.firstFoldWallMs, 0) / executor.concurrency;
    if (elapsed() + roundMs > opts.timeBudgetMs) break;
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

  const ranked = rankContestants(
    task,
    opts.selectBy ?? 'logLoss',
    [...states.values()],
    rowsOfFolds(foldOf, foldsEvaluated),
    target,
    foldsEvaluated,
  );
  return { task, ...ranked, skipped, failed, folds: nFolds, foldsEvaluated, seconds: elapsed() / 1000 };
}

export interface FitChampionOptions {
  seed: number;
  balance: boolean;
  timeBudgetMs?: number;
}

/** Refits the contest's champion (each member of a blend) on all the given rows. */
export function fitChampion(frame: Frame, target: Float64Array, task: Task, result: ContestResult, opts: FitChampionOptions): TrainedModel {
  const fitOptions: FitOptions = {
    seed: opts.seed,
    weights: opts.balance && task.kind === 'classification' ? balancedClassWeights(target, task.classes.length) : undefined,
    timeBudgetMs: opts.timeBudgetMs,
  };
  const models = result.champion.members.map((spec) => makeLearner(spec, 'final').fit(frame, target, task, fitOptions));
  return models.length === 1 ? models[0] : new BlendModel(task, models);
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

function rowsOfFolds(foldOf: Int32Array, nFolds: number): Int32Array {
  const rows: number[] = [];
  for (let i = 0; i < foldOf.length; i++) if (foldOf[i] < nFolds) rows.push(i);
  return Int32Array.from(rows);
}
