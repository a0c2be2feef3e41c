/**
 * Where a session's time goes, phase by phase: wall seconds, CPU seconds and a work count for each.
 * CPU is the whole process's (process.cpuUsage: every thread, so the contest's worker threads
 * count too) — on a shared machine it says far more than wall-clock time, which another
 * engineer's benchmark can double. With several sessions at once the CPU figures overlap.
 */
export interface Phase {
  name: string;
  wallSeconds: number;
  cpuSeconds: number;
  /** What the phase processed (rows, fits, cells…), in words. */
  work?: string;
  /** Resident memory of the process when the phase ended, MB. */
  rssMb: number;
}

export class PhaseClock {
  private wall = performance.now();
  private cpu = process.cpuUsage();
  readonly phases: Phase[] = [];

  /** Closes the phase that ran since the previous mark (or the start). */
  mark(name: string, work?: string): void {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    this.phases.push({ name, wallSeconds: (wall - this.wall) / 1000, cpuSeconds: (cpu.user + cpu.system - this.cpu.user - this.cpu.system) / 1e6, work, rssMb: Math.round(process.memoryUsage.rss() / (1 << 20)) });
    this.wall = wall;
    this.cpu = cpu;
  }

  /** "encode 1.2 s (CPU 1.1 s; 800000 rows; RSS 900 MB at its end); contest …" */
  summary(): string {
    return this.phases.map((p) => `${p.name} ${p.wallSeconds.toFixed(1)} s (CPU ${p.cpuSeconds.toFixed(1)} s${p.work ? `; ${p.work}` : ''}; RSS ${p.rssMb} MB at its end)`).join('; ');
  }
}
