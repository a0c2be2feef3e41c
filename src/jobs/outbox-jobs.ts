import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { OutboxStore } from '../store/outbox-store.js';
import type { Services } from '../service/services.js';
import { CALLBACK_TIMEOUT_MS, createDeliverer, type Deliver, type DeliveryLog } from '../notify/deliverer.js';

// An item whose deliverer died becomes claimable again after this; it must outlast one attempt.
const LEASE_MS = CALLBACK_TIMEOUT_MS * 3;
const CLAIM_FAILED_WAIT_MS = 5000;
const POLL_MS = 500;
// Deliveries in flight at once, so one slow receiver does not hold up the others.
const CONCURRENCY = 8;

/**
 * Delivers the outbox (status callbacks, e-mails) on its own timer, apart from the job loop, so a
 * receiver that is down or slow never takes a session worker's place. Every process running jobs
 * runs one; the outbox claims keep them from sending the same item at once and keep each
 * session's notifications in order.
 */
export class OutboxLoop {
  private readonly owner = `${hostname()}:${process.pid}:outbox:${randomUUID().slice(0, 8)}`;
  private readonly store: OutboxStore;
  private readonly deliver: Deliver;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: DeliveryLog;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(services: Services) {
    this.store = new OutboxStore(services.db);
    this.log = services.log;
    this.deliver = createDeliverer(services, this.log);
  }

  start(): void {
    this.schedule(0);
  }

  /** Stops claiming and waits for the deliveries in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // One claim at a time, so the in-flight count stays within the concurrency.
      if (this.ticking) return;
      this.ticking = this.tick().finally(() => { this.ticking = undefined; });
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let next = POLL_MS;
    const free = CONCURRENCY - this.inFlight.size;
    if (free > 0 && !this.stopped) {
      try {
        for (const item of await this.store.claimDue(this.owner, LEASE_MS, free)) {
          const p: Promise<void> = this.deliver(item)
            .catch((err) => this.log.warn({ err, outboxId: item.id }, 'recording a notification outcome failed'))
            .finally(() => {
              this.inFlight.delete(p);
              // The session's next notification became claimable: look at once.
              this.schedule(0);
            });
          this.inFlight.add(p);
        }
      } catch (err) {
        if (!this.stopped) this.log.warn({ err }, 'claiming notifications failed');
        // The database is away: ask again less often rather than filling the log.
        next = CLAIM_FAILED_WAIT_MS;
      }
    }
    this.schedule(next);
  }
}

/** The loops of every server or worker started in this process, for Feature.setup and close. */
export class OutboxLoops {
  private readonly loops = new Set<OutboxLoop>();

  start(services: Services): void {
    const loop = new OutboxLoop(services);
    this.loops.add(loop);
    loop.start();
  }

  /** Feature.close has no handle on its server, so closing any server stops all loops in the process. */
  async stopAll(): Promise<void> {
    const loops = [...this.loops];
    this.loops.clear();
    await Promise.all(loops.map((l) => l.stop()));
  }
}
