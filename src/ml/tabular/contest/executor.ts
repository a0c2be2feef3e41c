/**
 * Where fold jobs run. The contest only sees this interface, so ml/ stays free of threads; the
 * service plugs in the worker pool (src/jobs/contest-pool.ts).
 */
import { runFoldJob, type ContestData, type FoldJob, type FoldOutcome } from './fold-job.js';

export interface CandidateExecutor {
  /** Jobs worth keeping in flight at once. */
  readonly concurrency: number;
  run(data: ContestData, job: FoldJob): Promise<FoldOutcome>;
}

export const inThreadExecutor: CandidateExecutor = {
  concurrency: 1,
  run: async (data, job) => runFoldJob(data, job),
};
