/**
 * Counts predictions per account in memory and adds them to `usage_counters` (per UTC day: the
 * plans limit predictions a day) in one write per account every few seconds, so a predict request
 * does not wait on a database write.
 */
import type { ModelsStore } from '../../store/models-store.js';
import { dayKey } from '../../store/usage-store.js';

export class PredictionCounter {
  private pending = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly store: ModelsStore, everyMs = 2000) {
    // unref: a pending flush never keeps the process alive; shutdown flushes explicitly.
    setInterval(() => void this.flush(), everyMs).unref();
  }

  add(accountId: string, count: number): void {
    this.pending.set(accountId, (this.pending.get(accountId) ?? 0) + count);
  }

  /** Predictions of today (UTC), including those not yet written. */
  async current(accountId: string): Promise<number> {
    return (await this.store.predictions(accountId, dayKey(new Date()))) + (this.pending.get(accountId) ?? 0);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.pending;
      this.pending = new Map();
      const day = dayKey(new Date());
      for (const [accountId, count] of batch) {
        try {
          await this.store.addPredictions(accountId, day, count);
        } catch {
          this.add(accountId, count); // written on the next flush
        }
      }
    });
    return this.flushing;
  }
}
