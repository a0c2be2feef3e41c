/** A feature-team helper thread (feature-team.ts): attaches to each fit's shared memory and serves its jobs. */
import { parentPort } from 'node:worker_threads';
import { type TeamInit, serveFit } from './feature-team.js';
import { HistogramBuilder } from './training-memory.js';

parentPort?.on('message', (init: TeamInit) => {
  serveFit(init, HistogramBuilder.attach(init.memory, init.plan));
});
