/**
 * Worker thread of the contest pool: keeps the contest data it was last sent and runs fold jobs on it.
 * Messages: {type:'load', dataId, data} and {type:'run', jobId, job}; replies {jobId, outcome} or {jobId, error}.
 */
import { parentPort } from 'node:worker_threads';
import { runFoldJob, type ContestData, type FoldJob } from '../ml/tabular/contest/index.js';

export type PoolRequest =
  | { type: 'load'; dataId: number; data: ContestData }
  | { type: 'run'; jobId: number; dataId: number; job: FoldJob };

export type PoolReply =
  | { jobId: number; outcome: ReturnType<typeof runFoldJob> }
  | { jobId: number; error: string };

const port = parentPort;
if (port) {
  let loaded: { dataId: number; data: ContestData } | undefined;
  port.on('message', (msg: PoolRequest) => {
    if (msg.type === 'load') {
      loaded = { dataId: msg.dataId, data: msg.data };
      return;
    }
    try {
      if (loaded?.dataId !== msg.dataId) throw new Error(`contest data ${msg.dataId} was not loaded in this worker`);
      const outcome = runFoldJob(loaded.data, msg.job);
      port.postMessage({ jobId: msg.jobId, outcome } satisfies PoolReply, [outcome.predictions.buffer as ArrayBuffer]);
    } catch (e) {
      port.postMessage({ jobId: msg.jobId, error: e instanceof Error ? e.message : String(e) } satisfies PoolReply);
    }
  });
}
