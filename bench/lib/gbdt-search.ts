/**
 * Experiment (bench:yardstick-cache candidate gbdt_search; not adopted, see that file's header).
 * A GBDT whose settings are chosen among a few by successive halving over inner folds (Jamieson &
 * Talwalkar 2016, with folds as the resource): every setting is fitted on the first inner fold, the
 * best `keep` by held-out loss go on to the remaining folds, and the one with the least loss over all
 * the folds it saw is refitted on every row. The whole search stays inside the rows given to `fit`,
 * so the contest's own cross-validation judges the searched GBDT as it judges any other candidate.
 * Its work is fixed by the list: settings × one fold + keep × (folds − 1) fits, then the refit.
 */
import type { FitOptions, Frame, Learner, Task, TrainedModel } from '../../src/ml/frame.js';
import { GbdtLearner, type GbdtParams } from '../../src/ml/tabular/gbdt/index.js';
import { foldRows, shuffledFolds, stratifiedFolds } from '../../src/ml/tabular/contest/folds.js';
import { pick, selectRows } from '../../src/ml/tabular/contest/frame-rows.js';

export interface GbdtSearch {
  /** The settings tried (each over the GBDT defaults). */
  settings: Partial<GbdtParams>[];
  /** Inner folds: the first one screens every setting, the rest judge the kept ones. */
  folds: number;
  /** Settings kept after the first fold. */
  keep: number;
}

/** Seeds of the inner folds apart from the refit's. */
const INNER_SEED_OFFSET = 7919;

export class GbdtSearchLearner implements Learner {
  readonly algorithm: GbdtLearner['algorithm'];
  readonly params: Readonly<GbdtSearch>;
  private readonly threads: number;

  constructor(search: GbdtSearch, opts: { threads?: number } = {}) {
    if (search.settings.length < 1 || search.folds < 2 || search.keep < 1) throw new Error('GBDT search: needs ≥ 1 setting, ≥ 2 folds, keep ≥ 1');
    this.params = search;
    this.threads = opts.threads ?? 1;
    this.algorithm = new GbdtLearner(search.settings[0]).algorithm;
  }

  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): TrainedModel {
    const chosen = this.choose(frame, target, task, opts);
    return new GbdtLearner(this.params.settings[chosen], { threads: this.threads }).fit(frame, target, task, opts);
  }

  /** Index of the setting with the least held-out loss after successive halving. */
  choose(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): number {
    const { settings, folds, keep } = this.params;
    const n = frame.nRows;
    const k = task.kind === 'classification' ? task.classes.length : 0;
    if (settings.length === 1 || n < 2 * folds) return 0;
    const seed = opts.seed + INNER_SEED_OFFSET;
    const foldOf = k > 0 ? stratifiedFolds(Int32Array.from(target), k, folds, seed) : shuffledFolds(n, folds, seed);
    const loss = new Float64Array(settings.length);
    const heldLoss = (s: number, f: number) => {
      const { train, test } = foldRows(foldOf, f);
      const yTrain = pick(target, train);
      if (k > 0 && yTrain.every((v) => v === yTrain[0])) return 0;
      const model = new GbdtLearner(settings[s]).fit(selectRows(frame, train), yTrain, task, {
        seed: seed + f,
        weights: opts.weights ? pick(opts.weights, train) : undefined,
      });
      const scores = model.predictScores(selectRows(frame, test));
      let sum = 0;
      for (let i = 0; i < test.length; i++) {
        const r = test[i];
        const w = opts.weights ? opts.weights[r] : 1;
        sum += w * (k > 0 ? -Math.log(Math.min(1, Math.max(1e-15, scores[i * k + target[r]]))) : (scores[i] - target[r]) ** 2);
      }
      return sum;
    };
    settings.forEach((_, s) => (loss[s] = heldLoss(s, 0)));
    // Ties keep the earlier setting: the list runs from the most constrained to the most flexible.
    const kept = settings.map((_, s) => s).sort((a, b) => loss[a] - loss[b] || a - b).slice(0, Math.min(keep, settings.length));
    if (kept.length === 1) return kept[0];
    for (let f = 1; f < folds; f++) for (const s of kept) loss[s] += heldLoss(s, f);
    return kept.reduce((best, s) => (loss[s] < loss[best] || (loss[s] === loss[best] && s < best) ? s : best));
  }
}

/** Shared by the small-data settings (those of the contest's gbdt_small_data). */
const SMALL_DATA_COMMON: Partial<GbdtParams> = { lambdaL2: 1, learningRate: 0.05, featureFraction: 0.8, baggingFraction: 0.8, baggingFreq: 1 };

/**
 * The settings the experiment chose among, from additive (stumps) to LightGBM's defaults, the
 * contest's gbdt_small_data fourth; fixed before any yardstick result was seen.
 */
export const SMALL_DATA_GBDT_SEARCH: GbdtSearch = {
  settings: [
    { ...SMALL_DATA_COMMON, numLeaves: 2, minDataInLeaf: 5, nEstimators: 100 },
    { ...SMALL_DATA_COMMON, numLeaves: 2, minDataInLeaf: 5, nEstimators: 400 },
    { ...SMALL_DATA_COMMON, numLeaves: 4, minDataInLeaf: 10, nEstimators: 200 },
    { ...SMALL_DATA_COMMON, numLeaves: 8, minDataInLeaf: 5, nEstimators: 300 },
    { ...SMALL_DATA_COMMON, numLeaves: 16, minDataInLeaf: 10, nEstimators: 150 },
    {},
  ],
  folds: 3,
  keep: 2,
};
