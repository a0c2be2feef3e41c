/**
 * When the GBDT feature team (feature-team.ts) hands work to its helper threads, and what it did. The
 * rules decide only which thread computes what, never the numbers: models are byte-identical for any
 * values (test/ml/gbdt/gbdt-threads.test.ts fits with every job shared). They are variables so that
 * bench/gbdt-threads.ts can compare rules (its --tune option); fits read them when they start.
 */
export const teamTuning = {
  /**
   * The most polls of the control block before sleeping on it (spin-wait.ts; a poll takes a few
   * nanoseconds). While a tree grows the next job or an answer follows within microseconds, but a
   * sleeping thread takes tens of microseconds to wake: with a fixed 200 polls nearly every hand-off
   * paid that, and a 2-thread fit was slower than one thread. 2^18 measured slower again.
   */
  spins: 1 << 15,
  /**
   * Work units of a leaf job below which the main thread does the whole job alone (as one thread would,
   * so with the same result). A unit is one histogram cell added (a row of one feature) or one histogram
   * bin subtracted or scanned for a split: the split scan of a leaf costs the same however few its rows,
   * so small leaves deep in a tree still share it when their histograms are wide.
   */
  soloWork: 8192,
  /** Whether soloWork counts the bins scanned (false: rows × features only, the rule before). */
  countScans: true,
  /** Rows below which row work (gradients, scores) stays on the main thread. */
  parallelRows: 4096,
  /**
   * Rows of a split leaf below which its partition stays on the main thread: by default every partition
   * (the most rows a wasm memory can index). Shared, a partition cost the main thread more than doing it
   * alone, at every size measured: main-thread wall time in partitions of ≥ 4,096 rows per 2-thread fit,
   * shared from 4,096 rows against none shared, minimum of 5 fits each alternating (load 1.6–2.8):
   * synthetic 40k 60.3 / 48.7 ms against 48.3 / 43.6 ms; synthetic 400k, of 2 fits, 868 / 942 ms against
   * 573 / 599 ms. Each thread partitioning its row blocks wholly into scratch and then moving its blocks'
   * parts to their places (offsets from the blocks' counts), instead of the main thread merging them,
   * was no better: 40k 49.5 / 42.8 ms against 42.5 / 42.5 ms alone; 400k 1,187 / 981 ms against 632 / 704.
   */
  partitionRows: 2 ** 31 - 1,
  /**
   * Whether a round with at least one class per thread grows whole trees on each thread at once
   * (feature-team.ts growClasses) rather than sharing each tree's leaf jobs (false: the rule before).
   */
  growClasses: true,
  /**
   * Blocks per thread of a shared job: a leaf job's features and a row job's rows are cut into this many
   * blocks per thread (at most 32 in all), which the threads take one at a time, whichever is free. A
   * helper the machine has not run lately then holds up a job by one block at most, not by half of it.
   */
  blocksPerThread: 4,
  /**
   * Whether the tree learner hands the split of the leaf with the next best gain to a helper while the
   * main thread splits the best one (leaf-split.ts; false: every leaf split shared job by job, as before).
   */
  splitAhead: true,
  /**
   * Splits handed ahead at most at a time (1 or 2: the control block's mailboxes). With 2, 17.5 of a
   * tree's 30 splits went ahead instead of 12.5 (synthetic 40k × 30), but the main thread waited 0.11–
   * 0.15 s a fit for a helper still on the one before, and the wall speed-up was no better (1.08–1.47×
   * against 1.29–1.51×, alternating, load 1.4–1.6).
   */
  splitsAheadAtOnce: 1,
  /** Rows × features per thread below which a fit stays on one thread (learner.ts). */
  minCellsPerThread: 50_000,
};

/**
 * What the team did, summed over every fit in this process since the last reset: for benchmarks
 * (bench/gbdt-threads.ts), which cannot time the threads apart on a shared machine. Wall-clock
 * intervals on the main thread: its share of each shared job, and its wait for the helpers after it.
 */
export const teamStats = {
  /** Trees grown (setFeatures calls). */
  trees: 0,
  /** Hand-offs to the helpers (one per shared job), by kind, and leaf jobs the main thread did alone. */
  syncs: 0,
  leafSyncs: 0,
  rowSyncs: 0,
  soloJobs: 0,
  /** Shared leaf jobs whose histogram was built in more than one row chunk (threads on different rows). */
  chunkedJobs: 0,
  /** Class jobs (a multiclass round's trees grown whole by the threads at once, feature-team.ts growClasses). */
  classSyncs: 0,
  /** Leaf splits handed ahead to a helper (leaf-split.ts); of those done by the main thread (no helper took it in time); its waits for them (ms). */
  splitsAhead: 0,
  splitsAheadByMain: 0,
  splitWaitMs: 0,
  /**
   * The main thread's time on splits ahead it did itself; and Σ over splits ahead of their length beyond
   * the main thread's work between posting and needing them: what they add to a free-hand-off critical path.
   */
  splitByMainMs: 0,
  splitCriticalMs: 0,
  /** The time spent on splits ahead by whichever thread did them. */
  splitBusyMs: 0,
  /** Blocks of shared block jobs, and of those the helpers took. */
  blocks: 0,
  helperBlocks: 0,
  /** Main thread: its share of shared jobs; its wait for the helpers after it (of which asleep). */
  mainShareMs: 0,
  waitMs: 0,
  sleepMs: 0,
  /** The helpers' busy time on the blocks they took; on class jobs, the first helper's. */
  helperBusyMs: 0,
  /**
   * Σ over class and stop jobs of max(main share, helper busy): their length with free hand-offs. Block
   * jobs (either thread takes any block) add the main thread's share to blockShareMs instead.
   */
  jobCriticalMs: 0,
  blockShareMs: 0,
  /**
   * Data preparation by column ranges (prepare-data.ts), on more than one thread: the main thread's
   * wall time in it (its waits asleep are in sleepMs too), and max(main share, each helper's busy time).
   */
  prepareWallMs: 0,
  prepareCriticalMs: 0,
  /**
   * With phaseCpu on (off by default; the figures are process CPU, so meaningful for one-thread fits):
   * CPU microseconds of the boosting loop's gradients, and of each round's trees, tree by tree (each
   * with its score update) — the parts a multi-thread fit splits between threads.
   */
  phaseCpu: false,
  gradientCpuUs: 0,
  roundTreeCpuUs: [] as number[][],
  reset(): void {
    this.trees = this.syncs = this.leafSyncs = this.rowSyncs = this.soloJobs = this.chunkedJobs = this.classSyncs = this.blocks = this.helperBlocks = 0;
    this.splitsAhead = this.splitsAheadByMain = this.splitWaitMs = this.splitByMainMs = this.splitCriticalMs = this.splitBusyMs = 0;
    this.mainShareMs = this.waitMs = this.sleepMs = this.helperBusyMs = this.jobCriticalMs = this.blockShareMs = 0;
    this.prepareWallMs = this.prepareCriticalMs = this.gradientCpuUs = 0;
    this.roundTreeCpuUs = [];
  },
};
