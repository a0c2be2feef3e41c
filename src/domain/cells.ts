/**
 * Reading single data values (cells), shared by inference and by the code that turns stored
 * values into model input, so both agree on what counts as a number, a flag or missing.
 * Cells arrive as CSV strings or as JSON strings, numbers and booleans.
 */

/** null, undefined and blank strings. */
export function isMissingCell(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Plain decimal notation only: no hex, no "Infinity", no thousands separators. NaN otherwise. */
export function parseNumberCell(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v !== 'string') return NaN;
  const s = v.trim();
  if (!NUMBER.test(s)) return NaN;
  const n = Number(s);
  return Number.isFinite(n) ? n : NaN; // 1e999
}

/** The documented logical values: True/False, Yes/No, On/Off (any case) and 1/0. */
export const LOGICAL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true], ['false', false], ['yes', true], ['no', false], ['on', true], ['off', false],
]);

/**
 * A logical cell as a boolean. An empty cell means FALSE (spec: "an empty cell is inferred as
 * FALSE"); null when the value is not a logical one.
 */
export function parseLogicalCell(v: unknown): boolean | null {
  if (isMissingCell(v)) return false;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  if (s === '1' || s === '0') return s === '1';
  return LOGICAL_WORDS.get(s) ?? null;
}
