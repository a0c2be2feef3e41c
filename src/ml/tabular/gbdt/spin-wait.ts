/**
 * Waiting for another thread to change a shared Int32 cell: poll it, then sleep on it (Atomics.wait).
 * Polling answers within nanoseconds but burns the core; a sleeping thread takes tens of microseconds
 * to wake. The polling budget adapts, as an adaptive mutex does: it doubles (up to `max`) whenever a
 * wait ends while polling and halves (down to MIN_POLLS) whenever it ends asleep. On idle cores the
 * feature team's hand-offs (microseconds apart) are then caught while polling; on an oversubscribed
 * machine, where the other thread is often descheduled and polling only steals its time, the budget
 * falls back to a short spin. The budget decides only how long a thread waits, never a result.
 *
 * A thread about to sleep counts itself in a sleepers word first, and a thread that changes a cell wakes
 * sleepers (Atomics.notify, which takes a process-wide lock; in a CPU profile of 2-thread fits the main
 * thread's start of a job, which notified every hand-off, was 3 % of its time) only when that word is
 * not 0 (wake). Atomics are sequentially consistent: either
 * the waker sees the count, or the sleeper's Atomics.wait sees the changed cell and does not sleep.
 */
const MIN_POLLS = 200;

export class SpinWait {
  private polls: number;
  /** Milliseconds spent asleep so far (for teamStats). */
  sleptMs = 0;

  /** sleepers: the index of the sleepers word in the arrays waited on. */
  constructor(private readonly max: number, private readonly sleepers: number) {
    this.polls = Math.max(MIN_POLLS, max);
  }

  /** Returns ints[index] once it is no longer `value`. */
  waitWhile(ints: Int32Array, index: number, value: number): number {
    for (let i = 0; i < this.polls; i++) {
      const v = Atomics.load(ints, index);
      if (v !== value) {
        this.polls = Math.min(this.max, this.polls * 2);
        return v;
      }
    }
    this.polls = Math.max(MIN_POLLS, this.polls >> 1);
    const from = performance.now();
    Atomics.add(ints, this.sleepers, 1);
    let v = Atomics.load(ints, index);
    while (v === value) {
      Atomics.wait(ints, index, value, 1000);
      v = Atomics.load(ints, index);
    }
    Atomics.sub(ints, this.sleepers, 1);
    this.sleptMs += performance.now() - from;
    return v;
  }
}

/** After changing ints[index]: wakes the threads asleep on it, if any thread is asleep (SpinWait). */
export function wake(ints: Int32Array, index: number, sleepers: number): void {
  if (Atomics.load(ints, sleepers) !== 0) Atomics.notify(ints, index);
}
