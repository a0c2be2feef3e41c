/** The linear learner: scikit-learn's LogisticRegression(C=1) / Ridge(alpha=1) with their preprocessing. */
import type { FitOptions, Frame, Learner, Task } from '../../frame.js';
import { DesignSpec } from './design.js';
import { fitLogistic } from './logistic.js';
import { LINEAR_ALGORITHM, LinearModel } from './model.js';
import { fitRidge } from './ridge.js';

export interface LinearSettings {
  /** Inverse L2 strength of the logistic regression (scikit-learn's C). */
  C: number;
  /** L2 strength of the ridge regression (scikit-learn's alpha). */
  alpha: number;
  maxIterations: number;
}

const DEFAULTS: LinearSettings = { C: 1, alpha: 1, maxIterations: 2000 };

export class LinearLearner implements Learner<LinearSettings> {
  readonly algorithm = LINEAR_ALGORITHM;
  readonly params: LinearSettings;

  constructor(settings: Partial<LinearSettings> = {}) {
    this.params = { ...DEFAULTS, ...settings };
  }

  /** A logistic fit that stops at maxIterations before converging says so in the model's warnings. */
  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): LinearModel {
    const design = DesignSpec.fit(frame);
    const x = design.transform(frame);
    const weights = opts.weights ?? new Float64Array(frame.nRows).fill(1);
    const params = { ...this.params };
    if (task.kind === 'regression') return new LinearModel(task, params, design, fitRidge(x, target, weights, this.params.alpha), 1);
    const k = task.classes.length;
    if (k < 2) throw new Error('classification needs at least two classes');
    const fit = fitLogistic(x, target, k, weights, { C: this.params.C, maxIterations: this.params.maxIterations });
    const warnings = fit.converged
      ? []
      : [`The logistic regression stopped after ${fit.iterations} iterations (maxIterations) before converging; its coefficients may be imprecise.`];
    return new LinearModel(task, params, design, fit.coefficients, fit.outputs, warnings);
  }
}
