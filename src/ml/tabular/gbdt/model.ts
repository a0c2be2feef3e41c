/** The fitted GBDT as a TrainedModel, its JSON form and its loader. */
import type { AlgorithmInfo, Frame, SerializedModel, Task, TrainedModel } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, pointPredictions } from '../../estimator.js';
import { Forest, type ForestArrays, type ForestFeature } from './compiled-forest.js';
import type { ObjectiveName } from './objectives.js';
import { sigmoid } from './objectives.js';
import { fromBase64, toBase64 } from '../../core/codecs.js';
import { ExplanationUnavailable, type ExplainOptions, type Explanation } from '../../explain/explanation.js';
import { explainForest, gbdtExplainPlan, type GbdtExplainPlan } from './explain-forest.js';
import { pathWork } from '../../explain/tree-shap.js';

export const GBDT_ALGORITHM: AlgorithmInfo = {
  key: 'gbdt',
  name: 'Gradient Boosted Trees',
  description:
    'LightGBM-style gradient boosting: histogram-based, leaf-wise trees with learned missing-value directions and native categorical splits.',
};

export class GbdtModel implements TrainedModel {
  readonly algorithm = GBDT_ALGORITHM;
  readonly warnings: readonly string[] = [];

  constructor(
    readonly task: Task,
    readonly params: Readonly<Record<string, unknown>>,
    readonly objective: ObjectiveName,
    readonly forest: Forest,
    private readonly importance: Record<string, number>,
    /** Boosting rounds kept (after early stopping). */
    readonly rounds: number,
  ) {}

  predict(frame: Frame): Float64Array {
    return this.decide(this.predictScores(frame));
  }

  decide(scores: Float64Array): Float64Array {
    return pointPredictions(this.task, scores);
  }

  /** Regression: one value per row; classification: probabilities, nRows × classes, row-major. */
  predictScores(frame: Frame): Float64Array {
    const raw = this.forest.rawScores(frame);
    const n = frame.nRows;
    if (this.objective === 'binary') {
      const out = new Float64Array(2 * n);
      for (let r = 0; r < n; r++) {
        const p = sigmoid(raw[r]);
        out[2 * r] = 1 - p;
        out[2 * r + 1] = p;
      }
      return out;
    }
    if (this.objective === 'multiclass') {
      const k = this.forest.numScores;
      for (let r = 0; r < n; r++) {
        let max = -Infinity;
        for (let c = 0; c < k; c++) max = Math.max(max, raw[r * k + c]);
        let sum = 0;
        for (let c = 0; c < k; c++) sum += raw[r * k + c] = Math.exp(raw[r * k + c] - max);
        for (let c = 0; c < k; c++) raw[r * k + c] /= sum;
      }
    }
    return raw;
  }

  featureImportance(): Record<string, number> {
    return { ...this.importance };
  }

  private work = -1;

  readonly explainsByTreeParts = true;

  explainWork(): number {
    if (!this.forest.leafCover) return 0; // explain() says why it cannot
    if (this.work < 0) this.work = pathWork(this.plan().trees);
    return this.work;
  }

  // A forest is explained as TREE_PARTS parts (explanation.ts), each needing the same node table: built once.
  private explainPlan: GbdtExplainPlan | null = null;

  private plan(): GbdtExplainPlan {
    return (this.explainPlan ??= gbdtExplainPlan(this.forest));
  }

  /** Exact TreeSHAP of the raw score: log-odds (binary), per-class margins (multiclass) or the value. */
  explain(frame: Frame, opts?: ExplainOptions): Explanation {
    if (!this.forest.leafCover) {
      throw new ExplanationUnavailable('This model was trained before Sibyl kept the training covers of its trees, which explanations need; train it again to get explanations.');
    }
    const scale = this.objective === 'binary' ? 'logOdds' : this.objective === 'multiclass' ? 'margin' : 'value';
    return explainForest(this.forest, this.plan(), frame, scale, opts?.batchRows, opts?.treeParts);
  }

  /** Typed arrays are stored as base64 of their little-endian bytes (exact, including ±Infinity thresholds). */
  toJSON(): SerializedModel {
    const a = this.forest.arrays;
    return {
      ...artifactHeader('gbdt', this.task, this.params),
      objective: this.objective,
      rounds: this.rounds,
      numScores: this.forest.numScores,
      initScores: Array.from(this.forest.initScores),
      features: this.forest.features.map((f) =>
        f.categorical
          ? { name: f.name, levels: f.categorical.levels, levelToBin: toBase64(f.categorical.levelToBin), missingBin: f.categorical.missingBin }
          : { name: f.name },
      ),
      trees: {
        nodeOffset: toBase64(a.nodeOffset),
        leafOffset: toBase64(a.leafOffset),
        feature: toBase64(a.feature),
        threshold: toBase64(a.threshold),
        children: toBase64(a.children),
        defaultLeft: toBase64(a.defaultLeft),
        catOffset: toBase64(a.catOffset),
        catBits: toBase64(a.catBits),
        leafValue: toBase64(a.leafValue),
      },
      importance: this.importance,
      // Training rows per leaf (TreeSHAP's covers); absent in models saved before explanations.
      ...(this.forest.leafCover ? { leafCover: toBase64(this.forest.leafCover) } : {}),
    };
  }
}

interface SerializedFeature {
  name: string;
  levels?: string[];
  levelToBin?: string;
  missingBin?: number;
}

type SerializedTrees = Record<keyof ForestArrays, string>;

export function loadGbdt(json: SerializedModel): TrainedModel {
  if (json.format !== 'sibyl-model' || json.kind !== 'gbdt') throw new Error(`not a GBDT model (kind ${json.kind})`);
  if (json.version !== ARTIFACT_VERSION) throw new Error(`unsupported GBDT model version ${json.version}`);
  const features: ForestFeature[] = (json.features as SerializedFeature[]).map((f) => ({
    name: f.name,
    categorical: f.levels
      ? { kind: 'categorical', levels: f.levels, levelToBin: fromBase64(f.levelToBin ?? '', Int32Array), missingBin: f.missingBin ?? 0 }
      : null,
  }));
  const t = json.trees as SerializedTrees;
  const arrays: ForestArrays = {
    nodeOffset: fromBase64(t.nodeOffset, Int32Array),
    leafOffset: fromBase64(t.leafOffset, Int32Array),
    feature: fromBase64(t.feature, Int32Array),
    threshold: fromBase64(t.threshold, Float64Array),
    children: fromBase64(t.children, Int32Array),
    defaultLeft: fromBase64(t.defaultLeft, Uint8Array),
    catOffset: fromBase64(t.catOffset, Int32Array),
    catBits: fromBase64(t.catBits, Uint32Array),
    leafValue: fromBase64(t.leafValue, Float64Array),
  };
  const leafCover = typeof json.leafCover === 'string' ? fromBase64(json.leafCover, Float64Array) : null;
  const forest = new Forest(features, arrays, json.numScores as number, Float64Array.from(json.initScores as number[]), leafCover);
  return new GbdtModel(
    json.task as Task, json.params ?? {}, json.objective as ObjectiveName, forest, json.importance as Record<string, number>, json.rounds as number,
  );
}
