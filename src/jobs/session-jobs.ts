import { SessionsStore, type SessionRecord, type SessionType } from '../store/sessions-store.js';
import { SessionDataError, type Compute, type SessionRunner } from '../service/sessions/session-runner.js';
import type { Services } from '../service/services.js';
import { ServiceError } from '../service/errors.js';
import type { JobKind } from './job-loop.js';
import { ComputeError, type ComputePool } from './compute-pool.js';
import { isConnectionLoss } from '../store/connection-loss.js';
import { modelsOf } from '../service/models/models-service.js';

export type { SessionOutcome, SessionRunner } from '../service/sessions/session-runner.js';
export { SessionDataError } from '../service/sessions/session-runner.js';

const runners = new Map<SessionType, SessionRunner>();

export function registerSessionRunner(type: SessionType, runner: SessionRunner): void {
  runners.set(type, runner);
}

export function sessionJobs(services: Services, compute: ComputePool): JobKind<SessionRecord> {
  const store = new SessionsStore(services.db);
  return {
    name: 'session',
    claim: (owner, leaseMs) => store.claim(owner, leaseMs),
    renew: (s, owner, leaseMs) => store.renewLease(s.id, owner, leaseMs),
    release: (owner) => store.release(owner),
    giveBack: (s, owner) => store.release(owner, s.id),
    async run(claimed, owner, lost) {
      // A session re-claimed after its worker died is already 'started': it runs again from the start.
      const about = { sessionId: claimed.id, type: claimed.type, worker: owner };
      services.log.info(about, claimed.status === 'requested' ? 'session claimed' : 'session taken over from an earlier worker');
      const s = claimed.status === 'requested' ? await services.sessions.transition(claimed.id, owner, 'started') : claimed;
      if (!s) return;
      const started = Date.now();
      const runner = runners.get(s.type);
      const timer = services.metrics.trainingSeconds.startTimer({ kind: s.type });
      let timed = false;
      const time = (outcome: string) => { if (!timed) { timed = true; timer({ outcome }); } };
      try {
        if (!runner) throw new SessionDataError(`${s.type} sessions are not available in this build`);
        const stoppable: Compute = { run: (task, input, transfer) => compute.run(task, input, transfer, lost) };
        const out = await runner(s, { services, compute: stoppable, owner });
        time('completed');
        const done = await services.sessions.transition(s.id, owner, 'completed', { results: out.results, modelId: out.modelId, algorithm: out.algorithm, messages: out.messages });
        // Deleted in its last seconds (before a renewal noticed), or taken over: what it made belongs to no session.
        if (!done) {
          await dropOutputs(services, s, out.modelId);
          services.log.info(about, 'session finished after it was deleted or taken over: its outputs were dropped');
        } else services.log.info({ ...about, modelId: out.modelId, seconds: (Date.now() - started) / 1000 }, 'session completed');
      } catch (e) {
        // The database went away under the session: it did not fail, it runs again (job-loop.ts).
        if (isConnectionLoss(e)) throw e;
        if (lost.aborted) {
          // Deleted while it ran, or taken over: nothing of this run is kept.
          time('stopped');
          await dropOutputs(services, s, undefined);
          services.log.info(about, 'session stopped: it was deleted, or another worker holds it');
          return;
        }
        time('failed');
        const known = e instanceof SessionDataError || e instanceof ComputeError || e instanceof ServiceError;
        const message = known ? (e as Error).message : 'The session failed because of an internal error.';
        if (known) services.log.warn({ ...about, reason: message }, 'session failed');
        else services.log.error({ ...about, err: e }, 'session failed with an internal error');
        const found = e instanceof SessionDataError ? e.found : [];
        await services.sessions.transition(s.id, owner, 'failed', { messages: [...found, { severity: 'error', message }] });
      }
    },
  };
}

/**
 * What a run saved that no session will name: its model, whenever the session did not take it (deleted
 * while it ran, or taken over by another worker, whose run saves its own), and the session's
 * vocabularies when the session is gone: nothing may appear that names a session the API says does
 * not exist.
 */
async function dropOutputs(services: Services, s: SessionRecord, modelId: string | undefined): Promise<void> {
  if (modelId) await modelsOf(services).delete(s.accountId, modelId).catch(() => {});
  if (await new SessionsStore(services.db).getById(s.id)) return;
  await services.vocabularies.deleteMatching(s.accountId, { sessionId: s.id });
}
