import type { Db } from '../../store/db.js';
import { WebAuthStore } from '../../store/web-auth-store.js';
import { TooManyAttemptsError } from '../errors.js';

/** How many attempts a bucket may make within a window. */
export interface AttemptLimit { max: number; windowMs: number }

const MINUTE = 60_000;

/**
 * Limits per e-mail address (guessing one account's password) and per client address (guessing many
 * accounts, or signing up in bulk). Failed sign-ins count; a successful one clears its address.
 * The current password asked by the account area (change password, change address) is limited the
 * same way per account and per client: a stolen session cookie must not become the password.
 */
export const LIMITS = {
  signInPerEmail: { max: 10, windowMs: 15 * MINUTE },
  signInPerClient: { max: 50, windowMs: 15 * MINUTE },
  signUpPerClient: { max: 10, windowMs: 60 * MINUTE },
  currentPasswordPerAccount: { max: 10, windowMs: 15 * MINUTE },
  currentPasswordPerClient: { max: 30, windowMs: 15 * MINUTE },
  mailPerEmail: { max: 5, windowMs: 60 * MINUTE },
  mailPerClient: { max: 20, windowMs: 60 * MINUTE },
} satisfies Record<string, AttemptLimit>;

/**
 * Counts attempts in the database, so the limits hold across every API process sharing it (and
 * survive a restart). Each check records the attempt first, then refuses once a bucket is over.
 */
export class AttemptLimiter {
  private calls = 0;

  constructor(private readonly db: Db) {}

  async check(buckets: [string, AttemptLimit][], what: string): Promise<void> {
    const store = new WebAuthStore(this.db);
    if (++this.calls % 100 === 0) await store.prune(new Date(Date.now() - 24 * 60 * MINUTE));
    for (const [bucket, limit] of buckets) {
      const [count] = await store.countAttempt([bucket], limit.windowMs);
      if (count! > limit.max) {
        throw new TooManyAttemptsError(`Too many ${what} attempts; try again in ${Math.ceil(limit.windowMs / MINUTE)} minutes`, Math.ceil(limit.windowMs / 1000));
      }
    }
  }

  clear(bucket: string): Promise<void> {
    return new WebAuthStore(this.db).clearAttempts(bucket);
  }
}
