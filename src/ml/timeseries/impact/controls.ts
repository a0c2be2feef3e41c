/**
 * Control series for the counterfactual regression (PROTOCOL §4): with more controls than
 * ⌊n_pre/4⌋ only the ones best correlated with the target over the pre-period are kept (too many
 * regressors on a short pre-period fit noise), and each kept control is standardised with its
 * pre-period mean and standard deviation.
 */

export interface PreparedControls {
  /** Indices into the caller's controls, in the order of `values`. */
  used: number[];
  /** Standardised controls over the whole series. */
  values: Float64Array[];
  /** Pre-period mean and standard deviation of each used control (to express coefficients per unit). */
  means: number[];
  sds: number[];
}

function meanSd(x: ArrayLike<number>, n: number): [number, number] {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i];
  const mean = s / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i] - mean) ** 2;
  return [mean, Math.sqrt(ss / n)];
}

/** Pearson correlation over the first n points, skipping points where y is missing. */
export function preCorrelation(y: ArrayLike<number>, x: ArrayLike<number>, n: number): number {
  let count = 0;
  let sy = 0;
  let sx = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(y[i])) continue;
    sy += y[i];
    sx += x[i];
    count++;
  }
  const my = sy / count;
  const mx = sx / count;
  let cxy = 0;
  let cxx = 0;
  let cyy = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(y[i])) continue;
    cxy += (x[i] - mx) * (y[i] - my);
    cxx += (x[i] - mx) ** 2;
    cyy += (y[i] - my) ** 2;
  }
  return cxx > 0 && cyy > 0 ? cxy / Math.sqrt(cxx * cyy) : 0;
}

export function prepareControls(y: ArrayLike<number>, controls: readonly ArrayLike<number>[], nPre: number): PreparedControls {
  // A control constant over the pre-period carries no information about the target.
  let candidates = controls.map((_, i) => i).filter((i) => meanSd(controls[i], nPre)[1] > 0);
  const limit = Math.floor(nPre / 4);
  if (candidates.length > limit) {
    const corr = new Map(candidates.map((i) => [i, preCorrelation(y, controls[i], nPre)]));
    candidates = [...candidates].sort((a, b) => corr.get(b)! - corr.get(a)! || a - b).slice(0, limit);
  }
  const means: number[] = [];
  const sds: number[] = [];
  const values = candidates.map((i) => {
    const [mean, sd] = meanSd(controls[i], nPre);
    means.push(mean);
    sds.push(sd);
    return Float64Array.from(controls[i], (v) => (v - mean) / sd);
  });
  return { used: candidates, values, means, sds };
}

/** The prepared controls at positions `keep` (indices into `prepared.values`). */
export function keepControls(prepared: PreparedControls, keep: readonly number[]): PreparedControls {
  return {
    used: keep.map((j) => prepared.used[j]),
    values: keep.map((j) => prepared.values[j]),
    means: keep.map((j) => prepared.means[j]),
    sds: keep.map((j) => prepared.sds[j]),
  };
}
