import type { Db } from '../store/db.js';
import { DatasetRowsStore } from '../store/dataset-rows-store.js';

const IDLE_MS = 30_000;
/** Between steps: the collector is background work, and on the embedded store it shares one connection. */
const STEP_PAUSE_MS = 20;

/**
 * Deletes rows nobody can read any more (replaced versions past their grace period, uploads that
 * failed or whose process died), one small step at a time, on its own timer in every process that
 * runs jobs. Steps are idempotent, so several processes collecting at once only share the work.
 */
export class SegmentCollector {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly db: Db) {}

  start(): void {
    this.schedule(IDLE_MS / 10);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => { this.running = undefined; });
    }, ms);
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    const store = new DatasetRowsStore(this.db.bulk());
    let next = IDLE_MS;
    try {
      if (!this.stopped && await store.collectStep()) next = STEP_PAUSE_MS;
    } catch (e) {
      console.error('collecting replaced rows failed', e);
    }
    this.schedule(next);
  }
}
