/**
 * A GBDT helper thread: prepares column ranges of a fit's data (prepare-data.ts), or attaches to a fit's
 * shared memory and serves its tree-growing jobs (feature-team.ts).
 */
import { parentPort } from 'node:worker_threads';
import { type TeamInit, serveFit } from './feature-team.js';
import { type PrepareRequest, servePrepare } from './prepare-data.js';

parentPort?.on('message', (msg: TeamInit | PrepareRequest) => {
  if ('kind' in msg && msg.kind === 'prepare') servePrepare(msg);
  else serveFit(msg as TeamInit);
});
