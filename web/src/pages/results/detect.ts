/**
 * Parts of the results the API does not return yet everywhere: each page shows them when the
 * fields are there and says what is missing otherwise (never a made-up number).
 */
import type { SessionResults } from '../../types';

/**
 * Class scores are calibrated probabilities when the results say so, or report calibration metrics
 * (Sibyl's sessions report `brierScore` and `expectedCalibrationError`, and a `calibration` extra).
 */
export function scoresAreCalibrated(r: Pick<SessionResults, 'metrics'> & Record<string, unknown>): boolean {
  if (r.calibrated === true || r.classScoresCalibrated === true) return true;
  const cal = r.calibration as { method?: string } | undefined;
  if (cal && typeof cal === 'object') return true;
  return Object.keys(r.metrics ?? {}).some((k) => /brier|calibration/i.test(k));
}

export { intervalFields } from '../../lib/result-fields';

export interface Contribution { feature: string; value: number }

/** One explained output of a record (a class's score, or the value), as Sibyl's predict answers it. */
export interface ExplainedOutput { class: string | null; baseValue: number; prediction: number; contributions: Record<string, number> }
export interface RecordExplanation { scale: string; description: string; exact: boolean; calibrated: boolean; outputs: ExplainedOutput[] }

/** Sibyl's `explanations: {scale, description, records: [{outputs: […]}]}` for record `index`. */
export function recordExplanation(answer: Record<string, unknown>, index: number): RecordExplanation | undefined {
  const e = answer.explanations as { scale?: string; description?: string; exact?: boolean; calibrated?: boolean; records?: { outputs?: ExplainedOutput[] }[] } | undefined;
  const outputs = e && !Array.isArray(e) ? e.records?.[index]?.outputs : undefined;
  if (!Array.isArray(outputs) || outputs.length === 0) return undefined;
  return { scale: String(e!.scale ?? ''), description: String(e!.description ?? ''), exact: e!.exact !== false, calibrated: e!.calibrated === true, outputs };
}

/**
 * Per-record explanations of a prediction answer, in the shapes they may take: a top-level
 * `explanations` array (one entry per record: a map feature → contribution, or a list of
 * {feature, contribution|value}), or `<feature>:contribution` fields on the record itself.
 */
export function explanationOf(answer: Record<string, unknown>, index: number): Contribution[] | undefined {
  const detailed = recordExplanation(answer, index);
  if (detailed) return Object.entries(detailed.outputs[0]!.contributions).map(([feature, value]) => ({ feature, value }));
  const list = answer.explanations;
  const entry = Array.isArray(list) ? list[index] : undefined;
  const fromEntry = (e: unknown): Contribution[] | undefined => {
    if (Array.isArray(e)) {
      const out = e.flatMap((x: Record<string, unknown>) => {
        const v = Number(x.contribution ?? x.value ?? x.shap);
        return typeof x.feature === 'string' && Number.isFinite(v) ? [{ feature: x.feature, value: v }] : [];
      });
      return out.length ? out : undefined;
    }
    if (e && typeof e === 'object') {
      const inner = (e as Record<string, unknown>).contributions ?? e;
      if (Array.isArray(inner)) return fromEntry(inner);
      const out = Object.entries(inner as Record<string, unknown>).flatMap(([k, v]) => (Number.isFinite(Number(v)) && typeof v !== 'boolean' ? [{ feature: k, value: Number(v) }] : []));
      return out.length ? out : undefined;
    }
    return undefined;
  };
  const found = fromEntry(entry);
  if (found) return found;
  const record = (answer.data as Record<string, string>[] | undefined)?.[index];
  if (!record) return undefined;
  const fields = Object.entries(record).flatMap(([k, v]) => {
    const m = /^(.+):(contribution|explanation|shap)$/.exec(k);
    return m && Number.isFinite(Number(v)) ? [{ feature: m[1]!, value: Number(v) }] : [];
  });
  return fields.length ? fields : undefined;
}

/**
 * Impact: the interval of a whole-window effect, `absoluteEffectLower`/`absoluteEffectUpper` (and
 * `relativeEffect…`) beside the metrics in the results, at `effectIntervalLevel`.
 */
export function effectInterval(results: Record<string, unknown>, name: 'absoluteEffect' | 'relativeEffect'): { lower: number; upper: number; level: number } | undefined {
  const lo = Number(results[`${name}Lower`]);
  const hi = Number(results[`${name}Upper`]);
  const level = Number(results.effectIntervalLevel ?? 0.95);
  return Number.isFinite(lo) && Number.isFinite(hi) ? { lower: lo, upper: hi, level } : undefined;
}

/** Impact: the cumulative effect's band, `<target>:cumulativeEffect:lower`/`:upper` on each row. */
export function cumulativeFields(row: Record<string, string> | undefined, target: string): { value?: string; lower: string; upper: string } | undefined {
  if (!row) return undefined;
  const lower = `${target}:cumulativeEffect:lower`;
  const upper = `${target}:cumulativeEffect:upper`;
  if (lower in row && upper in row) return { value: `${target}:cumulativeEffect` in row ? `${target}:cumulativeEffect` : undefined, lower, upper };
  return undefined;
}

/** Forecast: the holdout the metrics were computed on, when the results describe it. */
export function holdoutOf(r: Record<string, unknown>, target: string, timestamp: string): { start?: number; predicted?: [number, number][] } | undefined {
  const rows = r.holdout as Record<string, string>[] | undefined;
  if (Array.isArray(rows) && rows.length > 0) {
    const predicted = rows.flatMap((row): [number, number][] => {
      const t = Date.parse(row[timestamp] ?? '');
      const v = Number(row[`${target}:predicted`] ?? row[target]);
      return Number.isFinite(t) && Number.isFinite(v) ? [[t, v]] : [];
    });
    return { start: predicted[0]?.[0], predicted };
  }
  const start = Date.parse(String(r.holdoutStartDate ?? ''));
  return Number.isFinite(start) ? { start } : undefined;
}
