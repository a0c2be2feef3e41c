import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isConnectionLoss } from '../store/connection-loss.js';

/**
 * A kind of claimable work (imports, sessions): claim one under a lease, run it, renew the lease
 * while it runs. A worker that dies stops renewing; its lease expires and another claims the work.
 *
 * Each claim has its own holder name, `<worker>/<n>`: a run whose lease expired while it went on
 * (the database was away longer than the lease) may be claimed again by the same worker, and the
 * old run's late writes must then be refused like any other former holder's.
 */
export interface JobKind<T> {
  name: string;
  claim(holder: string, leaseMs: number): Promise<T | undefined>;
  renew(job: T, holder: string, leaseMs: number): Promise<boolean>;
  /**
   * `lost` is aborted when a renewal finds the lease gone: the job was deleted (a client deleting a
   * running session, which the original service's clients do to stop one) or is held by another worker.
   */
  run(job: T, holder: string, lost: AbortSignal): Promise<void>;
  /** Gives back every unfinished job the worker `owner` holds under any claim, so another worker takes them at once. */
  release?(owner: string): Promise<number>;
  /** Gives back one job whose run lost the database midway, so it runs again (here or elsewhere) at once. */
  giveBack?(job: T, holder: string): Promise<number>;
}

export interface JobLoopOptions {
  concurrency: number;
  leaseMs?: number;
  pollMs?: number;
  log?: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

const CLAIM_FAILED_WAIT_MS = 1000;

export class JobLoop {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = 0;
  private claims = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(private readonly kinds: JobKind<unknown>[], private readonly opts: JobLoopOptions) {
    this.leaseMs = opts.leaseMs ?? 30000;
    this.pollMs = opts.pollMs ?? 500;
  }

  start(): void {
    this.schedule(0);
  }

  /** Ask for an immediate look (after new work was requested in this process). */
  poke(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /**
   * Stops claiming, lets the running jobs finish for up to `graceMs`, then gives back the leases of
   * those still running (they are taken over at once elsewhere; this process's late writes are refused).
   * `releaseNow()` cuts the grace short (a second SIGTERM). Without `graceMs` it waits for every job.
   */
  async stop(graceMs = Infinity): Promise<{ finished: boolean; released: number }> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const runningAtStop = this.running;
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<'cut'>((resolve) => {
      this.cutGrace = () => resolve('cut');
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('cut'), graceMs);
    });
    const outcome = await Promise.race([Promise.allSettled([...this.inFlight]).then(() => 'done' as const), cut]);
    if (timer) clearTimeout(timer);
    if (outcome === 'done') {
      if (runningAtStop > 0) this.opts.log?.info({ worker: this.owner }, `stopped: the ${runningAtStop} running job(s) finished within the grace period`);
      return { finished: true, released: 0 };
    }
    let released = 0;
    for (const kind of this.kinds) {
      try {
        released += (await kind.release?.(this.owner)) ?? 0;
      } catch (e) {
        this.opts.log?.error({ err: e }, `releasing ${kind.name} leases failed (they expire by themselves)`);
      }
    }
    this.opts.log?.info({ worker: this.owner, released, running: this.running },
      `stopped: gave back the leases of ${released} running job(s); other workers start them again now`);
    return { finished: false, released };
  }

  /** Ends the grace period of a stop() under way: the leases are released now. */
  releaseNow(): void {
    this.cutGrace?.();
  }

  private cutGrace: (() => void) | undefined;

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let claimed = false;
    let failed = false;
    try {
      for (const kind of this.kinds) {
        while (this.running < this.opts.concurrency && !this.stopped) {
          const holder = `${this.owner}/${++this.claims}`;
          const job = await kind.claim(holder, this.leaseMs);
          if (job === undefined) break;
          claimed = true;
          this.launch(kind, job, holder);
        }
      }
    } catch (e) {
      failed = true;
      this.opts.log?.error({ err: e }, 'claiming work failed');
    }
    // The database is away: ask again less often rather than filling the log, but soon enough
    // that work resumes within a couple of seconds of its return.
    if (!this.stopped) this.schedule(claimed ? 50 : failed ? Math.max(this.pollMs, CLAIM_FAILED_WAIT_MS) : this.pollMs);
  }

  private launch(kind: JobKind<unknown>, job: unknown, holder: string): void {
    this.running++;
    const lost = new AbortController();
    const renew = setInterval(() => {
      kind.renew(job, holder, this.leaseMs).then(
        (held) => { if (!held && !lost.signal.aborted) lost.abort(new LeaseLostError(kind.name)); },
        (e) => this.opts.log?.error({ err: e }, `lease renewal of ${kind.name} failed`),
      );
    }, Math.max(1000, this.leaseMs / 3));
    const p = kind.run(job, holder, lost.signal)
      .catch(async (e) => {
        if (!isConnectionLoss(e) || !kind.giveBack) {
          this.opts.log?.error({ err: e }, `${kind.name} job failed`);
          return;
        }
        // Not the job's fault: it is not recorded as failed but runs again. Given back now if the
        // database answers again already, else its lease (no longer renewed) expires by itself.
        clearInterval(renew);
        const back = await kind.giveBack(job, holder).then(() => true, () => false);
        this.opts.log?.error({ err: e }, `${kind.name} job lost the database midway; ${back ? 'given back' : 'its lease will expire'} for another attempt`);
      })
      .finally(() => {
        clearInterval(renew);
        this.running--;
        this.inFlight.delete(p);
        this.poke();
      });
    this.inFlight.add(p);
  }
}

/** Why a job's run was stopped: its row is gone (deleted) or another worker holds it. */
export class LeaseLostError extends Error {
  constructor(kind: string) {
    super(`the ${kind} was deleted, or another worker holds it, while it ran`);
  }
}
