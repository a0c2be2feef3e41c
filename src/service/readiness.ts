import type { Db } from '../store/db.js';
import { MIGRATIONS } from '../store/migrations.js';
import { WorkStateStore } from '../store/work-state-store.js';

export interface Readiness {
  ready: boolean;
  database: 'reachable' | 'unreachable';
  /** Highest migration this build needs, and whether the database has every one. */
  migrations: { expected: number; applied: number | null; upToDate: boolean };
}

const CHECK_TIMEOUT_MS = 2000;

/** Ready = the database answers (within a bound) and holds every migration this build knows. */
export async function readiness(db: Db): Promise<Readiness> {
  const expected = Math.max(...MIGRATIONS.map((m) => m.version));
  let timer: NodeJS.Timeout | undefined;
  try {
    const applied = await Promise.race([
      new WorkStateStore(db).migrationsApplied(expected),
      new Promise<never>((_, fail) => { timer = setTimeout(() => fail(new Error('timeout')), CHECK_TIMEOUT_MS); }),
    ]);
    const upToDate = applied.count === MIGRATIONS.length;
    return { ready: upToDate, database: 'reachable', migrations: { expected, applied: applied.highest, upToDate } };
  } catch {
    return { ready: false, database: 'unreachable', migrations: { expected, applied: null, upToDate: false } };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
