import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { DatasetsStore, type DatasetRecord } from '../../store/datasets-store.js';

/** How long a writer's lock outlives its last renewal (SIBYL_WRITER_LEASE_MS): a writer killed mid-upload blocks the next for at most this. */
export const DEFAULT_WRITER_LEASE_MS = 30_000;
const BUSY_POLL_MS = 100;

/**
 * One writer of a data set at a time (uploads, imports, row deletes): the lock is a lease on the
 * data set's row, renewed on a timer while the work runs, so nothing holds a connection or a
 * transaction meanwhile. A second writer waits for the first to publish or give up; a writer that
 * died (kill -9) loses its lock when the lease runs out.
 */
export class DatasetWriter {
  private timer: NodeJS.Timeout | undefined;
  private lost = false;

  private constructor(private readonly db: Db, readonly id: string, readonly dataset: DatasetRecord, readonly created: boolean, private readonly leaseMs: number) {}

  static async claim(db: Db, accountId: string, name: string, leaseMs = DEFAULT_WRITER_LEASE_MS): Promise<DatasetWriter> {
    const store = new DatasetsStore(db);
    const id = randomUUID();
    for (;;) {
      const got = await store.claimWriter(accountId, name, id, leaseMs);
      if (got !== 'busy') {
        const w = new DatasetWriter(db, id, got.dataset, got.created, leaseMs);
        w.startRenewing();
        return w;
      }
      await new Promise((r) => setTimeout(r, BUSY_POLL_MS));
    }
  }

  /** Throws when the lease was lost (the work took too long between renewals and another writer took over). */
  check(): void {
    if (this.lost) throw new Error('the upload lost its lock on the data set');
  }

  /** Stops renewing; the lock itself is given back by publishing or `abandon`. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Gives up: nothing of this writer's work becomes visible. */
  async abandon(): Promise<void> {
    this.stop();
    await new DatasetsStore(this.db).releaseWriter(this.dataset.id, this.id).catch(() => {});
  }

  private startRenewing(): void {
    this.timer = setInterval(() => {
      new DatasetsStore(this.db).renewWriter(this.dataset.id, this.id, this.leaseMs)
        .then((held) => { if (!held) this.lost = true; })
        .catch(() => { /* a failed renewal is retried on the next tick; the lease outlives several */ });
    }, this.leaseMs / 4);
    this.timer.unref?.();
  }
}
