/** A blend: the weighted average of its members' predictions (probabilities or values; equal weights unless stacked); kind "blend". */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import { explain, toProbabilities, weightedSum, type ExplainOptions, type Explanation } from '../../explain/explanation.js';

export class BlendModel implements TrainedModel {
  readonly algorithm: AlgorithmInfo;
  /** Which algorithms are averaged (each member stores its own parameters). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];

  /** Each member's weight (summing to 1). */
  readonly weights: number[];

  constructor(
    readonly task: Task,
    readonly members: TrainedModel[],
    weights?: number[],
  ) {
    if (members.length === 0) throw new Error('a blend needs at least one member');
    if (weights && (weights.length !== members.length || weights.some((w) => !(w >= 0)))) throw new Error('a blend needs one non-negative weight per member');
    const total = weights ? weights.reduce((a, b) => a + b, 0) : members.length;
    this.weights = weights ? weights.map((w) => w / total) : members.map(() => 1 / members.length);
    this.algorithm = {
      key: 'blend',
      name: 'Blend',
      description: weights
        ? `Weighted average of the predictions of: ${members.map((m, j) => `${m.algorithm.name} (${this.weights[j].toFixed(2)})`).join(', ')}.`
        : `Average of the predictions of: ${members.map((m) => m.algorithm.name).join(', ')}.`,
    };
    this.params = weights ? { members: members.map((m) => m.algorithm.key), weights: this.weights } : { members: members.map((m) => m.algorithm.key) };
    this.warnings = members.flatMap((m) => m.warnings);
  }

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  decide(scores: Float64Array): Float64Array {
    return pointPredictions(this.task, scores);
  }

  /** The weighted mean of the members' scores (probabilities or values). */
  predictScores(frame: Frame): Float64Array {
    const out = this.members[0].predictScores(frame);
    for (let j = 0; j < out.length; j++) out[j] *= this.weights[0];
    for (let m = 1; m < this.members.length; m++) {
      const p = this.members[m].predictScores(frame);
      for (let j = 0; j < out.length; j++) out[j] += this.weights[m] * p[j];
    }
    return out;
  }

  explainWork(): number {
    return this.members.reduce((sum, m) => sum + (m.explainWork?.() ?? 0), 0);
  }

  /**
   * The members' contributions averaged as their scores are: values for regression, probabilities for
   * classification (a member explained on a margin scale is first put on the probability scale).
   */
  explain(frame: Frame, opts?: ExplainOptions): Explanation {
    const k = this.task.kind === 'classification' ? this.task.classes.length : 0;
    return weightedSum(this.members.map((m, j) => {
      const e = explain(m, frame, opts);
      return { explanation: k > 0 ? toProbabilities(e, k) : e, weight: this.weights[j] };
    }));
  }

  /** Weighted mean of the members' importances, each rescaled to sum 1 first since their units differ. */
  featureImportance(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const member of this.members) {
      const imp = member.featureImportance();
      const total = Object.values(imp).reduce((a, v) => a + (Number.isFinite(v) ? Math.abs(v) : 0), 0);
      for (const [name, v] of Object.entries(imp)) {
        const share = total > 0 && Number.isFinite(v) ? Math.abs(v) / total : 0;
        out[name] = (out[name] ?? 0) + share * this.weights[this.members.indexOf(member)];
      }
    }
    return out;
  }

  toJSON(): SerializedModel {
    return { ...artifactHeader('blend', this.task, this.params), members: this.members.map((m) => m.toJSON()), weights: this.weights };
  }
}

export function loadBlend(json: SerializedModel, loadMember: (m: SerializedModel) => TrainedModel): BlendModel {
  if (json.kind !== 'blend' || json.version !== ARTIFACT_VERSION) throw new Error(`not a blend model: kind ${json.kind} version ${json.version}`);
  // Blends saved before stacking carry no weights: an equal average.
  return new BlendModel(json.task as Task, (json.members as SerializedModel[]).map(loadMember), json.weights as number[] | undefined);
}
