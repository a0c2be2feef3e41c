/** A blend: the average of its members' predictions (probabilities or values); kind "blend". */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import { explain, toProbabilities, weightedSum, type Explanation } from '../../explain/explanation.js';

export class BlendModel implements TrainedModel {
  readonly algorithm: AlgorithmInfo;
  /** Which algorithms are averaged (each member stores its own parameters). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];

  constructor(
    readonly task: Task,
    readonly members: TrainedModel[],
  ) {
    if (members.length === 0) throw new Error('a blend needs at least one member');
    this.algorithm = {
      key: 'blend',
      name: 'Blend',
      description: `Average of the predictions of: ${members.map((m) => m.algorithm.name).join(', ')}.`,
    };
    this.params = { members: members.map((m) => m.algorithm.key) };
    this.warnings = members.flatMap((m) => m.warnings);
  }

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  decide(scores: Float64Array): Float64Array {
    return pointPredictions(this.task, scores);
  }

  /** The mean of the members' scores (probabilities or values). */
  predictScores(frame: Frame): Float64Array {
    const out = this.members[0].predictScores(frame);
    for (let m = 1; m < this.members.length; m++) {
      const p = this.members[m].predictScores(frame);
      for (let j = 0; j < out.length; j++) out[j] += p[j];
    }
    for (let j = 0; j < out.length; j++) out[j] /= this.members.length;
    return out;
  }

  explainWork(): number {
    return this.members.reduce((sum, m) => sum + (m.explainWork?.() ?? 0), 0);
  }

  /**
   * The members' contributions averaged as their scores are: values for regression, probabilities for
   * classification (a member explained on a margin scale is first put on the probability scale).
   */
  explain(frame: Frame): Explanation {
    const weight = 1 / this.members.length;
    const k = this.task.kind === 'classification' ? this.task.classes.length : 0;
    return weightedSum(this.members.map((m) => {
      const e = explain(m, frame);
      return { explanation: k > 0 ? toProbabilities(e, k) : e, weight };
    }));
  }

  /** Mean of the members' importances, each rescaled to sum 1 first since their units differ. */
  featureImportance(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const member of this.members) {
      const imp = member.featureImportance();
      const total = Object.values(imp).reduce((a, v) => a + (Number.isFinite(v) ? Math.abs(v) : 0), 0);
      for (const [name, v] of Object.entries(imp)) {
        const share = total > 0 && Number.isFinite(v) ? Math.abs(v) / total : 0;
        out[name] = (out[name] ?? 0) + share / this.members.length;
      }
    }
    return out;
  }

  toJSON(): SerializedModel {
    return { ...artifactHeader('blend', this.task, this.params), members: this.members.map((m) => m.toJSON()) };
  }
}

export function loadBlend(json: SerializedModel, loadMember: (m: SerializedModel) => TrainedModel): BlendModel {
  if (json.kind !== 'blend' || json.version !== ARTIFACT_VERSION) throw new Error(`not a blend model: kind ${json.kind} version ${json.version}`);
  return new BlendModel(json.task as Task, (json.members as SerializedModel[]).map(loadMember));
}
