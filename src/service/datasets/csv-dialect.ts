/**
 * CSV dialects other than RFC 4180's commas, as spreadsheets write them: the separator the first line
 * uses, and in the semicolon dialect the decimal commas and day-first dates of the locales that write
 * it, rewritten in the notation every reader of stored cells understands (csv-rows.ts applies it).
 */
import type { CsvSeparator } from './csv-parser.js';

/**
 * How a CSV file is written: its encoding, its separator, and whether its numbers have a decimal comma
 * (the semicolon dialect Excel writes where the comma is the decimal separator: most of Europe).
 */
export interface CsvDialect {
  separator: CsvSeparator;
  decimalComma: boolean;
  encoding: CsvEncoding;
  /** Decimal-comma files: columns with numbers like '1.234' that may group thousands or not (see PointGroups). */
  ambiguousPoints?: AmbiguousPoints[];
}

/** A column's cells written as '1.234' (a point before each group of three digits, no comma), read as written. */
export interface AmbiguousPoints {
  column: string;
  count: number;
  example: string;
}

export type CsvEncoding = 'utf-8' | 'windows-1252';

/** What the first line tells of the dialect. */
export type CsvLayout = Pick<CsvDialect, 'separator' | 'decimalComma'>;

/**
 * The dialect from the first line, its quoted values left aside: commas separate values when the
 * line has one; otherwise semicolons (Excel's CSV where the decimal separator is a comma, which
 * also writes numbers as 1,5), else tabs; a line with none of them is one column.
 */
export function sniffLayout(firstLine: string): CsvLayout {
  const unquoted = firstLine.replace(/"(?:[^"]|"")*"?/g, '');
  const separator = unquoted.includes(',') ? ',' : unquoted.includes(';') ? ';' : unquoted.includes('\t') ? '\t' : ',';
  return { separator, decimalComma: separator === ';' };
}

/**
 * A number with a decimal comma, thousands grouped by points or not, a percent sign or a currency
 * symbol after it allowed (after a space too, as such locales write them): 1,5 · -0,25 · 1.234,5 ·
 * 12,5 % · 7 % · 1.234,00 €.
 */
const CURRENCY_AFTER = /[€$£¥]\s*$/;
const DECIMAL_COMMA = /^([+-]?)(\d+|\d{1,3}(?:\.\d{3})+)(?:,(\d+))?(?:[\s\u00a0\u202f]?(?:(%)|([€$£¥])))?$/;

/** A date written day first with a four-digit year, a time after it allowed: 13.01.2017 · 13/01/2017 · 13-01-2017 08:30. */
const DAY_FIRST_DATE = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The cells of a file in the semicolon dialect, rewritten in the notation every reader of stored
 * cells understands. Numbers with a decimal comma: '1,5' → '1.5', '1.234,5' → '1234.5',
 * '12,5 %' → '12.5%', '7 %' → '7%', '1.234,00 €' → '€1234.00'. A number with points and no comma ('1.234') is left as written:
 * it may be a grouped 1234 or 1.234, and Excel writes neither without a format asking for it.
 * Dates, written day first where the comma is the decimal separator: '13.01.2017' → '2017-01-13',
 * '13/01/2017 08:30' → '2017-01-13 08:30' (Sibyl reads d/m/y month first elsewhere, as the
 * original service did; a day or month out of range is left as written).
 */
export function readDecimalCommaLocale(rows: string[][], points?: PointGroups): void {
  for (const row of rows) {
    for (let j = 0; j < row.length; j++) {
      const cell = row[j]!;
      if (cell.includes(',') || cell.includes('%') || CURRENCY_AFTER.test(cell)) row[j] = decimalPointNumber(cell) ?? cell;
      else if (cell.length >= 8 && cell.length <= 20) row[j] = isoDate(cell) ?? cell;
      if (points && cell.includes('.')) points.note(j, cell);
    }
  }
}

const GROUPED_BY_POINTS = /^[+-]?\d{1,3}(?:\.\d{3})+$/;
const POINT_DECIMAL = /^[+-]?\d*\.(\d+)$/;

/**
 * Cells like '1.234' in a decimal-comma file: Excel writes them for numbers formatted with a 1000
 * separator (1234), but a tool writing semicolons with decimal points writes them too (1.234). They
 * are read as written and counted per column, unless the column shows decimal points elsewhere
 * ('0.25', '12.5': a number of decimals other than three), so that the upload can warn.
 */
export class PointGroups {
  private readonly counts = new Map<number, { count: number; example: string }>();
  private readonly pointDecimal = new Set<number>();

  note(column: number, cell: string): void {
    const t = cell.trim();
    if (GROUPED_BY_POINTS.test(t)) {
      const c = this.counts.get(column);
      if (c) c.count++;
      else this.counts.set(column, { count: 1, example: t });
    } else {
      const m = POINT_DECIMAL.exec(t);
      if (m && m[1]!.length !== 3) this.pointDecimal.add(column);
    }
  }

  ambiguous(header: readonly string[]): AmbiguousPoints[] {
    return [...this.counts].filter(([j]) => !this.pointDecimal.has(j)).map(([j, c]) => ({ column: header[j]!, ...c }));
  }
}

function decimalPointNumber(cell: string): string | undefined {
  const m = DECIMAL_COMMA.exec(cell.trim());
  if (!m) return undefined;
  const [, sign, whole, fraction, percent, currency] = m;
  // Without a decimal comma only a sign after the number makes it this notation, and points may group or be decimal.
  if (fraction === undefined && ((percent === undefined && currency === undefined) || whole!.includes('.'))) return undefined;
  return `${sign}${currency ?? ''}${whole!.replaceAll('.', '')}${fraction === undefined ? '' : `.${fraction}`}${percent ?? ''}`;
}

function isoDate(cell: string): string | undefined {
  const m = DAY_FIRST_DATE.exec(cell.trim());
  if (!m) return undefined;
  const [, day, , month, year, hour, minute, second] = m;
  if (Number(day) < 1 || Number(day) > 31 || Number(month) < 1 || Number(month) > 12) return undefined;
  const date = `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}`;
  return hour === undefined ? date : `${date} ${hour.padStart(2, '0')}:${minute}${second === undefined ? '' : `:${second}`}`;
}
