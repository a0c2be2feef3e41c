/**
 * Isolation forest as scikit-learn grows it: ψ = min(256, n) rows per tree drawn without replacement,
 * all features, depth limit ⌈log₂ ψ⌉. Scores follow scikit-learn: score_samples = −2^(−E[h(x)]/c(ψ))
 * (lower = more anomalous), decision = score − offset. Its default tree count is larger (treesForRows).
 */
import type { Frame } from '../../frame.js';
import { ARTIFACT_VERSION, artifactHeader, type AlgorithmInfo, type AnomalyTask, type Estimator, type FitOptions, type Model, type ModelTask, type SerializedModel } from '../../estimator.js';
import { SeededRandom } from '../../core/random.js';
import { featureMatrix, fitFeatureInputs, type FeatureInput } from './features.js';
import { decisionThreshold } from './offset.js';
import { referenceScores, tailProbabilities, type ReferenceScores } from './tail.js';
import { averagePathLength, growIsolationTree, pathLength, type IsolationTree } from './tree.js';

export interface IsolationForestSettings {
  /** 'auto' (the default): treesForRows(n) for the n training rows. */
  nTrees: number | 'auto';
  maxSamples: number;
  /** Whether the training data itself holds anomalies (default true); sets the decision offset. */
  containsAnomalies: boolean;
  /** Share of training rows to flag, when the caller knows it (otherwise estimated: offset.ts). */
  contamination?: number;
  /**
   * How many measurements the features describe, for the estimated share (offset.ts); default the
   * number of features. A series' value and its deviation from its usual value then are one.
   */
  measurements?: number;
}

export const ANOMALY_TASK: AnomalyTask = { kind: 'anomalies' };

export interface SerializedIsolationForest extends SerializedModel {
  kind: 'isolation_forest';
  inputs: FeatureInput[];
  sampleSize: number;
  offset: number;
  contamination: number;
  /** The training scores tail probabilities are measured against (absent in forests saved before them). */
  reference?: ReferenceScores;
  trees: { feature: number[]; threshold: number[]; left: number[]; right: number[] }[];
}

export const ISOLATION_FOREST_ALGORITHM: AlgorithmInfo = {
  key: 'isolation_forest',
  name: 'Isolation Forest',
  description: 'Isolation Forest Outlier Detection',
};

const DEFAULTS: IsolationForestSettings = { nTrees: 'auto', maxSamples: 256, containsAnomalies: true };

/** Rows × trees the default tree count may spend on scoring the training rows. */
const SCORING_WORK = 20_000_000;

/**
 * Trees for n training rows when the caller sets none. A row's score is a Monte Carlo mean of its
 * path length over the trees, and with scikit-learn's 100 trees that mean is still noisy enough to
 * reorder rows from one seed to the next: on the ODDS tables (bench:anomaly, 20 seeds) one fit's
 * ROC-AUC spreads by 0.0008–0.019 between seeds, and a seed's flagged rows differ from the next
 * seed's. Four times the trees halve that noise. Scoring costs rows × trees, so the count steps
 * down to scikit-learn's 100 on large tables: 400 trees up to 50,000 rows, 100 from 200,000.
 */
export function treesForRows(n: number): number {
  return 100 * Math.min(4, Math.max(1, Math.floor(SCORING_WORK / (100 * n))));
}

interface Fitted {
  inputs: FeatureInput[];
  trees: IsolationTree[];
  sampleSize: number;
  offset: number;
  contamination: number;
  reference?: ReferenceScores;
}

/** The estimator: parameters held, data not yet seen. */
export class IsolationForest implements Estimator<IsolationForestSettings> {
  readonly algorithm = ISOLATION_FOREST_ALGORITHM;
  readonly params: IsolationForestSettings;

  constructor(settings: Partial<IsolationForestSettings> = {}) {
    this.params = { ...DEFAULTS, ...settings };
  }

  /** Unsupervised: any target is ignored. */
  fit(frame: Frame, _target: Float64Array | null, _task: ModelTask, opts: FitOptions): IsolationForestModel {
    const n = frame.nRows;
    if (n < 2) throw new Error('isolation forest needs at least two rows');
    const inputs = fitFeatureInputs(frame);
    const x = featureMatrix(inputs, frame);
    const d = inputs.length;
    const sampleSize = Math.min(this.params.maxSamples, n);
    const maxDepth = Math.ceil(Math.log2(Math.max(sampleSize, 2)));
    const rng = new SeededRandom(opts.seed);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const nTrees = this.params.nTrees === 'auto' ? treesForRows(n) : this.params.nTrees;
    const trees: IsolationTree[] = [];
    for (let t = 0; t < nTrees; t++) {
      // Partial Fisher–Yates: the first sampleSize entries become a uniform sample without replacement.
      for (let i = 0; i < sampleSize; i++) {
        const j = i + rng.int(n - i);
        const tmp = all[i];
        all[i] = all[j];
        all[j] = tmp;
      }
      trees.push(growIsolationTree(x, n, d, all.slice(0, sampleSize), maxDepth, rng));
    }
    const fitted: Fitted = { inputs, trees, sampleSize, offset: 0, contamination: 0 };
    const scores = scoreMatrix(fitted, x, n);
    const threshold = decisionThreshold(scores, this.params.containsAnomalies, this.params.contamination, this.params.measurements ?? d);
    fitted.offset = threshold.offset;
    fitted.contamination = threshold.contamination;
    fitted.reference = referenceScores(scores);
    return new IsolationForestModel({ ...this.params, nTrees }, fitted);
  }
}

