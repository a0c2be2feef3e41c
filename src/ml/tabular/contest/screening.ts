/**
 * Early elimination of costly candidates in a regression contest (successive halving in two rungs).
 * A forest is a mean of independent trees, so a fifth of its trees says almost as much about its
 * accuracy as all of them: on the first fold each forest first grows SCREEN_TREES trees as two
 * independent halves, whose disagreement estimates how much the remaining trees would still lower
 * its squared error. A forest whose extrapolated error is clearly worse than the best contestant's on
 * the same rows (by more than SCREEN_Z standard errors of the paired per-row difference) stops there
 * and leaves the contest; the others grow the rest of their trees, which with the screening trees
 * make exactly a forest of their full size (trees are independent draws). Regression only: its
 * selection loss (squared error) has this simple dependence on the number of trees; classification
 * forests are cheaper (√p features per split) and their log loss has no such correction.
 *
 * On 10,000 × 30 regression records (bench:contest-cpu --regression) the two forests were 13 of 20
 * CPU seconds of the contest and both far behind GBDT; with the screen the contest took 7.9 CPU s
 * (was 20.4, same champion). On the yardstick (issue 10, nested CV, all 23 regression sets cached;
 * bench:yardstick-cache evaluate --screen 2, which judges the screen on the stored full forests) it
 * dropped 30 of 130 forest fits on the tuning half and left RMSE ÷ LightGBM where it was (0.8967 →
 * 0.8968; no set moved more than 1 %); the confirmation half agreed (26 of 100 dropped, 0.9275 →
 * 0.9274). A bolder screen (1 standard error) lost accuracy on both halves of the first 21 sets
 * (0.8905 → 0.8936, 0.9237 → 0.9255); SCREEN_Z = 2 was set before either was run.
 */
import type { Task } from '../../frame.js';
import { FOREST_TREES_IN_CV, type CandidateSpec } from './candidates.js';

/** Trees a forest grows before the screen (two independent halves of SCREEN_TREES / 2). */
export const SCREEN_TREES = 20;
/**
 * Standard errors of the paired per-row squared-error difference by which a screened forest must
 * trail the best contestant to be dropped: one-sided, a forest as good as the best is dropped in
 * about 2 % of contests by chance alone.
 */
export const SCREEN_Z = 2;

/** Whether a candidate is screened before it is fitted in full. */
export function isScreened(spec: CandidateSpec, task: Task): boolean {
  return task.kind === 'regression' && (spec.algorithm === 'random_forest' || spec.algorithm === 'extra_trees') && treesInCv(spec) > SCREEN_TREES;
}

export function treesInCv(spec: CandidateSpec): number {
  return spec.algorithm === 'random_forest' || spec.algorithm === 'extra_trees' ? spec.params.nTrees ?? FOREST_TREES_IN_CV : 0;
}

/** The same forest with `trees` trees (a part of the forest the fold job grows). */
export function withTrees(spec: CandidateSpec, trees: number): CandidateSpec {
  if (spec.algorithm !== 'random_forest' && spec.algorithm !== 'extra_trees') throw new Error(`${spec.id} is not a forest`);
  return { ...spec, params: { ...spec.params, nTrees: trees } };
}

/**
 * Per-row squared error the full forest (`fullTrees` trees) is expected to have, from two independent
 * half-forests of `halfTrees` trees each: the mean of m trees predicts f∞ + noise of variance σ²/m, so
 * (mean − y)² over-states the full forest's error by σ²·(1/(2·halfTrees) − 1/fullTrees), where σ² (the
 * variance of one tree's prediction) is estimated without bias by halfTrees·(a − b)²/2.
 */
export function extrapolatedSquaredErrors(a: Float64Array, b: Float64Array, y: Float64Array, halfTrees: number, fullTrees: number): Float64Array {
  const shrink = 1 / (2 * halfTrees) - 1 / fullTrees;
  return Float64Array.from(y, (v, i) => {
    const mean = (a[i] + b[i]) / 2;
    const treeVariance = (halfTrees * (a[i] - b[i]) ** 2) / 2;
    return (mean - v) ** 2 - shrink * treeVariance;
  });
}

export interface ScreenEntry {
  id: string;
  /** Per-row squared error on the screening rows (extrapolated for screened candidates). */
  losses: Float64Array;
  screened: boolean;
}

/**
 * The screened candidates that leave the contest: those whose mean loss exceeds the best entry's by
 * more than `z` standard errors of the paired row-wise difference.
 */
export function screenedOut(entries: ScreenEntry[], z = SCREEN_Z): Set<string> {
  const mean = (a: Float64Array) => a.reduce((s, v) => s + v, 0) / a.length;
  let best = entries[0];
  for (const e of entries) if (mean(e.losses) < mean(best.losses)) best = e;
  const out = new Set<string>();
  for (const e of entries) {
    if (!e.screened || e === best) continue;
    const n = e.losses.length;
    if (n < 2) continue;
    const d = Float64Array.from(e.losses, (v, i) => v - best.losses[i]);
    const m = mean(d);
    let ss = 0;
    for (const v of d) ss += (v - m) ** 2;
    const standardError = Math.sqrt(ss / (n - 1) / n);
    if (m > z * standardError) out.add(e.id);
  }
  return out;
}
