import { parentPort, workerData } from 'node:worker_threads';
import { COMPUTE_HANDLERS } from './compute/handlers.js';

const { task, input } = workerData as { task: keyof typeof COMPUTE_HANDLERS; input: unknown };
try {
  const handler = await COMPUTE_HANDLERS[task]();
  const value = await handler(input);
  parentPort!.postMessage({ ok: true, value });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) });
}
