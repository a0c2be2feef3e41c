import { ImportsStore, type ImportRecord } from '../store/imports-store.js';
import type { Services } from '../service/services.js';
import type { JobKind } from './job-loop.js';

export function importJobs(services: Services): JobKind<ImportRecord> {
  const store = new ImportsStore(services.db);
  return {
    name: 'import',
    claim: (owner, leaseMs) => store.claim(owner, leaseMs),
    renew: (job, owner, leaseMs) => store.renewLease(job.id, owner, leaseMs),
    release: (owner) => store.release(owner),
    giveBack: (job, owner) => store.release(owner, job.id),
    run: (job, owner) => services.imports.run(job, owner),
  };
}
