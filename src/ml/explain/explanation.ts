/**
 * Per-row feature contributions of a model's raw output: for every row and output,
 * base[output] + Σ_features values = the model's raw prediction on `scale`.
 * - `value`: regression prediction; `logOdds`: a binary classifier's log-odds of its second class;
 * - `margin`: a multiclass classifier's per-class softmax input;
 * - `probability`: class probabilities (forests average class shares; blends average probabilities).
 */
import type { Frame } from '../frame.js';

export type ExplanationScale = 'value' | 'logOdds' | 'margin' | 'probability';

export interface Explanation {
  scale: ExplanationScale;
  /** Class index each output explains; null for a regression value. */
  outputClasses: (number | null)[];
  /** Frame column names the contributions belong to. */
  features: string[];
  nRows: number;
  /** Expected value per output (the contributions' common starting point). */
  base: Float64Array;
  /** nRows × outputs × features, row-major. */
  values: Float64Array;
  /** Whether the values are exact Shapley values (false: a documented approximation, e.g. rescaled to probabilities). */
  exact: boolean;
  /** The model's class probabilities pass this raw output through a calibration map afterwards. */
  calibrated?: boolean;
}

/**
 * How a frame is explained. batchRows: the rows of the whole batch the frame is a part of (default:
 * the frame's own). TreeSHAP chooses its per-leaf tables by how many rows will use them, so parts of a
 * batch explained apart (on scoring threads) plan for the whole batch, and every row gets the same
 * numbers, bit for bit, as when the batch is explained at once. treeParts: only the trees of these
 * parts (ascending) of TREE_PARTS (tree ensembles, Model.explainsByTreeParts); the values are each
 * part's contributions alone, nRows × outputs × features a part, one part after another (base and the
 * rest as for the whole model). The parts are explained in one call so that the frame's rows are
 * prepared once for all of them.
 */
export interface ExplainOptions {
  batchRows?: number;
  treeParts?: readonly number[];
}

/**
 * Tree ensembles are explained as this many parts of their trees (consecutive trees in the order
 * TreeSHAP takes them, tree-shap.ts), whose contributions are added in part order (sumTreeParts):
 * the scoring threads take whole parts each, every thread building Ψ tables for its own trees only,
 * and the numbers are the same bits however many threads share the parts (one, two or four).
 */
export const TREE_PARTS = 4;

/** A model that cannot be explained says why (old artifacts without covers, anomaly models). */
export class ExplanationUnavailable extends Error {}

/**
 * Most explanation work (steps, tree-shap.ts pathWork) one request may ask for: one to two seconds of
 * one core, as when the JS loops ran 5–12 ns a step under a limit of 2·10⁸. The wasm kernel, which
 * skips zero leaves and splits a batch over the scoring threads, runs 1.5–1.9 ns a step
 * (bench:explanations' models, load 8: credit forest 1.74, letter GBDT 1.86, concrete forest 1.72,
 * credit GBDT 1.90), so the same one to two seconds are now 10⁹ steps, under a second of wall on two
 * scoring threads. A 100-tree, 31-leaf binary GBDT costs ~3·10⁴ steps a record, the same for 26
 * classes ~8·10⁵, a 300-tree fully grown forest on 1,000–3,500 rows 4·10⁵–1.4·10⁶, on letter's 16,000
 * rows and 26 classes 2.0·10⁷ (49 records a request; its classes as views, tree-shap-wasm.ts: 2.0–2.3 ns
 * a step at 1,000 records, load 1.6–5, as before them at 4.7·10⁷ steps, 2.2–3.0). Taking rows two at a
 * time in SIMD lanes (tree-shap-wasm.ts) cut the time per step by about a third (credit forest at load
 * 6: 2.9 → 2.0 ns); the limit stays: a request at it is ~2 s of one core at that load, ~1 s of wall on two.
 */
export const EXPLANATION_WORK_LIMIT = 1_000_000_000;

/** Per-row work of explaining a model (0 when it gives no explanations). */
export function explanationWork(model: { explainWork?: () => number }): number {
  return model.explainWork ? model.explainWork() : 0;
}

export function outputsOf(e: Explanation): number {
  return e.outputClasses.length;
}

/** The raw predictions the explanation adds up to: nRows × outputs. */
export function explainedPredictions(e: Explanation): Float64Array {
  const k = outputsOf(e);
  const nf = e.features.length;
  const out = new Float64Array(e.nRows * k);
  for (let r = 0; r < e.nRows; r++) {
    for (let c = 0; c < k; c++) {
      let s = e.base[c]!;
      const at = (r * k + c) * nf;
      for (let f = 0; f < nf; f++) s += e.values[at + f]!;
      out[r * k + c] = s;
    }
  }
  return out;
}

/**
 * A classifier's explanation on the probability scale, one output per class. Margin-scale outputs are
 * turned into probabilities and each class's change from the base probability is shared among the
 * features in proportion to their margin contributions to that class (to the absolute contributions
 * when these cancel). Additive exactly; the per-feature split is an approximation, so `exact` is false.
 */
