/**
 * Runs contest fold jobs on worker threads (default 2, one per core), so candidates × folds train in
 * parallel while the contest logic in ml/ stays single-threaded and pure. Each worker receives a
 * contest's data once (structured clone of the typed arrays) and then only job descriptions.
 */
import { Worker } from 'node:worker_threads';
import type { CandidateExecutor, ContestData, FoldJob, FoldOutcome } from '../ml/tabular/contest/index.js';
import type { PoolReply, PoolRequest } from './contest-worker.js';

interface PoolWorker {
  worker: Worker;
  dataId: number;
  busy: boolean;
}

interface QueuedJob {
  data: ContestData;
  job: FoldJob;
  resolve: (o: FoldOutcome) => void;
  reject: (e: Error) => void;
}

/**
 * The compiled pool (dist/…/contest-pool.js) starts contest-worker.js. Under tsx the sources are .ts
 * and, on Node 20, worker threads do not inherit tsx's loader hooks, so the worker registers them
 * before importing the .ts worker file.
 */
function startWorkerThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./contest-worker.js', import.meta.url));
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./contest-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true });
}

export class ContestWorkerPool implements CandidateExecutor {
  readonly concurrency: number;
  private readonly workers: PoolWorker[] = [];
  private readonly queue: QueuedJob[] = [];
  private readonly pending = new Map<number, QueuedJob & { worker: PoolWorker }>();
  private readonly dataIds = new WeakMap<ContestData, number>();
  private nextDataId = 1;
  private nextJobId = 1;
  private closed = false;

  constructor(size = 2) {
    this.concurrency = size;
    for (let i = 0; i < size; i++) this.workers.push(this.startWorker());
  }

  run(data: ContestData, job: FoldJob): Promise<FoldOutcome> {
    if (this.closed) return Promise.reject(new Error('contest worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ data, job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error('contest worker pool closed');
    for (const q of this.queue.splice(0)) q.reject(closed);
    for (const job of this.pending.values()) job.reject(closed);
    this.pending.clear();
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private startWorker(): PoolWorker {
    const entry: PoolWorker = { worker: startWorkerThread(), dataId: 0, busy: false };
    entry.worker.unref(); // an idle pool must not keep the process alive
    entry.worker.on('message', (reply: PoolReply) => this.onReply(entry, reply));
    entry.worker.on('error', (e) => this.onCrash(entry, e));
    entry.worker.on('exit', (code) => this.onCrash(entry, new Error(`contest worker exited with code ${code}`)));
    return entry;
  }

  private dispatch(): void {
    for (const entry of this.workers) {
      if (entry.busy || this.queue.length === 0) continue;
      const queued = this.queue.shift()!;
      let dataId = this.dataIds.get(queued.data);
      if (dataId === undefined) {
        dataId = this.nextDataId++;
        this.dataIds.set(queued.data, dataId);
      }
      if (entry.dataId !== dataId) {
        entry.worker.postMessage({ type: 'load', dataId, data: queued.data } satisfies PoolRequest);
        entry.dataId = dataId;
      }
      const jobId = this.nextJobId++;
      this.pending.set(jobId, { ...queued, worker: entry });
      entry.busy = true;
      entry.worker.ref();
      entry.worker.postMessage({ type: 'run', jobId, dataId, job: queued.job } satisfies PoolRequest);
    }
  }

  private release(entry: PoolWorker): void {
    entry.busy = false;
    entry.worker.unref();
    this.dispatch();
  }

  private onReply(entry: PoolWorker, reply: PoolReply): void {
    const job = this.pending.get(reply.jobId);
    if (!job) return;
    this.pending.delete(reply.jobId);
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.outcome);
    this.release(entry);
  }

  /** A crashed worker fails its job and is replaced, so one bad fit cannot stall the pool. */
  private onCrash(entry: PoolWorker, error: Error): void {
    const i = this.workers.indexOf(entry);
    if (this.closed || i < 0) return; // already replaced (an 'error' is followed by 'exit')
    for (const [jobId, job] of this.pending) {
      if (job.worker !== entry) continue;
      this.pending.delete(jobId);
      job.reject(error);
    }
    this.workers[i] = this.startWorker();
    this.dispatch();
  }
}
