/**
 * Explanations as the API shows them: per record and per explained output (a class, or the value),
 * the base value, the raw prediction and each input column's contribution, encoded columns (date
 * parts) summed back into the column they came from; columns the model does not use contribute 0.
 */
import type { Explanation, ExplanationScale } from '../../ml/explain/explanation.js';

export interface OutputExplanation {
  /** The class whose score is explained; null for a regression value. */
  class: string | null;
  baseValue: number;
  /** The raw prediction on `scale`: baseValue + Σ contributions. */
  prediction: number;
  contributions: Record<string, number>;
}

export interface ExplanationsView {
  scale: ExplanationScale;
  /** True for exact Shapley values; false where a blend's margin members were rescaled to probabilities. */
  exact: boolean;
  /** True when the class scores pass the explained output through a calibration map afterwards. */
  calibrated: boolean;
  description: string;
  records: { outputs: OutputExplanation[] }[];
}

const SCALES: Record<ExplanationScale, string> = {
  value: 'the predicted value',
  logOdds: 'the log-odds of the explained class',
  margin: "each class's softmax input (log-odds up to a constant shared by the classes)",
  probability: "each class's probability",
};

/** Per-record view; `sourceOf` names the input column of each frame column. */
export function explanationsView(e: Explanation, columns: string[], sourceOf: (frameColumn: string) => string, classes: string[] | null): ExplanationsView {
  const k = e.outputClasses.length;
  const nf = e.features.length;
  const source = e.features.map(sourceOf);
  const records: { outputs: OutputExplanation[] }[] = [];
  for (let r = 0; r < e.nRows; r++) {
    const outputs: OutputExplanation[] = [];
    for (let c = 0; c < k; c++) {
      const contributions: Record<string, number> = {};
      for (const col of columns) contributions[col] = 0;
      const at = (r * k + c) * nf;
      let prediction = e.base[c]!;
      for (let f = 0; f < nf; f++) {
        const v = e.values[at + f]!;
        contributions[source[f]!] = (contributions[source[f]!] ?? 0) + v;
        prediction += v;
      }
      const cls = e.outputClasses[c]!;
      outputs.push({ class: cls === null || !classes ? null : classes[cls]!, baseValue: e.base[c]!, prediction, contributions });
    }
    records.push({ outputs });
  }
  const description =
    `Contributions of each input column to ${SCALES[e.scale]}: baseValue (the average over the training rows) plus the contributions gives prediction. ` +
    (e.exact ? 'Exact Shapley values (TreeSHAP for trees, coefficient × (value − training mean) for linear models).' : "Margin-scale members of this blend were put on the probability scale by sharing each class's change in proportion to their contributions: additive exactly, the split between columns approximately.") +
    (e.calibrated ? ' The class scores pass this output through the calibration map fitted at training.' : '');
  return { scale: e.scale, exact: e.exact, calibrated: e.calibrated === true, description, records };
}

/** Mean absolute contribution per input column over the explained rows, summed over the outputs. */
export function meanAbsoluteContributions(e: Explanation, columns: string[], sourceOf: (frameColumn: string) => string): Record<string, number> {
  const k = e.outputClasses.length;
  const nf = e.features.length;
  const source = e.features.map(sourceOf);
  const out: Record<string, number> = {};
  for (const col of columns) out[col] = 0;
  const perRow = new Map<string, number>();
  for (let r = 0; r < e.nRows; r++) {
    for (let c = 0; c < k; c++) {
      perRow.clear();
      const at = (r * k + c) * nf;
      // Date parts are summed into their column before taking the absolute value.
      for (let f = 0; f < nf; f++) perRow.set(source[f]!, (perRow.get(source[f]!) ?? 0) + e.values[at + f]!);
      for (const [col, v] of perRow) out[col] = (out[col] ?? 0) + Math.abs(v) / e.nRows;
    }
  }
  return out;
}
