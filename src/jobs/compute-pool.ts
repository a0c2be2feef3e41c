import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMPUTE_HANDLERS } from './compute/handlers.js';

/**
 * Runs pure ML computations (training, forecasting) off the main thread so the API stays
 * responsive while a model trains. Each task gets its own worker thread (training takes seconds;
 * the ~30 ms start-up is noise), which also frees all memory of the task when it ends.
 * Under tsx (tests of the TypeScript sources) no compiled worker exists: tasks then run in-thread.
 */
export class ComputePool {
  private readonly workerFile = fileURLToPath(new URL('./compute-worker.js', import.meta.url));
  private readonly useThreads = existsSync(this.workerFile);

  /** `stop` ends the computation's thread at once (its job was deleted) and rejects with the signal's reason. */
  async run<T>(task: keyof typeof COMPUTE_HANDLERS, input: unknown, transfer: ArrayBuffer[] = [], stop?: AbortSignal): Promise<T> {
    stop?.throwIfAborted();
    if (!this.useThreads) {
      const handler = await COMPUTE_HANDLERS[task]();
      return (await handler(input)) as T;
    }
    return new Promise<T>((resolve, reject) => {
      const w = new Worker(this.workerFile, { workerData: { task, input }, transferList: transfer, resourceLimits: { maxOldGenerationSizeMb: 8192 } });
      let settled = false;
      const stopped = () => {
        if (settled) return;
        settled = true;
        reject(stop!.reason);
        void w.terminate();
      };
      stop?.addEventListener('abort', stopped, { once: true });
      w.once('message', (m: { ok: boolean; value?: T; error?: string }) => {
        stop?.removeEventListener('abort', stopped);
        if (settled) return;
        settled = true;
        if (m.ok) resolve(m.value as T);
        else reject(new ComputeError(m.error ?? 'computation failed'));
        void w.terminate();
      });
      w.once('error', (e) => { stop?.removeEventListener('abort', stopped); if (!settled) { settled = true; reject(e); } });
      w.once('exit', (code) => { stop?.removeEventListener('abort', stopped); if (!settled) { settled = true; reject(new ComputeError(`the computation stopped unexpectedly (exit code ${code})`)); } });
    });
  }
}

/** A computation's own failure (bad data, a learner's error): its message is meant for the user. */
export class ComputeError extends Error {}
