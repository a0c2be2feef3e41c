import type { SessionRecord, SessionResultsToSave } from '../../store/sessions-store.js';
import type { Message } from '../../store/schema.js';
import type { Services } from '../services.js';

/** What a finished session leaves behind. */
export interface SessionOutcome {
  results: SessionResultsToSave;
  modelId?: string;
  algorithm?: Record<string, unknown>;
  messages?: Message[];
}

export type ComputeTask = 'model' | 'forecast' | 'impact';

/** Runs a pure computation somewhere else (a worker thread): the service layer only names the task. */
export interface Compute {
  run<T>(task: ComputeTask, input: unknown, transfer?: ArrayBuffer[]): Promise<T>;
}

/** Runs one kind of session: load data, compute, store outputs. Registered by type with the job loop. */
export type SessionRunner = (session: SessionRecord, ctx: { services: Services; compute: Compute; owner: string }) => Promise<SessionOutcome>;

/** A session whose data cannot be modelled fails with this message instead of crashing anything; `found` are kept beside it. */
export class SessionDataError extends Error {
  constructor(message: string, readonly found: Message[] = []) {
    super(message);
  }
}
