export { runContest, fitChampion, contestWorkBudget, DEFAULT_CONTEST_WORK, DEFAULT_SELECTION_RULE, DEFAULT_ENSEMBLES, type ContestOptions, type ContestResult, type FitChampionOptions } from './run-contest.js';
export type { Contestant, EnsembleKind, SelectionRule } from './rank-contestants.js';
export { contestCandidates, LINEAR_PENALTY_GRID, makeLearner, SPLINE_RIDGE, type CandidateSpec } from './candidates.js';
export { inThreadExecutor, type CandidateExecutor } from './executor.js';
export { runFoldJob, type ContestData, type FoldJob, type FoldOutcome } from './fold-job.js';
export { BlendModel, loadBlend } from './blend-model.js';
export type { ClassificationSelection, SelectionMetric, TaskMetrics } from './scoring.js';
