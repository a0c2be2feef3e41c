/**
 * Curves drawn from a model's test-set scores (pure functions, unit-tested in test/web/): ROC and
 * precision-recall by sweeping the threshold over every distinct score, reliability bins, histograms.
 */

/** Truth and score of one test row for one class (one-vs-rest). */
export interface Scored { score: number; positive: boolean }

/** Rows sorted by score, highest first, grouped so tied scores move the threshold together. */
function thresholds(rows: Scored[]): { tp: number; fp: number }[] {
  const sorted = rows.filter((r) => Number.isFinite(r.score)).sort((a, b) => b.score - a.score);
  const out: { tp: number; fp: number }[] = [];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.positive) tp++;
    else fp++;
    if (i === sorted.length - 1 || sorted[i + 1]!.score !== sorted[i]!.score) out.push({ tp, fp });
  }
  return out;
}

/** ROC: (false-positive rate, true-positive rate) from (0,0) to (1,1), and the area under it (trapezoids). */
export function rocCurve(rows: Scored[]): { points: [number, number][]; auc: number } | undefined {
  const steps = thresholds(rows);
  const last = steps[steps.length - 1];
  if (!last || last.tp === 0 || last.fp === 0) return undefined;
  const points: [number, number][] = [[0, 0], ...steps.map((s): [number, number] => [s.fp / last.fp, s.tp / last.tp])];
  let auc = 0;
  for (let i = 1; i < points.length; i++) auc += (points[i]![0] - points[i - 1]![0]) * (points[i]![1] + points[i - 1]![1]) / 2;
  return { points, auc };
}

/**
 * Precision-recall: (recall, precision) at each threshold, and average precision as scikit-learn
 * defines it, Σ (Rₙ − Rₙ₋₁) Pₙ (no interpolation). `baseline` is the share of positives.
 */
export function prCurve(rows: Scored[]): { points: [number, number][]; averagePrecision: number; baseline: number } | undefined {
  const steps = thresholds(rows);
  const last = steps[steps.length - 1];
  if (!last || last.tp === 0) return undefined;
  const points: [number, number][] = [[0, 1]];
  let ap = 0;
  let prevRecall = 0;
  for (const s of steps) {
    // Thresholds above the first positive find none: recall 0 at precision 0 adds nothing to the
    // average precision, and drawn it is a vertical line down from (0, 1).
    if (s.tp === 0) continue;
    const recall = s.tp / last.tp;
    const precision = s.tp / (s.tp + s.fp);
    ap += (recall - prevRecall) * precision;
    prevRecall = recall;
    points.push([recall, precision]);
  }
  return { points, averagePrecision: ap, baseline: last.tp / (last.tp + last.fp) };
}

export interface ReliabilityBin { lower: number; upper: number; meanPredicted: number; observed: number; count: number }

/** Equal-width bins of predicted probability with the observed frequency of the class in each (empty bins left out). */
export function reliabilityBins(rows: Scored[], bins = 10): ReliabilityBin[] {
  const sums = Array.from({ length: bins }, () => ({ p: 0, y: 0, n: 0 }));
  for (const r of rows) {
    if (!Number.isFinite(r.score)) continue;
    const p = Math.min(1, Math.max(0, r.score));
    const b = sums[Math.min(bins - 1, Math.floor(p * bins))]!;
    b.p += p;
    b.y += r.positive ? 1 : 0;
    b.n++;
  }
  return sums.flatMap((s, i) => (s.n === 0 ? [] : [{ lower: i / bins, upper: (i + 1) / bins, meanPredicted: s.p / s.n, observed: s.y / s.n, count: s.n }]));
}

/** Expected calibration error over the bins: Σ (nᵢ / n) |observedᵢ − predictedᵢ|. */
export function expectedCalibrationError(bins: ReliabilityBin[]): number {
  const n = bins.reduce((a, b) => a + b.count, 0);
  return n === 0 ? NaN : bins.reduce((a, b) => a + (b.count / n) * Math.abs(b.observed - b.meanPredicted), 0);
}

export interface Histogram { edges: number[]; counts: number[] }

/** Equal-width histogram over [min, max] of the values (or the given range); the last bin is closed. */
export function histogram(values: number[], bins = 20, range?: [number, number]): Histogram {
  const finite = values.filter(Number.isFinite);
  let [lo, hi] = range ?? [Math.min(...finite), Math.max(...finite)];
  if (finite.length === 0) [lo, hi] = [0, 1];
  if (hi === lo) { lo -= 0.5; hi += 0.5; }
  const width = (hi - lo) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of finite) {
    if (v < lo || v > hi) continue;
    counts[Math.min(bins - 1, Math.floor((v - lo) / width))]!++;
  }
  return { edges: Array.from({ length: bins + 1 }, (_, i) => lo + i * width), counts };
}

/**
 * The class with the lowest one-vs-rest ROC AUC on scored result rows (`<target>:<class>` scores,
 * `<target>:actual` truth): the one whose curves say most about the model.
 */
export function hardestClass(classes: string[], rows: Record<string, string>[], target: string): string | undefined {
  let hardest: { name: string; auc: number } | undefined;
  for (const c of classes) {
    const roc = rocCurve(rows.map((r) => ({ score: Number(r[`${target}:${c}`]), positive: r[`${target}:actual`] === c })));
    if (roc && (!hardest || roc.auc < hardest.auc)) hardest = { name: c, auc: roc.auc };
  }
  return hardest?.name;
}
