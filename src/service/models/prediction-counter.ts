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

  /**
   * Predictions of today (UTC), including those not yet written. A flush takes its batch out of
   * `pending` before its write commits, so a read in between counted the batch nowhere (the account
   * header then lagged by it for as long as the reads kept landing in flushes, seen under CI load);
   * the read waits for the flush under way and is taken again if another started meanwhile.
   */
  async current(accountId: string): Promise<number> {
    for (;;) {
      const flushing = this.flushing;
      await flushing;
      const stored = await this.store.predictions(accountId, dayKey(new Date()));
      if (this.flushing === flushing) return stored + (this.pending.get(accountId) ?? 0);
    }
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
