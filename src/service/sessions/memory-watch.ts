/**
 * Peak resident memory of this process while a session runs, sampled (resident memory has no
 * per-task counter: a session's worker threads share the process). With several sessions at
 * once the figure covers them all, which is what the machine has to provide.
 */
export class MemoryWatch {
  private readonly startBytes = process.memoryUsage.rss();
  private peakBytes = this.startBytes;
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 100) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref?.();
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakBytes) this.peakBytes = rss;
  }

  /** The peak so far and the resident memory now, MB. */
  now(): { peakMb: number; rssMb: number } {
    this.sample();
    return { peakMb: mb(this.peakBytes), rssMb: mb(process.memoryUsage.rss()) };
  }

  /** Stops sampling; sizes in MB. */
  stop(): { startMb: number; peakMb: number } {
    this.sample();
    clearInterval(this.timer);
    return { startMb: mb(this.startBytes), peakMb: mb(this.peakBytes) };
  }
}

function mb(bytes: number): number {
  return Math.round(bytes / (1 << 20));
}
