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

// Status callbacks and e-mails: delivered from the outbox on their own timer, in the server and in `sibyl worker`.
import { OutboxLoops } from './jobs/outbox-jobs.js';
const outboxLoops = new OutboxLoops();
features.push({
  setup: (services) => outboxLoops.start(services),
  close: () => outboxLoops.stopAll(),
});

// Rows of replaced data-set versions and failed uploads: collected on their own timer.
import { SegmentCollector } from './jobs/segment-collector.js';
const collectors = new Set<SegmentCollector>();
features.push({
  setup: (services) => { const c = new SegmentCollector(services.db); collectors.add(c); c.start(); },
  // Like the outbox loops: closing any server stops them all.
  close: async () => { const all = [...collectors]; collectors.clear(); await Promise.all(all.map((c) => c.stop())); },
});

// Time series: forecast and impact sessions.
import { registerSessionRunner } from './jobs/session-jobs.js';
import { registerTimeseriesSessionRoutes } from './api/routes/timeseries-sessions.js';
import { runForecastSession } from './service/timeseries/forecast-sessions.js';
import { runImpactSession } from './service/timeseries/impact-sessions.js';
features.push({ routes: registerTimeseriesSessionRoutes });
registerSessionRunner('forecast', runForecastSession);
registerSessionRunner('impact', runImpactSession);

// Model sessions (classification, regression, anomalies), models and predictions.
import { registerSessionRunner as registerModelRunner } from './jobs/session-jobs.js';
import { runModelSession } from './service/sessions/model-session-runner.js';
import { registerModelSessionRoutes } from './api/routes/model-sessions.js';
import { registerModelRoutes } from './api/routes/models.js';
import { registerContestRoutes } from './api/routes/contest.js';
import { flushAllPredictionCounts, modelsOf } from './service/models/models-service.js';
registerModelRunner('model', runModelSession);
features.push({
  routes: (app, services) => { registerModelSessionRoutes(app, services); registerContestRoutes(app, services); registerModelRoutes(app, services); },
  setup: (services) => {
    const models = modelsOf(services);
    // DELETE /v1/data/<name>?cascade=model removes the data set's models too (compat-notes §3.1).
    services.datasets.onDelete(async (accountId, name, cascade) => {
      if (cascade.some((c) => c.startsWith('model'))) await models.deleteMatching(accountId, { dataSourceName: name });
    });
  },
  close: flushAllPredictionCounts,
});
