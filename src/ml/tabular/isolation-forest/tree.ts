/**
 * One isolation tree (Liu, Ting & Zhou 2008) as scikit-learn grows it: at each node a random
 * feature among those not constant in the node, a threshold uniform in its [min, max) range,
 * rows with x ≤ threshold to the left; leaves at one row or at depth ⌈log₂ ψ⌉.
 */
import type { SeededRandom } from '../../core/random.js';

/** Nodes in flat arrays; feature = -1 marks a leaf, whose path-length correction is in `threshold`. */
export interface IsolationTree {
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
}

const EULER_GAMMA = 0.5772156649015329;

/** Average path length of an unsuccessful BST search among n points: c(n) of the paper. */
export function averagePathLength(n: number): number {
  if (n <= 1) return 0;
  if (n === 2) return 1;
  return 2 * (Math.log(n - 1) + EULER_GAMMA) - (2 * (n - 1)) / n;
}

/** x: column-major n × d; rows: the tree's subsample (reordered in place). */
export function growIsolationTree(x: Float64Array, n: number, d: number, rows: Int32Array, maxDepth: number, rng: SeededRandom): IsolationTree {
  const feature: number[] = [];
  const threshold: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const candidates = new Int32Array(d);

  const grow = (start: number, end: number, depth: number): number => {
    const node = feature.length;
    feature.push(-1);
    threshold.push(averagePathLength(end - start));
    left.push(-1);
    right.push(-1);
    if (end - start <= 1 || depth >= maxDepth) return node;

    // Draw features without replacement until one varies in this node.
    for (let j = 0; j < d; j++) candidates[j] = j;
    for (let remaining = d; remaining > 0; remaining--) {
      const pick = rng.int(remaining);
      const f = candidates[pick];
      candidates[pick] = candidates[remaining - 1];
      let min = Infinity;
      let max = -Infinity;
      for (let r = start; r < end; r++) {
        const v = x[f * n + rows[r]];
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (max <= min) continue;
      let t = min + rng.next() * (max - min);
      if (t >= max) t = min; // rounding can land on max, which would leave the right side empty
      let mid = start;
      for (let r = start; r < end; r++) {
        if (x[f * n + rows[r]] <= t) {
          const tmp = rows[mid];
          rows[mid++] = rows[r];
          rows[r] = tmp;
        }
      }
      feature[node] = f;
      threshold[node] = t;
      left[node] = grow(start, mid, depth + 1);
      right[node] = grow(mid, end, depth + 1);
      return node;
    }
    return node; // every feature constant: the rows cannot be told apart
  };

  grow(0, rows.length, 0);
  return {
    feature: Int32Array.from(feature),
    threshold: Float64Array.from(threshold),
    left: Int32Array.from(left),
    right: Int32Array.from(right),
  };
}

/** Path length of row i: edges to its leaf plus c(rows that reached the leaf in training). */
export function pathLength(tree: IsolationTree, x: Float64Array, n: number, i: number): number {
  let node = 0;
  let depth = 0;
  while (tree.feature[node] >= 0) {
    node = x[tree.feature[node] * n + i] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
    depth++;
  }
  return depth + tree.threshold[node];
}
