/**
 * The linear learner. With its defaults it is scikit-learn's LogisticRegression(C=1) / Ridge(alpha=1)
 * with their preprocessing; options add spline terms, missing indicators and rare-level pooling to the
 * design (design.ts) and choose the L2 strength by inner cross-validation.
 */
import type { FitOptions, Frame, Learner, Task } from '../../frame.js';
import { shuffledFolds, stratifiedFolds } from '../contest/folds.js';
import { Design, DesignSpec } from './design.js';
import { fitLogistic, predictLogistic } from './logistic.js';
import { LINEAR_ALGORITHM, LinearModel } from './model.js';
import { fitRidge, MAX_DENSE_COLUMNS, predictRidge, ridgeSystem, solveRidge } from './ridge.js';

export interface LinearSettings {
  /** Inverse L2 strength of the logistic regression (scikit-learn's C). */
  C: number;
  /** L2 strength of the ridge regression (scikit-learn's alpha). */
  alpha: number;
  maxIterations: number;
  /** Restricted cubic spline knots per numeric input (0 = the value alone). */
  splineKnots: number;
  /** A 0/1 term per numeric input that had missing values in training. */
  missingIndicators: boolean;
  /** Levels with fewer training rows share one "other" column (0 = off). */
  minLevelRows: number;
  /**
   * L2 strengths tried by inner cross-validation, as multiples of the default (logistic C = 1/s,
   * ridge alpha = s); [] = C and alpha as given. The fitted model records the strength chosen.
   */
  penaltyGrid: number[];
  innerFolds: number;
  /** The inner CV runs only while rows × design columns ≤ this; beyond it the penalty hardly matters. */
  maxTuningCells: number;
}

const DEFAULTS: LinearSettings = {
  C: 1,
  alpha: 1,
  maxIterations: 2000,
  splineKnots: 0,
  missingIndicators: false,
  minLevelRows: 0,
  penaltyGrid: [],
  innerFolds: 3,
  maxTuningCells: 2_000_000,
};

export class LinearLearner implements Learner<LinearSettings> {
  readonly algorithm = LINEAR_ALGORITHM;
  readonly params: LinearSettings;

  constructor(settings: Partial<LinearSettings> = {}) {
    this.params = { ...DEFAULTS, ...settings };
  }

  /** A logistic fit that stops at maxIterations before converging says so in the model's warnings. */
  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): LinearModel {
    const design = DesignSpec.fit(frame, this.params);
    const x = design.transform(frame);
    const weights = opts.weights ?? new Float64Array(frame.nRows).fill(1);
    const params: Record<string, unknown> & LinearSettings & { strength?: number } = { ...this.params };
    const tune = this.params.penaltyGrid.length > 1 && x.n * x.p <= this.params.maxTuningCells && x.n >= 2 * this.params.innerFolds;
    if (task.kind === 'regression') {
      let alpha = this.params.alpha;
      if (tune && x.p <= MAX_DENSE_COLUMNS) {
        params.strength = this.chooseRidgeStrength(x, target, weights, opts.seed);
        alpha = params.strength;
      }
      return new LinearModel(task, params, design, fitRidge(x, target, weights, alpha), 1);
    }
    const k = task.classes.length;
    if (k < 2) throw new Error('classification needs at least two classes');
    let C = this.params.C;
    if (tune) {
      params.strength = this.chooseLogisticStrength(x, target, k, weights, opts.seed);
      C = 1 / params.strength;
    }
    const fit = fitLogistic(x, target, k, weights, { C, maxIterations: this.params.maxIterations });
    const warnings = fit.converged
      ? []
      : [`The logistic regression stopped after ${fit.iterations} iterations (maxIterations) before converging; its coefficients may be imprecise.`];
    return new LinearModel(task, params, design, fit.coefficients, fit.outputs, warnings);
  }

  /** Held-out rows of each inner fold get weight 0 (both solvers skip them), so no design is copied. */
  private innerWeights(y: Float64Array, weights: Float64Array, k: number, seed: number): { train: Float64Array; test: Int32Array }[] {
    const folds = this.params.innerFolds;
    const foldOf = k > 0 ? stratifiedFolds(Int32Array.from(y), k, folds, seed) : shuffledFolds(y.length, folds, seed);
    return Array.from({ length: folds }, (_, f) => {
      const train = Float64Array.from(weights, (w, i) => (foldOf[i] === f ? 0 : w));
      const test: number[] = [];
      for (let i = 0; i < y.length; i++) if (foldOf[i] === f && weights[i] > 0) test.push(i);
      return { train, test: Int32Array.from(test) };
    });
  }

  /** Ridge strength with the least inner-CV squared error: one normal-equation system per fold serves every strength. */
  private chooseRidgeStrength(x: Design, y: Float64Array, weights: Float64Array, seed: number): number {
    const grid = this.params.penaltyGrid;
    const loss = new Float64Array(grid.length);
    for (const fold of this.innerWeights(y, weights, 0, seed)) {
      const system = ridgeSystem(x, y, fold.train);
      const held = rowsOf(x, fold.test);
      grid.forEach((s, g) => {
        const pred = predictRidge(held, solveRidge(system, s * this.params.alpha));
        for (let i = 0; i < fold.test.length; i++) loss[g] += weights[fold.test[i]] * (y[fold.test[i]] - pred[i]) ** 2;
      });
    }
    return grid[argMin(loss)];
  }

  /** Logistic strength with the least inner-CV log loss; each fold walks the grid from strong to weak, warm-started. */
  private chooseLogisticStrength(x: Design, y: Float64Array, k: number, weights: Float64Array, seed: number): number {
    const grid = this.params.penaltyGrid;
    const order = grid.map((_, g) => g).sort((a, b) => grid[b] - grid[a]);
    const loss = new Float64Array(grid.length);
    for (const fold of this.innerWeights(y, weights, k, seed)) {
      const held = rowsOf(x, fold.test);
      let start: Float64Array | undefined;
      for (const g of order) {
        const fit = fitLogistic(x, y, k, fold.train, { C: this.params.C / grid[g], maxIterations: this.params.maxIterations, start });
        start = fit.coefficients;
        const proba = predictLogistic(held, fit.coefficients, fit.outputs, k);
        for (let i = 0; i < fold.test.length; i++) {
          const r = fold.test[i];
          loss[g] -= weights[r] * Math.log(Math.max(1e-15, proba[i * k + y[r]]));
        }
      }
    }
    return grid[argMin(loss)];
  }
}

function rowsOf(x: Design, rows: Int32Array): Design {
  const dense = new Float64Array(rows.length * x.pNum);
  const active = new Int32Array(rows.length * x.nCat);
  rows.forEach((r, i) => {
    dense.set(x.dense.subarray(r * x.pNum, (r + 1) * x.pNum), i * x.pNum);
    active.set(x.active.subarray(r * x.nCat, (r + 1) * x.nCat), i * x.nCat);
  });
  return new Design(rows.length, x.pNum, x.nCat, x.p, dense, active);
}

/** First index of the smallest value (ties go to the earlier, i.e. the grid's order). */
function argMin(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] < values[best]) best = i;
  return best;
}
