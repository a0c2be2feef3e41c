/** A cached entry served until `until`. */
export interface Expiring { until: number; refreshing?: boolean }

/**
 * The entry if it is still alive, else undefined (the caller reads it afresh). In the second half of
 * its life it is re-read once in the background by `refresh`, so steady traffic never waits on the
 * database (a request that did was a predict's p99); an entry is never served past `until`.
 */
export function aliveRefreshingAhead<E extends Expiring>(hit: E | undefined, lifeMs: number, refresh: (stale: E) => Promise<unknown>): E | undefined {
  const now = Date.now();
  if (!hit || hit.until <= now) return undefined;
  if (hit.until - now < lifeMs / 2 && !hit.refreshing) {
    hit.refreshing = true;
    refresh(hit).catch(() => { hit.refreshing = false; });
  }
  return hit;
}