export function toProbabilities(e: Explanation, nClasses: number): Explanation {
  if (e.scale === 'probability' || e.scale === 'value') return e;
  const nf = e.features.length;
  const n = e.nRows;
  const margins = explainedPredictions(e);
  const k = outputsOf(e);
  const values = new Float64Array(n * nClasses * nf);
  const probs = (z: ArrayLike<number>): Float64Array => {
    if (e.scale === 'logOdds') {
      const p1 = 1 / (1 + Math.exp(-z[0]!));
      return Float64Array.of(1 - p1, p1);
    }
    let max = -Infinity;
    for (let c = 0; c < k; c++) max = Math.max(max, z[c]!);
    const out = Float64Array.from({ length: k }, (_, c) => Math.exp(z[c]! - max));
    const sum = out.reduce((a, v) => a + v, 0);
    return out.map((v) => v / sum);
  };
  const base = probs(e.base);
  // Per class, which margin output's contributions share out its change (binary: both classes use the one output, negated for class 0).
  const sourceOf = (c: number): { output: number; sign: number } => (e.scale === 'logOdds' ? { output: 0, sign: c === 1 ? 1 : -1 } : { output: c, sign: 1 });
  for (let r = 0; r < n; r++) {
    const p = probs(margins.subarray(r * k, (r + 1) * k));
    for (let c = 0; c < nClasses; c++) {
      const delta = p[c]! - base[c]!;
      const { output, sign } = sourceOf(c);
      const src = (r * k + output) * nf;
      let total = 0;
      let absTotal = 0;
      for (let f = 0; f < nf; f++) {
        total += sign * e.values[src + f]!;
        absTotal += Math.abs(e.values[src + f]!);
      }
      const dst = (r * nClasses + c) * nf;
      if (Math.abs(total) > 1e-12 * Math.max(1, absTotal)) {
        for (let f = 0; f < nf; f++) values[dst + f] = (delta * sign * e.values[src + f]!) / total;
      } else if (absTotal > 0) {
        for (let f = 0; f < nf; f++) values[dst + f] = (delta * Math.abs(e.values[src + f]!)) / absTotal;
      } else if (nf > 0) {
        for (let f = 0; f < nf; f++) values[dst + f] = delta / nf;
      }
    }
  }
  return { scale: 'probability', outputClasses: Array.from({ length: nClasses }, (_, c) => c), features: e.features, nRows: n, base, values, exact: false };
}

/** Σ weight_m × explanation_m over members on one scale, features matched by name. */
export function weightedSum(parts: { explanation: Explanation; weight: number }[]): Explanation {
  const first = parts[0]!.explanation;
  const features = [...new Set(parts.flatMap((p) => p.explanation.features))];
  const index = new Map(features.map((f, i) => [f, i]));
  const k = outputsOf(first);
  const nf = features.length;
  const n = first.nRows;
  const base = new Float64Array(k);
  const values = new Float64Array(n * k * nf);
  for (const { explanation: e, weight } of parts) {
    if (e.scale !== first.scale || outputsOf(e) !== k) throw new Error('members explained on different scales');
    for (let c = 0; c < k; c++) base[c]! += weight * e.base[c]!;
    const map = e.features.map((f) => index.get(f)!);
    const m = e.features.length;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < k; c++) {
        const src = (r * k + c) * m;
        const dst = (r * k + c) * nf;
        for (let f = 0; f < m; f++) values[dst + map[f]!]! += weight * e.values[src + f]!;
      }
    }
  }
  return { scale: first.scale, outputClasses: first.outputClasses, features, nRows: n, base, values, exact: parts.every((p) => p.explanation.exact) };
}

type Explainable = { explain?: (frame: Frame, opts?: ExplainOptions) => Explanation; explainsByTreeParts?: boolean; algorithm: { name: string } };

/** The model's explanation, or ExplanationUnavailable when it has none; a tree ensemble's is the sum of its tree parts. */
export function explain(model: Explainable, frame: Frame, opts?: ExplainOptions): Explanation {
  if (!model.explain) throw new ExplanationUnavailable(`${model.algorithm.name} models give no per-record explanations.`);
  if (opts?.treeParts !== undefined || !model.explainsByTreeParts) return model.explain(frame, opts);
  return sumTreeParts([explainTreeParts(model, frame, Array.from({ length: TREE_PARTS }, (_, p) => p), opts)]);
}

/** Tree parts `parts` (ascending) of a tree ensemble's explanation; values: each part's nRows × outputs × features, one after another. */
export function explainTreeParts(model: Explainable, frame: Frame, parts: number[], opts?: ExplainOptions): Explanation {
  return explain(model, frame, { ...opts, treeParts: parts });
}

/** The explanations' values one after another (tree parts, or row parts in row order). */
export function concatenatedValues(explained: readonly Explanation[]): Float64Array {
  const values = new Float64Array(explained.reduce((a, e) => a + e.values.length, 0));
  let at = 0;
  for (const e of explained) {
    values.set(e.values, at);
    at += e.values.length;
  }
  return values;
}

/**
 * The whole explanation from explainTreeParts answers that together hold parts 0 .. TREE_PARTS − 1 in
 * order: each value is ((p₀ + p₁) + p₂) + p₃, added in that order from 0 wherever the parts were computed.
 */
export function sumTreeParts(answers: Explanation[]): Explanation {
  const first = answers[0]!;
  const n = first.nRows * outputsOf(first) * first.features.length;
  const values = new Float64Array(n);
  for (const e of answers) {
    for (let at = 0; at < e.values.length; at += n) {
      for (let i = 0; i < n; i++) values[i]! += e.values[at + i]!;
    }
  }
  return { ...first, values };
}
