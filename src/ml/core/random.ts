/**
 * The one seeded PRNG (mulberry32) of ml/: deterministic for a given seed, no global state.
 * Every learner, splitter and simulation draws from it; each keeps its own stream through its salt
 * (or, for streams fixed before this module existed, its raw starting state), so models and
 * simulated intervals stay what they were.
 */
export class SeededRandom {
  private state: number;
  /** The second Box–Muller normal, kept for the next call. */
  private spare = NaN;

  /**
   * Nearby seeds (0, 1, 2 …) are mixed to start far apart; `salt` gives a learner its own stream
   * for the same seed (the GBDT keeps the one its models were tuned and tested with).
   */
  constructor(seed: number, salt = 0x85ebca6b) {
    this.state = (Math.imul(seed | 0, 0x9e3779b1) ^ salt) >>> 0;
  }

  /** A generator whose 32-bit state starts at `state` exactly (streams defined before the seed mixing). */
  static fromState(state: number): SeededRandom {
    const r = new SeededRandom(0);
    r.state = state >>> 0;
    return r;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in the open interval (0, 1): safe under a logarithm. */
  nextOpen(): number {
    return (this.nextUint32() + 0.5) / 4294967296;
  }

  /** Standard normal (Box–Muller on open uniforms, both values of a pair used). */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = NaN;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(this.nextOpen()));
    const theta = 2 * Math.PI * this.nextOpen();
    this.spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  /**
   * Chi-square with `dof` (> 0, not necessarily whole) degrees of freedom: twice a gamma(dof/2)
   * draw by Marsaglia and Tsang (2000), boosted by U^(1/shape) for shapes below 1.
   */
  chiSquare(dof: number): number {
    let shape = dof / 2;
    let boost = 1;
    if (shape < 1) {
      boost = this.nextOpen() ** (1 / shape);
      shape += 1;
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = this.normal();
      const v = (1 + c * x) ** 3;
      if (v <= 0) continue;
      if (Math.log(this.nextOpen()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return 2 * d * v * boost;
    }
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Fisher–Yates, in place. */
  shuffle(a: Int32Array | number[]): void {
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
    // Ascending: sorting k values costs k·log k steps, a pass over n flags n; the flags win for a large
    // share (GBDT bins sample 200,000 of 400,000 rows per feature: 40 ms → a few per feature).
    if (k < n / 16) return all.subarray(0, k).sort();
    const chosen = new Uint8Array(n);
    for (let i = 0; i < k; i++) chosen[all[i]] = 1;
    // Without a branch: at half the rows chosen it would be mispredicted every other row.
    for (let i = 0, m = 0; i < n; i++) {
      all[m] = i;
      m += chosen[i];
    }
    return all.subarray(0, k);
  }

  private nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}

