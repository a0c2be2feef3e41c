/**
 * Reading single data values (cells), shared by inference and by the code that turns stored
 * values into model input, so both agree on what counts as a number, a flag or missing.
 * Cells arrive as CSV strings or as JSON strings, numbers and booleans.
 */

/** null, undefined and blank strings. */
export function isMissingCell(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/**
 * Cells that say "no value" as R's write.csv, pandas and spreadsheets write it (pandas' default
 * na_values less 'None', a real category), and the gaps of UCI's files ('?') and of printed tables
 * ('-', '--', '.'). They count as missing when a type is inferred, and in the statistics and model
 * inputs of a column that is not text, so a numeric column written by R with NA in it, or UCI's
 * auto-mpg with '?' for an unknown horsepower, is numeric, not a column of strings. The stored cell
 * is kept as sent; in a string column a marker stays a value (NA may be North America, '-' a level),
 * so a marker only ever makes a gap where the rest of the column is numbers, dates or truth values.
 */
export const MISSING_MARKERS: ReadonlySet<string> = new Set(['NA', 'N/A', 'n/a', 'NaN', 'nan', 'null', 'NULL', '#N/A', '#NA', '<NA>', '?', '-', '--', '.',
  // Excel's error values, which its exports write where a formula failed.
  '#DIV/0!', '#VALUE!', '#REF!', '#NUM!', '#NAME?', '#NULL!']);

/** A missing cell or, trimmed, one of the MISSING_MARKERS: how a cell of a column that is not text reads. */
export function isMissingOrMarker(v: unknown): boolean {
  return isMissingCell(v) || (typeof v === 'string' && MISSING_MARKERS.has(v.trim()));
}

/**
 * Plain decimal notation, with or without thousands separators ('3,504', '1,234,567.5': how
 * spreadsheets write formatted numbers), a leading currency symbol ('$1,250.00', '-$5': prices as
 * spreadsheets and scraped listings write them) or a trailing percent sign ('45%' is 45, the number
 * as written, as R's readr reads it), negative in parentheses or with a minus sign ('(1,250.00)',
 * '−2.5'): no hex, no "Infinity". NaN otherwise.
 */
export function parseNumberCell(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v !== 'string') return NaN;
  const notation = numberNotation(v.trim());
  if (!notation) return NaN;
  const n = Number(notation.digits);
  return Number.isFinite(n) ? n : NaN; // 1e999
}

/**
 * A stored cell as a number: Number() where it reads the cell (stored numbers are almost all plain,
 * and this is the fast path of loading and predicting), parseNumberCell's forms otherwise ('3,504',
 * '$99', '45%'). NaN where neither reads it.
 */
export function readNumberCell(text: string): number {
  const x = Number(text);
  return Number.isFinite(x) && !hasRadixPrefix(text) ? x : parseNumberCell(text);
}

/** Number() also reads '0x10', '0b101' and '0o17' (16, 5, 15); a cell is decimal, so those are no numbers. */
function hasRadixPrefix(text: string): boolean {
  let i = 0;
  while (text.charCodeAt(i) <= 32) i++;
  if (text.charCodeAt(i) !== 48) return false;
  const letter = text.charCodeAt(i + 1) | 32;
  return letter === 120 || letter === 98 || letter === 111;
}

/** How a (trimmed) number cell is written; numberNotation gives it. */
export interface NumberNotation {
  /** decimalForm's notation: 1 an integer, 2 with a point, 3 with an exponent. */
  form: 1 | 2 | 3;
  /** Its currency symbol, '' when none. */
  currency: string;
  percent: boolean;
  /** The text Number() reads: sign and digits, without symbol, percent sign or separators. */
  digits: string;
}

/**
 * The notation of a (trimmed) number cell, or undefined when it is no number in parseNumberCell's
 * forms (a currency symbol and a percent sign together are none). Type inference keeps a column
 * numeric only while its cells share one currency symbol, and have a percent sign all or none, so
 * dollars and euros, or 45% and 0.45, are never one quantity.
 */
export function numberNotation(s: string): NumberNotation | undefined {
  const first = s.charCodeAt(0);
  // Excel's accounting and currency formats write a negative amount in parentheses ('(1,250.00)',
  // '($5)'), and typeset text writes the minus sign (U+2212) where a keyboard writes a hyphen.
  if ((first === OPEN && s.length > 2 && s.charCodeAt(s.length - 1) === CLOSE) || first === MINUS_SIGN) {
    const inner = numberNotation(first === OPEN ? s.slice(1, -1).trim() : s.slice(1));
    const sign = inner?.digits.charCodeAt(0);
    return inner && sign !== MINUS && sign !== PLUS ? { ...inner, digits: `-${inner.digits}` } : undefined;
  }
  const currency = currencySymbol(s);
  let t = currency ? withoutCurrency(s, currency) : s;
  const percent = t.length > 1 && t.charCodeAt(t.length - 1) === PERCENT;
  if (percent) {
    if (currency) return undefined;
    t = t.slice(0, -1);
  }
  const form = decimalForm(t);
  if (form === 0) return undefined;
  return { form, currency, percent, digits: t.indexOf(',') < 0 ? t : t.replaceAll(',', '') };
}

