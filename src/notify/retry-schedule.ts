/**
 * When a failed notification is tried again: 1 s, 2 s, 4 s … doubling up to 10 minutes apart,
 * for about a day. A receiver that is down for hours still gets every event once it is back;
 * one that never answers stops costing attempts after a day.
 */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 10 * 60 * 1000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/** The wait after the given (1-based) failed attempt, or null when the item should be given up. */
export function retryDelayMs(failedAttempts: number): number | null {
  if (failedAttempts >= MAX_ATTEMPTS) return null;
  return delayAfter(failedAttempts);
}

function delayAfter(failedAttempts: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(30, failedAttempts - 1));
}

/** Attempts whose waits add up to GIVE_UP_AFTER_MS (about 150). */
export const MAX_ATTEMPTS = (() => {
  let waited = 0;
  let attempts = 1;
  while (waited + delayAfter(attempts) <= GIVE_UP_AFTER_MS) waited += delayAfter(attempts++);
  return attempts;
})();
