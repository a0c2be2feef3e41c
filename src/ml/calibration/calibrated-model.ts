/**
 * A classifier whose scores pass through a fitted calibration map; kind "calibrated".
 * `predictScores` are probabilities of the data's class mix. With `decisionWeights` (sessions that
 * balance classes) the predicted class is the one whose probability is largest relative to its
 * share of the training rows — the decision a balanced training aims at, with scores that still
 * mean what they say.
 */
import type { Frame, Task } from '../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions, type AlgorithmInfo, type SerializedModel, type TrainedModel } from '../estimator.js';
import { applyCalibrator, type ClassCalibrator } from './class-calibrator.js';
import { explain, type ExplainOptions, type Explanation } from '../explain/explanation.js';

export class CalibratedModel implements TrainedModel {
  readonly algorithm: AlgorithmInfo;
  readonly task: Task;
  readonly params: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];

  constructor(
    readonly base: TrainedModel,
    readonly calibrator: ClassCalibrator,
    readonly decisionWeights?: number[],
  ) {
    if (base.task.kind !== 'classification') throw new Error('only class scores are calibrated');
    this.task = base.task;
    // The calibration map is part of the model, not a different algorithm: the champion keeps its name.
    this.algorithm = base.algorithm;
    this.params = base.params;
    this.warnings = base.warnings;
  }

  private get k(): number {
    return (this.task as { classes: string[] }).classes.length;
  }

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  predictScores(frame: Frame): Float64Array {
    return this.calibrate(this.base.predictScores(frame));
  }

  /** predictScores from the base model's scores of the same rows (so a caller holding both predicts once). */
  calibrate(baseScores: Float64Array): Float64Array {
    return applyCalibrator(this.calibrator, baseScores, this.k);
  }

  /** predict from this model's (calibrated) scores; `scores` is left as it was. */
  decide(scores: Float64Array): Float64Array {
    const w = this.decisionWeights;
    if (!w) return pointPredictions(this.task, scores);
    const weighted = Float64Array.from(scores, (v, j) => v * w[j % this.k]);
    return pointPredictions(this.task, weighted);
  }

  featureImportance(): Record<string, number> {
    return this.base.featureImportance();
  }

  explainWork(): number {
    return this.base.explainWork?.() ?? 0;
  }

  /** The uncalibrated model's raw output explained; the calibration map is applied after it. */
  explain(frame: Frame, opts?: ExplainOptions): Explanation {
    return { ...explain(this.base, frame, opts), calibrated: true };
  }

  toJSON(): SerializedModel {
    return {
      ...artifactHeader('calibrated', this.task, { method: this.calibrator.method }),
      calibrator: this.calibrator,
      decisionWeights: this.decisionWeights,
      base: this.base.toJSON(),
    };
  }
}

export function loadCalibrated(json: SerializedModel, loadBase: (m: SerializedModel) => TrainedModel): CalibratedModel {
  if (json.kind !== 'calibrated' || json.version !== ARTIFACT_VERSION) throw new Error(`not a calibrated model: kind ${json.kind} version ${json.version}`);
  return new CalibratedModel(loadBase(json.base as SerializedModel), json.calibrator as ClassCalibrator, json.decisionWeights as number[] | undefined);
}
