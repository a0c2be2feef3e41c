/** Small seeded PRNG (mulberry32): deterministic runs for a given seed, no global state. */
export class SeededRandom {
  private state: number;

  /**
   * Nearby seeds (0, 1, 2 …) are mixed to start far apart; `salt` gives a learner its own stream
   * for the same seed (the GBDT keeps the one its models were tuned and tested with).
   */
  constructor(seed: number, salt = 0x85ebca6b) {
    this.state = (Math.imul(seed | 0, 0x9e3779b1) ^ salt) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  shuffle(a: Int32Array): void {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** k distinct indices out of 0..n-1, ascending. */
  sample(n: number, k: number): Int32Array {
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    for (let i = 0; i < k; i++) {
      const j = i + this.int(n - i);
      const t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    return all.subarray(0, k).sort();
  }
}
