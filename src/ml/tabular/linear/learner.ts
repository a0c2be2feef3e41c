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

export class LinearLearner implements Learner {
  readonly algorithm = LINEAR_ALGORITHM;
  private readonly settings: LinearSettings;

  constructor(settings: Partial<LinearSettings> = {}) {
    this.settings = { ...DEFAULTS, ...settings };
  }

  /** Also reports whether the logistic solver converged (always true for ridge). */
  fitWithDiagnostics(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): { model: LinearModel; converged: boolean } {
    const design = DesignSpec.fit(frame);
    const x = design.transform(frame);
    const weights = opts.weights ?? new Float64Array(frame.nRows).fill(1);
    if (task.kind === 'regression') {
      return { model: new LinearModel(task, design, fitRidge(x, target, weights, this.settings.alpha), 1), converged: true };
    }
    const k = task.classes.length;
    if (k < 2) throw new Error('classification needs at least two classes');
    const fit = fitLogistic(x, target, k, weights, {
      C: this.settings.C,
      maxIterations: this.settings.maxIterations,
    });
    return { model: new LinearModel(task, design, fit.coefficients, fit.outputs), converged: fit.converged };
  }

  fit(frame: Frame, target: Float64Array, task: Task, opts: FitOptions): LinearModel {
    return this.fitWithDiagnostics(frame, target, task, opts).model;
  }
}
