/**
 * Idle GBDT helper threads (feature-team-worker.ts), kept for the next fit in this process and shared by
 * the fit's two parallel phases: binning the data (prepare-data.ts), then growing trees (feature-team.ts).
 * They are unref'd: an idle helper never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';

const idle: Worker[] = [];

export function acquireHelper(): Worker {
  const w = idle.pop() ?? new Worker(new URL('./feature-team-worker.js', import.meta.url));
  w.unref();
  return w;
}

export function releaseHelpers(workers: Worker[]): void {
  idle.push(...workers);
}
