/**
 * Isolation forest with scikit-learn's defaults: 100 trees, ψ = min(256, n) rows per tree drawn
 * without replacement, all features, depth limit ⌈log₂ ψ⌉. Scores follow scikit-learn:
 * score_samples = −2^(−E[h(x)]/c(ψ)) (lower = more anomalous), decision = score − offset.
 */
import type { Frame } from '../../frame.js';
import { SeededRandom } from '../../core/random.js';
import { featureMatrix, fitFeatureInputs, type FeatureInput } from './features.js';
import { decisionThreshold } from './offset.js';
import { averagePathLength, growIsolationTree, pathLength, type IsolationTree } from './tree.js';

export interface IsolationForestSettings {
  nTrees: number;
  maxSamples: number;
}

export interface IsolationFitOptions {
  seed: number;
  /** Whether the training data itself holds anomalies (default true); sets the decision offset. */
  containsAnomalies?: boolean;
}

export interface SerializedIsolationForest {
  format: 'sibyl-isolation-forest';
  version: 1;
  inputs: FeatureInput[];
  sampleSize: number;
  offset: number;
  contamination: number;
  trees: { feature: number[]; threshold: number[]; left: number[]; right: number[] }[];
}

const DEFAULTS: IsolationForestSettings = { nTrees: 100, maxSamples: 256 };

interface Fitted {
  inputs: FeatureInput[];
  trees: IsolationTree[];
  sampleSize: number;
  offset: number;
  contamination: number;
}

export class IsolationForest {
  private readonly settings: IsolationForestSettings;
  private fitted?: Fitted;

  constructor(settings: Partial<IsolationForestSettings> = {}) {
    this.settings = { ...DEFAULTS, ...settings };
  }

  fit(frame: Frame, opts: IsolationFitOptions): this {
    const n = frame.nRows;
    if (n < 2) throw new Error('isolation forest needs at least two rows');
    const inputs = fitFeatureInputs(frame);
    const x = featureMatrix(inputs, frame);
    const d = inputs.length;
    const sampleSize = Math.min(this.settings.maxSamples, n);
    const maxDepth = Math.ceil(Math.log2(Math.max(sampleSize, 2)));
    const rng = new SeededRandom(opts.seed);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const trees: IsolationTree[] = [];
    for (let t = 0; t < this.settings.nTrees; t++) {
      // Partial Fisher–Yates: the first sampleSize entries become a uniform sample without replacement.
      for (let i = 0; i < sampleSize; i++) {
        const j = i + rng.int(n - i);
        const tmp = all[i];
        all[i] = all[j];
        all[j] = tmp;
      }
      trees.push(growIsolationTree(x, n, d, all.slice(0, sampleSize), maxDepth, rng));
    }
    this.fitted = { inputs, trees, sampleSize, offset: 0, contamination: 0 };
    const threshold = decisionThreshold(this.scoreMatrix(x, n), opts.containsAnomalies ?? true);
    this.fitted.offset = threshold.offset;
    this.fitted.contamination = threshold.contamination;
    return this;
  }

  /** scikit-learn's score_samples: in (−1, 0), lower = more anomalous (≈ −0.5 for ordinary rows). */
  scoreSamples(frame: Frame): Float64Array {
    const { inputs } = this.model();
    return this.scoreMatrix(featureMatrix(inputs, frame), frame.nRows);
  }

  /** score_samples − offset: negative = anomalous, more negative = more anomalous. */
  decisionFunction(frame: Frame): Float64Array {
    const { offset } = this.model();
    return this.scoreSamples(frame).map((s) => s - offset);
  }

  /** The decision offset and the share of training rows below it. */
  get threshold(): { offset: number; contamination: number } {
    const { offset, contamination } = this.model();
    return { offset, contamination };
  }

  toJSON(): SerializedIsolationForest {
    const { inputs, trees, sampleSize, offset, contamination } = this.model();
    return {
      format: 'sibyl-isolation-forest',
      version: 1,
      inputs,
      sampleSize,
      offset,
      contamination,
      trees: trees.map((t) => ({
        feature: Array.from(t.feature),
        threshold: Array.from(t.threshold),
        left: Array.from(t.left),
        right: Array.from(t.right),
      })),
    };
  }

  /** @internal restores a fitted state; use loadIsolationForest. */
  static fromFitted(fitted: Fitted): IsolationForest {
    const forest = new IsolationForest({ nTrees: fitted.trees.length, maxSamples: fitted.sampleSize });
    forest.fitted = fitted;
    return forest;
  }

  private model(): Fitted {
    if (!this.fitted) throw new Error('isolation forest is not fitted');
    return this.fitted;
  }

  private scoreMatrix(x: Float64Array, n: number): Float64Array {
    const { trees, sampleSize } = this.model();
    const total = new Float64Array(n);
    for (const tree of trees) for (let i = 0; i < n; i++) total[i] += pathLength(tree, x, n, i);
    const scale = trees.length * averagePathLength(sampleSize);
    return total.map((h) => -Math.pow(2, -h / scale));
  }
}

export function loadIsolationForest(json: SerializedIsolationForest): IsolationForest {
  if (json.format !== 'sibyl-isolation-forest' || json.version !== 1) {
    throw new Error(`not an isolation forest (format ${String(json.format)}, version ${String(json.version)})`);
  }
  return IsolationForest.fromFitted({
    inputs: json.inputs,
    sampleSize: json.sampleSize,
    offset: json.offset,
    contamination: json.contamination,
    trees: json.trees.map((t) => ({
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
