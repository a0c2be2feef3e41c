/**
 * One unit of contest work: fit a candidate on one fold's training rows and predict its held-out
 * rows. Pure and self-contained (plain data + typed arrays) so it can run in a worker thread.
 */
import type { Frame, Task } from '../../frame.js';
import { balancedClassWeights } from '../../encode.js';
import { makeLearner, type CandidateSpec } from './candidates.js';
import { pick, selectRows } from './frame-rows.js';

/** The data every fold job of one contest shares (sent to each worker once). */
export interface ContestData {
  frame: Frame;
  target: Float64Array;
  task: Task;
}

export interface FoldJob {
  candidate: CandidateSpec;
  fold: number;
  trainRows: Int32Array;
  testRows: Int32Array;
  seed: number;
  balance: boolean;
}

export interface FoldOutcome {
  candidateId: string;
  fold: number;
  /** Predictions for testRows (row-major probabilities for classification). */
  predictions: Float64Array;
  fitSeconds: number;
}

export function runFoldJob(data: ContestData, job: FoldJob): FoldOutcome {
  const trainFrame = selectRows(data.frame, job.trainRows);
  const yTrain = pick(data.target, job.trainRows);
  const weights =
    job.balance && data.task.kind === 'classification'
      ? balancedClassWeights(yTrain, data.task.classes.length)
      : undefined;
  if (data.task.kind === 'classification') {
    const only = singleClass(yTrain);
    if (only >= 0) return priorOutcome(job, only, data.task.classes.length);
  }
  const started = performance.now();
  const model = makeLearner(job.candidate, 'cv', trainFrame.nRows).fit(trainFrame, yTrain, data.task, {
    seed: job.seed,
    weights,
  });
  const fitSeconds = (performance.now() - started) / 1000;
  const predictions = model.predictScores(selectRows(data.frame, job.testRows));
  return { candidateId: job.candidate.id, fold: job.fold, predictions, fitSeconds };
}

/** The class every training row has, or −1 when there are several. */
function singleClass(y: Float64Array): number {
  for (let i = 1; i < y.length; i++) if (y[i] !== y[0]) return -1;
  return y.length ? y[0] : -1;
}

/**
 * A fold whose training rows hold one class (tiny data, a class with a single row) cannot train a
 * classifier; it predicts that class, so the candidate is still judged on the other folds.
 */
function priorOutcome(job: FoldJob, cls: number, k: number): FoldOutcome {
  const predictions = new Float64Array(job.testRows.length * k);
  for (let i = 0; i < job.testRows.length; i++) predictions[i * k + cls] = 1;
  return { candidateId: job.candidate.id, fold: job.fold, predictions, fitSeconds: 0 };
}