/** Powers of ten exact in a double (10^0 .. 10^22). */
const EXACT_TENS = Float64Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Significant digits whose integer is exact in a double. */
const EXACT_DIGITS = 15;

/**
 * The value of numberNotation's digits of form 1 or 2 (sign, digits, one point) read from their first
 * 15 significant digits, without Number()'s cost (~80 ns for '123.45', more for the 17 digits that
 * JavaScript and pandas write for a float; the profile reads every cell of an upload). Up to 15 digits
 * this is Number()'s answer: the digits as an integer and the power of ten are exact doubles, and their
 * quotient, one correctly rounded division, is the double nearest the decimal (Clinger's fast path).
 * Past 15 digits the rest are dropped (a relative error under 10⁻¹⁴). Exponent forms go to Number().
 */
export function decimalValue(digits: string, form: 1 | 2 | 3): number {
  if (form === 3) return Number(digits);
  const len = digits.length;
  let i = 0;
  const first = digits.charCodeAt(0);
  const negative = first === MINUS;
  if (negative || first === PLUS) i++;
  let m = 0;
  let significant = 0;
  let scale = 0; // the power of ten m is to be multiplied by
  let afterPoint = false;
  for (; i < len; i++) {
    const c = digits.charCodeAt(i);
    if (c === POINT) afterPoint = true;
    else if (significant < EXACT_DIGITS) {
      if (significant > 0 || c !== ZERO) significant++;
      m = m * 10 + (c - ZERO);
      if (afterPoint) scale--;
    } else if (afterPoint) break;
    else scale++;
  }
  if (scale < -22 || scale > 22) return Number(digits);
  const x = scale < 0 ? m / EXACT_TENS[-scale]! : m * EXACT_TENS[scale]!;
  return negative ? -x : x;
}

const PLUS = 43, MINUS = 45, POINT = 46, COMMA = 44, PERCENT = 37, ZERO = 48, NINE = 57, LOWER_E = 101, UPPER_E = 69, OPEN = 40, CLOSE = 41, MINUS_SIGN = 0x2212;
// $, £, ¥, €: the symbols written before an amount.
const CURRENCY: ReadonlySet<number> = new Set([36, 163, 165, 8364]);

/** The currency symbol a (trimmed) cell starts with, after its sign or before it ('$1,250.00', '-$5', '$-5'); '' when none. */
function currencySymbol(s: string): string {
  const c = s.charCodeAt(0);
  if (CURRENCY.has(c)) return s[0]!;
  if ((c === PLUS || c === MINUS) && CURRENCY.has(s.charCodeAt(1))) return s[1]!;
  return '';
}

/** The cell without its currency symbol, its sign kept: '-$5' and '$-5' are '-5'. */
function withoutCurrency(s: string, symbol: string): string {
  const at = s.indexOf(symbol);
  return s.slice(0, at) + s.slice(at + 1);
}

/**
 * The notation of a (trimmed) number cell, as
 * /^[+-]?(?:\d+\.?\d*|\.\d+|\d{1,3}(?:,\d{3})+(?:\.\d*)?)(?:[eE][+-]?\d+)?$/ reads it (an exponent
 * only without separators): 0 not such a number, 1 an integer (sign and digits only), 2 with a point
 * and no exponent, 3 with an exponent. Grouped digits ('3,504') are 1 or 2 like the digits alone;
 * a European '1,5' is not grouped (a group is three digits) and stays text. A char-code scan,
 * because it runs for every cell of an upload.
 */
export function decimalForm(s: string): 0 | 1 | 2 | 3 {
  const len = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === PLUS || c === MINUS) i++;
  const intStart = i;
  while (i < len && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++;
  const intDigits = i - intStart;
  let grouped = false;
  if (c === COMMA && i < len) {
    if (intDigits < 1 || intDigits > 3) return 0;
    while (i < len && s.charCodeAt(i) === COMMA) {
      for (let k = 1; k <= 3; k++) {
        const d = s.charCodeAt(i + k);
        if (!(d >= ZERO && d <= NINE)) return 0;
      }
      i += 4;
    }
    grouped = true;
    if (i < len) c = s.charCodeAt(i);
  }
  if (i === len) return intDigits > 0 ? 1 : 0;
  if (c === POINT) {
    const fracStart = ++i;
    while (i < len && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++;
    if (intDigits === 0 && i === fracStart) return 0;
    if (i === len) return 2;
  } else if (intDigits === 0) return 0;
  if (grouped || (c !== LOWER_E && c !== UPPER_E)) return 0;
  i++;
  if (i < len && ((c = s.charCodeAt(i)) === PLUS || c === MINUS)) i++;
  const expStart = i;
  while (i < len && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++;
  return i > expStart && i === len ? 3 : 0;
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
