/**
 * The 80/20 train/test split of a model session (compat-notes §6). Classification splits each
 * class separately so the test set keeps the class mix; the seed comes from the session id, so a
 * session that runs again gets the same split.
 */
export const TEST_SHARE = 0.2;

export interface Split {
  train: Int32Array;
  test: Int32Array;
}

/** A stable 32-bit seed from a string (FNV-1a). */
export function seedFromId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `groups[i]` = stratum of row i (class index), or undefined for a plain shuffled split of n rows. */
export function holdoutSplit(n: number, seed: number, groups?: ArrayLike<number>): Split {
  const random = mulberry32(seed);
  const strata = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = groups ? groups[i] : 0;
    let rows = strata.get(g);
    if (!rows) strata.set(g, (rows = []));
    rows.push(i);
  }
  const train: number[] = [];
  const test: number[] = [];
  for (const rows of strata.values()) {
    shuffle(rows, random);
    // Every stratum with 2+ rows keeps at least one row on each side.
    const nTest = rows.length < 2 ? 0 : Math.min(rows.length - 1, Math.max(1, Math.round(rows.length * TEST_SHARE)));
    test.push(...rows.slice(0, nTest));
    train.push(...rows.slice(nTest));
  }
  const ascending = (a: number, b: number) => a - b;
  return { train: Int32Array.from(train.sort(ascending)), test: Int32Array.from(test.sort(ascending)) };
}

function shuffle(a: number[], random: () => number): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
}

function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
