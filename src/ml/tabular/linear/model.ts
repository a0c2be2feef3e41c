/** A fitted linear model: its preprocessing plus logistic or ridge coefficients. */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import { DesignSpec, type SerializedDesignSpec } from './design.js';
import { predictLogistic } from './logistic.js';
import { predictRidge } from './ridge.js';

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
    return pointPredictions(this.task, this.predictScores(frame));
  }

  /** Regression: the ridge prediction; classification: logistic probabilities. */
  predictScores(frame: Frame): Float64Array {
    const x = this.design.transform(frame);
    return this.task.kind === 'regression'
      ? predictRidge(x, this.coefficients)
      : predictLogistic(x, this.coefficients, this.outputs, this.task.classes.length);
  }

  /** |coefficient| on the standardised / one-hot scale, summed over each input's columns and all outputs. */
  featureImportance(): Record<string, number> {
    const names = this.design.inputNames();
    const out: Record<string, number> = {};
    for (const name of names) out[name] = 0;
    names.forEach((name, j) => {
      for (let c = 0; c < this.outputs; c++) out[name] += Math.abs(this.coefficients[j * this.outputs + c]);
    });
    return out;
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
