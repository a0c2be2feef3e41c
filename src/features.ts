/**
 * Features beyond the data-set core register themselves with the server here: importing this
 * module once wires them all (the server and `sibyl worker` share the list).
 */
import { features } from './server.js';
import { registerSessionRoutes } from './api/routes/sessions.js';
import { sessionJobs } from './jobs/session-jobs.js';
import { ComputePool } from './jobs/compute-pool.js';
import type { JobKind } from './jobs/job-loop.js';

const compute = new ComputePool();

features.push({
  routes: registerSessionRoutes,
  jobs: (services) => sessionJobs(services, compute) as JobKind<unknown>,
});
