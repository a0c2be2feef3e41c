/** A fitted linear model: its preprocessing plus logistic or ridge coefficients. */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import { DesignSpec, oneHotWidth, type SerializedDesignSpec } from './design.js';
import { predictLogistic } from './logistic.js';
import { predictRidge } from './ridge.js';
import type { Explanation } from '../../explain/explanation.js';

export const LINEAR_ALGORITHM: AlgorithmInfo = {
  key: 'linear',
  name: 'Linear model',
  description:
    'Logistic regression (classification) or ridge regression (regression), L2-regularised, on ' +
    'median-imputed standardised numbers and one-hot encoded categories.',
};

export interface SerializedLinear extends SerializedModel {
  kind: 'linear';
  task: Task;
  design: SerializedDesignSpec;
  /** (p + 1) × outputs, feature-major, intercepts in the last row. */
  coefficients: number[];
  outputs: number;
  warnings?: string[];
}

export class LinearModel implements TrainedModel {
  readonly algorithm = LINEAR_ALGORITHM;

  constructor(
    readonly task: Task,
    readonly params: Readonly<Record<string, unknown>>,
    private readonly design: DesignSpec,
    private readonly coefficients: Float64Array,
    private readonly outputs: number,
    readonly warnings: readonly string[] = [],
  ) {}

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  decide(scores: Float64Array): Float64Array {
    return pointPredictions(this.task, scores);
  }

  /** Regression: the ridge prediction; classification: logistic probabilities. */
  predictScores(frame: Frame): Float64Array {
    const x = this.design.transform(frame);
    return this.task.kind === 'regression'
      ? predictRidge(x, this.coefficients)
      : predictLogistic(x, this.coefficients, this.outputs, this.task.classes.length);
  }

  /**
   * How much each input moves the score over the training rows, summed over the outputs: a number's
   * |coefficient| on the standardised scale (the spread of its term; with spline terms, the sum of
   * theirs), a category's spread of its level coefficients weighted by the levels' training shares.
   * Summing |coefficient| over one-hot columns instead grew with the number of levels, not with the
   * effect: a 1,200-level id column (before such columns were left out as identifiers), each level
   * fitting its own row, took 64 % of a churn model's importance while moving held-out predictions by
   * 1.6 points. Models saved before the shares were kept sum |coefficient| over a category's columns.
   */
  featureImportance(): Record<string, number> {
    const names = this.design.inputNames();
    const k = this.outputs;
    const theta = this.coefficients;
    const out: Record<string, number> = {};
    for (const name of names) out[name] = 0;
    for (let j = 0; j < this.design.pDense; j++) for (let c = 0; c < k; c++) out[names[j]!]! += Math.abs(theta[j * k + c]!);
    for (const input of this.design.categorical) {
      const width = oneHotWidth(input);
      for (let c = 0; c < k; c++) {
        const coefficient = (l: number) => theta[(input.offset + l) * k + c]!;
        if (!input.shares) {
          for (let l = 0; l < width; l++) out[input.name]! += Math.abs(coefficient(l));
          continue;
        }
        let mean = 0;
        for (let l = 0; l < width; l++) mean += input.shares[l]! * coefficient(l);
        let variance = 0;
        for (let l = 0; l < width; l++) variance += input.shares[l]! * (coefficient(l) - mean) ** 2;
        out[input.name]! += Math.sqrt(variance);
      }
    }
    return out;
  }

  explainWork(): number {
    return (this.design.numeric.length + this.design.categorical.length) * this.outputs;
  }

  /**
   * Exact Shapley values of the linear score (log-odds, multiclass margins, or the value):
   * coefficient × (design value − its training mean), summed over each input's design columns
   * (one-hot levels; a number's value, spline terms and missing indicator). Dense columns are
   * standardised, so their training mean is 0. Models saved before the one-hot
   * columns' training shares were kept measure categories from "no level" (all zeros) instead.
   */
  explain(frame: Frame): Explanation {
    const x = this.design.transform(frame);
    const k = this.outputs;
    const theta = this.coefficients;
    const { numeric, categorical } = this.design;
    const nf = numeric.length + categorical.length;
    const base = Float64Array.from({ length: k }, (_, c) => theta[this.design.p * k + c]!);
    // Per categorical input and output: Σ share × coefficient, the one-hot block's training mean.
    const catMean = new Float64Array(categorical.length * k);
    categorical.forEach((input, j) => {
      for (const [l, share] of (input.shares ?? []).entries()) {
        for (let c = 0; c < k; c++) catMean[j * k + c]! += share * theta[(input.offset + l) * k + c]!;
      }
    });
    for (let j = 0; j < categorical.length; j++) for (let c = 0; c < k; c++) base[c]! += catMean[j * k + c]!;
    const values = new Float64Array(x.n * k * nf);
    for (let i = 0; i < x.n; i++) {
      for (let c = 0; c < k; c++) {
        const at = (i * k + c) * nf;
        // Each numeric input's dense columns (value, spline terms, missing indicator) add up to its term.
        for (let j = 0; j < x.pNum; j++) values[at + this.design.denseInput[j]!]! += x.dense[i * x.pNum + j]! * theta[j * k + c]!;
        for (let j = 0; j < x.nCat; j++) {
          const a = x.active[i * x.nCat + j]!;
          values[at + numeric.length + j] = (a < 0 ? 0 : theta[a * k + c]!) - catMean[j * k + c]!;
        }
      }
    }
    const regression = this.task.kind === 'regression';
    return {
      scale: regression ? 'value' : k === 1 ? 'logOdds' : 'margin',
      outputClasses: regression ? [null] : k === 1 ? [1] : Array.from({ length: k }, (_, c) => c),
      features: [...numeric.map((c) => c.name), ...categorical.map((c) => c.name)],
      nRows: x.n,
      base,
      values,
      exact: true,
    };
  }

  toJSON(): SerializedLinear {
    return {
      ...artifactHeader('linear', this.task, this.params),
      kind: 'linear',
      task: this.task,
      design: this.design.toJSON(),
      coefficients: Array.from(this.coefficients),
      outputs: this.outputs,
      warnings: [...this.warnings],
    };
  }
}

export function loadLinear(json: SerializedModel): LinearModel {
  if (json.format !== 'sibyl-model' || json.kind !== 'linear' || json.version !== ARTIFACT_VERSION) {
    throw new Error(`not a linear model (kind ${json.kind}, version ${json.version})`);
  }
  const m = json as SerializedLinear;
  return new LinearModel(m.task, m.params ?? {}, DesignSpec.load(m.design), Float64Array.from(m.coefficients), m.outputs, m.warnings ?? []);
}
