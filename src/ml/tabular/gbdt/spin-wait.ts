/**
 * Waiting for another thread to change a shared Int32 cell: poll it, then sleep on it (Atomics.wait).
 * Polling answers within nanoseconds but burns the core; a sleeping thread takes tens of microseconds
 * to wake. The polling budget adapts, as an adaptive mutex does: it doubles (up to `max`) whenever a
 * wait ends while polling and halves (down to MIN_POLLS) whenever it ends asleep. On idle cores the
 * feature team's hand-offs (microseconds apart) are then caught while polling; on an oversubscribed
 * machine, where the other thread is often descheduled and polling only steals its time, the budget
 * falls back to a short spin. The budget decides only how long a thread waits, never a result.
 */
const MIN_POLLS = 200;

export class SpinWait {
  private polls: number;
  /** Milliseconds spent asleep so far (for teamStats). */
  sleptMs = 0;

  constructor(private readonly max: number) {
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
    let v = Atomics.load(ints, index);
    while (v === value) {
      Atomics.wait(ints, index, value, 1000);
      v = Atomics.load(ints, index);
    }
    this.sleptMs += performance.now() - from;
    return v;
  }
}
