/**
 * Scores and explains prediction batches on a few long-lived worker threads, so a 1,000-record batch
 * neither holds the event loop (other requests wait on it) nor leaves the other cores idle while
 * concurrent batches queue. A batch's explanations (TreeSHAP costs far more than its scores) are split
 * between the threads, run side by side: a tree ensemble's by its trees (each thread explains every
 * row with its share of explanation.ts's TREE_PARTS tree parts, building the Ψ tables of those trees
 * only, and the parts are added in order here), other models' (blends) by rows, each part planned for
 * the whole batch; either way the numbers are those of the batch explained at once, bit for bit. Each thread keeps the models it has been sent (by key, e.g. the model id); the main
 * thread parses, encodes and serialises, and sends only the encoded frame (typed arrays) and, with
 * the first batch of a model for that thread (or when the thread has dropped it), the model's saved form. Scores are the same as in-thread scoring: the
 * same code on the same inputs.
 *
 * Small batches stay in-thread (models-service.ts decides): a message round trip costs more than
 * scoring a few rows. Without a compiled worker (tests run from the TypeScript sources) there are no
 * threads and every batch is scored in-thread.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Frame } from '../../ml/frame.js';
import { TREE_PARTS, concatenatedValues, sumTreeParts, type Explanation } from '../../ml/explain/explanation.js';
import { selectRows } from '../../ml/tabular/contest/frame-rows.js';

export interface ScoreRequest {
  id: number;
  key: string;
  frame: Frame;
  /** Explain the frame instead of scoring it, planned for a batch of this many rows (explanation.ts ExplainOptions). */
  explainBatchRows?: number;
  /** Explain these tree parts of the frame (explanation.ts explainTreeParts) instead of scoring it. */
  explainTreeParts?: number[];
  /** The model's saved form: sent when the thread said it lacks the model. */
  learner?: unknown;
}

export type ScoreReply = { id: number; scores?: Float64Array; explanation?: Explanation; needModel?: boolean; error?: string };

interface Pending {
  request: ScoreRequest;
  learner: () => unknown;
  resolve(reply: ScoreReply): void;
  reject(e: Error): void;
}

interface ScoringThread {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Keys whose model went with an earlier request: not sent again unless the thread asks. */
  sent: Set<string>;
}

/** Keys remembered per thread before the memory starts over (a forgotten key costs one resend). */
const SENT_KEYS = 1000;

function explanationOf(reply: ScoreReply): Explanation {
  if (!reply.explanation) throw new Error('scoring thread: no explanation');
  return reply.explanation;
}

export class ScoringThreads {
  private static readonly workerFile = fileURLToPath(new URL('./scoring-worker.js', import.meta.url));
  private readonly threads: (ScoringThread | undefined)[];
  private nextId = 1;

  /** `size` threads at most, started on first use; 0 (or no compiled worker) scores in-thread. */
  constructor(size: number) {
    this.threads = new Array<ScoringThread | undefined>(existsSync(ScoringThreads.workerFile) ? size : 0);
  }

  get available(): boolean {
    return this.threads.length > 0;
  }

  /** `predictScores(frame)` of the model saved as `learner()`, on the least busy thread. */
  async scores(key: string, learner: () => unknown, frame: Frame): Promise<Float64Array> {
    const reply = await this.send(this.leastBusy(), key, learner, frame);
    if (!reply.scores) throw new Error('scoring thread: no scores');
    return reply.scores;
  }

  /**
   * The model's explanation of `frame` (explanation.ts explain): byTrees (the model explains by tree
   * parts, Model.explainsByTreeParts), each thread takes a run of consecutive tree parts and all rows,
   * and the parts are added in order; otherwise the rows are split into one contiguous part per thread,
   * planned for the whole batch, and joined in row order.
   */
  async explain(key: string, learner: () => unknown, frame: Frame, byTrees = false): Promise<Explanation> {
    if (byTrees) {
      const threads = Math.max(1, Math.min(this.threads.length, TREE_PARTS));
      const replies = await Promise.all(Array.from({ length: threads }, (_, t) => {
        const p0 = Math.floor((t * TREE_PARTS) / threads);
        const p1 = Math.floor(((t + 1) * TREE_PARTS) / threads);
        return this.send(this.thread(t), key, learner, frame, { explainTreeParts: Array.from({ length: p1 - p0 }, (_, i) => p0 + i) });
      }));
      return sumTreeParts(replies.map(explanationOf));
    }
    const n = frame.nRows;
    const parts = Math.max(1, Math.min(this.threads.length, n));
    const replies = await Promise.all(Array.from({ length: parts }, (_, p) => {
      const r0 = Math.floor((p * n) / parts);
      const r1 = Math.floor(((p + 1) * n) / parts);
      const part = parts === 1 ? frame : selectRows(frame, Int32Array.from({ length: r1 - r0 }, (_, i) => r0 + i));
      return this.send(this.thread(p), key, learner, part, { explainBatchRows: n });
    }));
    const explained = replies.map(explanationOf);
    if (explained.length === 1) return explained[0]!;
    return { ...explained[0]!, nRows: n, values: concatenatedValues(explained) };
  }

  private send(thread: ScoringThread, key: string, learner: () => unknown, frame: Frame, explaining?: Pick<ScoreRequest, 'explainBatchRows' | 'explainTreeParts'>): Promise<ScoreReply> {
    return new Promise<ScoreReply>((resolve, reject) => {
      const request: ScoreRequest = { id: this.nextId++, key, frame, ...explaining };
      // A thread with work keeps the process alive until it answers; an idle one does not.
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(request.id, { request, learner, resolve, reject });
      if (thread.sent.has(key)) thread.worker.postMessage(request);
      else {
        if (thread.sent.size >= SENT_KEYS) thread.sent.clear();
        thread.sent.add(key);
        thread.worker.postMessage({ ...request, learner: learner() });
      }
    });
  }

  /** Stops the threads (pending batches fail); the next batch starts them again. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t?.worker.terminate()));
  }

  /** Thread `slot`, started if it is not running. */
  private thread(slot: number): ScoringThread {
    return this.threads[slot] ?? (this.threads[slot] = this.start(slot));
  }

  private leastBusy(): ScoringThread {
    let best = -1;
    for (let i = 0; i < this.threads.length; i++) {
      const t = this.threads[i];
      if (!t) return (this.threads[i] = this.start(i));
      if (best < 0 || t.pending.size < this.threads[best]!.pending.size) best = i;
    }
    return this.threads[best]!;
  }

  private start(slot: number): ScoringThread {
    const worker = new Worker(ScoringThreads.workerFile);
    const thread: ScoringThread = { worker, pending: new Map(), sent: new Set() };
    worker.on('message', (m: ScoreReply) => {
      const p = thread.pending.get(m.id);
      if (!p) return;
      if (m.needModel) {
        worker.postMessage({ ...p.request, learner: p.learner() });
        return;
      }
      thread.pending.delete(m.id);
      if (thread.pending.size === 0) worker.unref();
      if (m.error === undefined) p.resolve(m);
      else p.reject(new Error(`scoring thread: ${m.error}`));
    });
    // A thread that dies fails its batches (500) and is replaced on the next batch.
    const fail = (e: Error) => {
      if (this.threads[slot] === thread) this.threads[slot] = undefined;
      for (const p of thread.pending.values()) p.reject(e);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`scoring thread stopped (exit code ${code})`)));
    // Idle (after the listeners: adding one refs the thread again).
    worker.unref();
    return thread;
  }
}