/** A fitted isolation forest. */
export class IsolationForestModel implements Model {
  readonly algorithm = ISOLATION_FOREST_ALGORITHM;
  readonly task = ANOMALY_TASK;
  readonly warnings: readonly string[] = [];

  constructor(
    readonly params: Readonly<Record<string, unknown>>,
    private readonly fitted: Fitted,
  ) {}

  /** −1 for an anomalous row (negative decision value), 1 otherwise. */
  predict(frame: Frame): Float64Array {
    return this.decisionFunction(frame).map((v) => (v < 0 ? -1 : 1));
  }

  /** The decision function. */
  predictScores(frame: Frame): Float64Array {
    return this.decisionFunction(frame);
  }

  /** scikit-learn's score_samples: in (−1, 0), lower = more anomalous (≈ −0.5 for ordinary rows). */
  scoreSamples(frame: Frame): Float64Array {
    return scoreMatrix(this.fitted, featureMatrix(this.fitted.inputs, frame), frame.nRows);
  }

  /** score_samples − offset: negative = anomalous, more negative = more anomalous. */
  decisionFunction(frame: Frame): Float64Array {
    const { offset } = this.fitted;
    return this.scoreSamples(frame).map((s) => s - offset);
  }

  /** Each row's tail probability: the share of training rows scoring as low or lower (a conformal p-value). */
  tailProbability(frame: Frame): Float64Array {
    const { reference } = this.fitted;
    if (!reference) throw new Error('this isolation forest was saved without its training scores');
    return tailProbabilities(reference, this.scoreSamples(frame));
  }

  get hasTailProbabilities(): boolean {
    return this.fitted.reference !== undefined;
  }

  /** The decision offset and the share of training rows below it. */
  get threshold(): { offset: number; contamination: number } {
    const { offset, contamination } = this.fitted;
    return { offset, contamination };
  }

  /** Not defined for isolation: NaN for every input. */
  featureImportance(): Record<string, number> {
    return Object.fromEntries(this.fitted.inputs.map((i) => [i.name, NaN]));
  }

  toJSON(): SerializedIsolationForest {
    const { inputs, trees, sampleSize, offset, contamination, reference } = this.fitted;
    return {
      ...artifactHeader('isolation_forest', ANOMALY_TASK, this.params),
      kind: 'isolation_forest',
      inputs,
      sampleSize,
      offset,
      contamination,
      reference,
      trees: trees.map((t) => ({
        feature: Array.from(t.feature),
        threshold: Array.from(t.threshold),
        left: Array.from(t.left),
        right: Array.from(t.right),
      })),
    };
  }
}

function scoreMatrix({ trees, sampleSize }: Fitted, x: Float64Array, n: number): Float64Array {
  const total = new Float64Array(n);
  for (const tree of trees) for (let i = 0; i < n; i++) total[i] += pathLength(tree, x, n, i);
  const scale = trees.length * averagePathLength(sampleSize);
  return total.map((h) => -Math.pow(2, -h / scale));
}

export function loadIsolationForest(json: SerializedModel): IsolationForestModel {
  if (json.format !== 'sibyl-model' || json.kind !== 'isolation_forest' || json.version !== ARTIFACT_VERSION) {
    throw new Error(`not an isolation forest (format ${String(json.format)}, kind ${json.kind}, version ${String(json.version)})`);
  }
  const m = json as SerializedIsolationForest;
  return new IsolationForestModel(m.params ?? {}, {
    inputs: m.inputs,
    sampleSize: m.sampleSize,
    offset: m.offset,
    contamination: m.contamination,
    reference: m.reference,
    trees: m.trees.map((t) => ({
      feature: Int32Array.from(t.feature),
      threshold: Float64Array.from(t.threshold),
      left: Int32Array.from(t.left),
      right: Int32Array.from(t.right),
    })),
  });
}

/** Share of rows whose decision value is negative (the service's percentAnomalies, a fraction). */
export function percentAnomalies(decisionValues: ArrayLike<number>): number {
  let negative = 0;
  for (let i = 0; i < decisionValues.length; i++) if (decisionValues[i] < 0) negative++;
  return decisionValues.length > 0 ? negative / decisionValues.length : 0;
}
