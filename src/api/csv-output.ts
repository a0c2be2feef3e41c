/**
 * RFC 4180 CSV for `Accept: text/csv`, with formulas neutralised (OWASP's rule): a cell or header
 * beginning with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'`, so text one party put in a
 * data set (or echoed into results) is shown as text, not run, when someone else opens the download
 * in a spreadsheet. A cell that is a plain number (`-3.5`, `-1e-3`, `+2`) is left alone: numeric
 * columns still read back as numbers.
 */
export function csvField(v: string): string {
  const safe = FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? '"' + safe.replace(/"/g, '""') + '"' : safe;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Header then rows; fields quoted only when they need it. */
export function toCsv(columns: string[], rows: Record<string, string>[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(r[c] ?? '')).join(','));
  return lines.join('\r\n') + '\r\n';
}
