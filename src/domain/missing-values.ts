/**
 * A data set's own markers for a missing value (the dashboard-era `missingValues`, compat-notes):
 * "N/A", "missing", "-9999" — whatever its source writes for "no value". Cells reading one of them are
 * missing wherever the data is processed (column types, statistics, sessions); the stored rows keep
 * them as sent, so markers changed later apply to every row. A cell matches by its trimmed text, and
 * a marker that is a number also by its value (-9999 matches -9999.0).
 */
import { readNumberCell } from './cells.js';
import { wrongType } from './lenient.js';

/** At most this many markers, each at most MAX_MARKER_LENGTH characters. */
export const MAX_MISSING_VALUES = 100;
export const MAX_MARKER_LENGTH = 100;

export class MissingValues {
  private readonly markers: ReadonlySet<string>;
  /** The markers that are numbers: they also match the same number written otherwise (-9999.0, -9,999). */
  private readonly numbers: ReadonlySet<number>;

  constructor(readonly list: readonly string[]) {
    this.markers = new Set(list.map((m) => m.trim()).filter((m) => m !== ''));
    this.numbers = new Set([...this.markers].map(readNumberCell).filter(Number.isFinite));
  }

  get size(): number {
    return this.markers.size;
  }

  /** Whether a cell (text, or a JSON number or truth value as its text) is one of the markers. */
  has(cell: unknown): boolean {
    if (this.markers.size === 0) return false;
    if (typeof cell === 'number') return this.numbers.has(cell) || this.markers.has(String(cell));
    const text = typeof cell === 'string' ? cell : typeof cell === 'boolean' ? String(cell) : undefined;
    if (text === undefined) return false;
    if (this.markers.has(text) || this.markers.has(text.trim())) return true;
    return this.numbers.size > 0 && NUMBER_START.test(text) && this.numbers.has(readNumberCell(text));
  }
}

/** How a number's text can start (sign, digit, point, currency): only such cells are read as numbers. */
const NUMBER_START = /^\s*[-+.\d$€£¥]/;

/**
 * The markers a request sends (strings; numbers are taken as written), or what is wrong with them.
 * Order is kept, repeats and blanks dropped.
 */
export function readMissingValues(value: unknown): { markers: string[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: `missingValues ${wrongType('a list of the texts that mean "no value", e.g. ["N/A", "-9999"]', value)}` };
  if (value.length > MAX_MISSING_VALUES) return { problem: `missingValues holds at most ${MAX_MISSING_VALUES} markers (${value.length} were sent)` };
  const markers: string[] = [];
  for (const v of value) {
    if (typeof v !== 'string' && typeof v !== 'number') return { problem: `missingValues holds texts or numbers; ${JSON.stringify(v)} is neither` };
    const text = String(v).trim();
    if (text.length > MAX_MARKER_LENGTH) return { problem: `a marker in missingValues has at most ${MAX_MARKER_LENGTH} characters` };
    if (text !== '' && !markers.includes(text)) markers.push(text);
  }
  return { markers };
}

/** Markers as a stored record keeps them (a session's request, a model's artifact): none, no field. */
export function missingValuesField(markers: readonly string[] | undefined): { missingValues?: string[] } {
  return markers?.length ? { missingValues: [...markers] } : {};
}

/** A stored session request's own markers (sent with the request, beside its data set's). */
export function sessionMissingValues(request: Record<string, unknown>): string[] {
  const v = request.missingValues;
  return Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : [];
}
