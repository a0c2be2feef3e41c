import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A kind of claimable work (imports, sessions): claim one under a lease, run it, renew the lease
 * while it runs. A worker that dies stops renewing; its lease expires and another claims the work.
 */
export interface JobKind<T> {
  name: string;
  claim(owner: string, leaseMs: number): Promise<T | undefined>;
  renew(job: T, owner: string, leaseMs: number): Promise<boolean>;
  run(job: T, owner: string): Promise<void>;
}

export interface JobLoopOptions {
  concurrency: number;
  leaseMs?: number;
  pollMs?: number;
  log?: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

export class JobLoop {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = 0;
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

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let claimed = false;
    try {
      for (const kind of this.kinds) {
        while (this.running < this.opts.concurrency && !this.stopped) {
          const job = await kind.claim(this.owner, this.leaseMs);
          if (job === undefined) break;
          claimed = true;
          this.launch(kind, job);
        }
      }
    } catch (e) {
      this.opts.log?.error({ err: e }, 'claiming work failed');
    }
    if (!this.stopped) this.schedule(claimed ? 50 : this.pollMs);
  }

  private launch(kind: JobKind<unknown>, job: unknown): void {
    this.running++;
    const renew = setInterval(() => {
      kind.renew(job, this.owner, this.leaseMs).catch((e) => this.opts.log?.error({ err: e }, `lease renewal of ${kind.name} failed`));
    }, Math.max(1000, this.leaseMs / 3));
    const p = kind.run(job, this.owner)
      .catch((e) => this.opts.log?.error({ err: e }, `${kind.name} job failed`))
      .finally(() => {
        clearInterval(renew);
        this.running--;
        this.inFlight.delete(p);
        this.poke();
      });
    this.inFlight.add(p);
  }
}
