/** Hyper-parameters of the gradient-boosted trees, named and defaulted after LightGBM's. */
export type GbdtObjective = 'auto' | 'binary' | 'multiclass' | 'l2' | 'huber';

export interface GbdtParams {
  /** 'auto': binary / multiclass for classification, l2 for regression. */
  objective?: GbdtObjective;
  numLeaves: number;
  /** -1 = no limit. */
  maxDepth: number;
  learningRate: number;
  nEstimators: number;
  minDataInLeaf: number;
  minSumHessianInLeaf: number;
  lambdaL2: number;
  /** Share of features drawn (once per tree) as split candidates. */
  featureFraction: number;
  baggingFraction: number;
  /** Redraw the bag every this many rounds; 0 = no bagging. */
  baggingFreq: number;
  /** Bins per numeric feature, not counting the missing-value bin. */
  maxBins: number;
  /** 0 = off. */
  earlyStoppingRounds: number;
  validationFraction: number;
  /** LightGBM min_data_per_group: minimum rows per side / per group of a categorical split. */
  minDataPerCategoryGroup?: number;
  /** LightGBM cat_smooth: shrinks category ratios towards zero and drops rarer categories from the search. */
  catSmooth?: number;
  /** LightGBM cat_l2: extra L2 on categorical split gains. */
  catL2?: number;
  /** LightGBM max_cat_threshold: most categories on the searched side of a split. */
  maxCatThreshold?: number;
  /** LightGBM max_cat_to_onehot: at most this many categories → one-vs-rest splits. */
  maxCatToOnehot?: number;
  /** Huber transition point; undefined = 1.345 × robust scale (MAD) of the target. */
  huberDelta?: number;
}

export type ResolvedGbdtParams = Required<Omit<GbdtParams, 'huberDelta'>> & { huberDelta?: number };

/** LightGBM's defaults (lightgbm 4.x, sklearn API). */
export const DEFAULT_GBDT_PARAMS: ResolvedGbdtParams = {
  objective: 'auto',
  numLeaves: 31,
  maxDepth: -1,
  learningRate: 0.1,
  nEstimators: 100,
  minDataInLeaf: 20,
  minSumHessianInLeaf: 1e-3,
  lambdaL2: 0,
  featureFraction: 1,
  baggingFraction: 1,
  baggingFreq: 0,
  maxBins: 255,
  earlyStoppingRounds: 0,
  validationFraction: 0.1,
  minDataPerCategoryGroup: 100,
  catSmooth: 10,
  catL2: 10,
  maxCatThreshold: 32,
  maxCatToOnehot: 4,
};

export function resolveParams(p: Partial<GbdtParams> | undefined): ResolvedGbdtParams {
  const r: ResolvedGbdtParams = { ...DEFAULT_GBDT_PARAMS };
  for (const [k, v] of Object.entries(p ?? {})) if (v !== undefined) (r as Record<string, unknown>)[k] = v;
  check(r.numLeaves >= 2, 'numLeaves must be ≥ 2');
  check(r.maxBins >= 2 && r.maxBins <= 255, 'maxBins must be in 2..255');
  check(r.learningRate > 0, 'learningRate must be > 0');
  check(r.nEstimators >= 1, 'nEstimators must be ≥ 1');
  check(r.featureFraction > 0 && r.featureFraction <= 1, 'featureFraction must be in (0, 1]');
  check(r.baggingFraction > 0 && r.baggingFraction <= 1, 'baggingFraction must be in (0, 1]');
  check(r.validationFraction > 0 && r.validationFraction < 1, 'validationFraction must be in (0, 1)');
  check(r.lambdaL2 >= 0 && r.minDataInLeaf >= 1, 'lambdaL2 must be ≥ 0 and minDataInLeaf ≥ 1');
  return r;
}

function check(ok: boolean, msg: string): void {
  if (!ok) throw new Error(`GBDT: ${msg}`);
}
