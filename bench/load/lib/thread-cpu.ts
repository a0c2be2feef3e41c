import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds of each thread of a process over a stretch of time, sampled from /proc every
 * `everyMs`. A pipeline's speed on a quiet machine is bounded by its busiest thread (and by its
 * total CPU over the cores), so these figures say what a run would reach without the machine's
 * other load, which wall-clock timings on a shared machine cannot. A thread that ends between two
 * samples loses at most `everyMs` of its CPU.
 */
export class ThreadCpu {
  private readonly first = new Map<string, number>();
  private readonly last = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly pid: number, everyMs: number) {
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), everyMs);
  }

  static start(pid: number, everyMs = 100): ThreadCpu {
    return new ThreadCpu(pid, everyMs);
  }

  /** CPU seconds per thread since start, busiest first. */
  stop(): number[] {
    clearInterval(this.timer);
    this.sample(false);
    return [...this.last].map(([tid, secs]) => secs - (this.first.get(tid) ?? 0)).filter((s) => s > 0).sort((a, b) => b - a);
  }

  private sample(initial: boolean): void {
    let tids: string[];
    try { tids = readdirSync(`/proc/${this.pid}/task`); } catch { return; }
    for (const tid of tids) {
      try {
        const fields = readFileSync(`/proc/${this.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        const secs = (Number(fields[11]) + Number(fields[12])) / 100;
        if (initial) this.first.set(tid, secs);
        this.last.set(tid, secs);
      } catch { /* the thread ended */ }
    }
  }
}
