/**
 * What an upload says about how its columns were read, and the columns it reads specially: the CSV's
 * encoding and dialect, unnamed columns (empty ones left out, the index R and pandas write given role
 * none) and dates written day first. Called by ingest.ts once the rows are profiled.
 */
import type { Message } from '../../store/schema.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import type { ColumnProfile } from '../../domain/profile.js';
import { listInWords } from '../../domain/wording.js';
import type { CsvDialect } from './csv-dialect.js';
import { positionOfName } from './csv-rows.js';

/**
 * Columns named by their position (csv-rows positionalName: the header left them unnamed, or there
 * was none) that hold no value in any row and are not yet columns of the data set: the empty columns
 * at a spreadsheet's right edge. They are left out rather than kept as columns without a value.
 */
export function emptyPositionalColumns(profiles: Record<string, ColumnProfile>, stored: ColumnMap, requested: ColumnPatchMap): string[] {
  return Object.entries(profiles)
    .filter(([name, p]) => positionOfName(name) !== undefined && p.present === 0 && !(name in stored) && !(name in requested))
    .map(([name]) => name);
}

/** How a CSV not in UTF-8 or not separated by commas was read (csv-rows.ts, csv-dialect.ts), so its sender can check it. */
export function dialectMessages(dialect: CsvDialect | undefined): Message[] {
  if (!dialect) return [];
  const messages: string[] = [];
  if (dialect.encoding === 'windows-1252') {
    messages.push('The CSV is not UTF-8 text: it was read as Windows-1252, the encoding Excel\'s "CSV (Comma delimited)" writes on Windows (é, ü, €). If its accented letters look wrong in the data, save the file as "CSV UTF-8" and upload it again.');
  }
  if (dialect.separator === ';') {
    messages.push('The CSV separates its values with semicolons, as Excel writes CSV where the comma is the decimal separator: it was read so, with numbers written with a decimal comma (1,5 · 1.234,5 · 12,5 % · 1.234,00 €) stored as 1.5, 1234.5, 12.5% and €1234.00, and dates written day first (13.01.2017 · 13/01/2017) stored as 2017-01-13.');
  } else if (dialect.separator === '\t') {
    messages.push('The CSV separates its values with tabs: it was read so.');
  }
  const ambiguous = (dialect.ambiguousPoints ?? []).map(({ column, count, example }) => ({
    severity: 'warning' as const,
    message: `Column '${column}' holds ${count} ${count === 1 ? 'value' : 'values'} such as '${example}', with a point before three digits and no decimal comma: read as written, ${example} (the point as a decimal point). In a file with decimal commas such a point usually groups thousands (${example} = ${example.replaceAll('.', '')}): if it does, format the column in Excel without the 1000 separator and upload the file again.`,
  }));
  return [...messages.map((message) => ({ severity: 'informational' as const, message })), ...ambiguous];
}

/**
 * New columns the CSV header left unnamed, beside named ones, holding whole numbers that rise from row
 * to row: the index R's write.csv and pandas' to_csv write as the first column by default (1, 2, 3, …
 * or 0, 1, 2, …). As a feature it numbers the rows, which leaks the target of a file sorted by it and
 * makes the first and last rows easier to isolate (anomaly sessions flag more of them); it gets role
 * none, which the metadata shows and a request may override.
 */
export function rowNameColumns(profiles: Record<string, ColumnProfile>, stored: ColumnMap, requested: ColumnPatchMap): string[] {
  const names = Object.keys(profiles);
  if (names.every((n) => positionOfName(n) !== undefined)) return [];
  return names.filter((n) => positionOfName(n) !== undefined && profiles[n]!.risingWholeNumbers && !(n in stored) && requested[n]?.role === undefined);
}

export function rowNameMessages(names: string[], profiles: Record<string, ColumnProfile>): Message[] {
  return names.map((name) => ({
    severity: 'informational',
    message: `The CSV's column ${positionOfName(name)} has no name and numbers the rows (${profiles[name]!.present} whole numbers rising from row to row, as R's write.csv and pandas' to_csv write row names and the index): it is kept as '${name}' with role none, so models leave it out. Give it role feature in the columns metadata if its numbers mean more.`,
  }));
}

export function unnamedMessages(names: string[]): Message[] {
  if (names.length === 0) return [];
  const positions = names.map((n) => positionOfName(n));
  const which = `column${positions.length === 1 ? '' : 's'} ${listInWords(positions)}`;
  return [{ severity: 'informational', message: `The CSV's ${which} had no name and no value in any row (as empty columns at a spreadsheet's edge): left out.` }];
}

/**
 * A column of dates written day first is text to Sibyl, which reads d/m/y month first as the
 * original service did (en-US); without a word the sender learns it only when a session finds no
 * timestamp. Said for the columns that stayed text.
 */
export function dayFirstMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.entries(profiles)
    .filter(([name, p]) => p.dayFirstDates && columns[name]?.dataType === 'string')
    .map(([name]) => ({
      severity: 'warning',
      message: `Column '${name}' holds dates written day first (as 13/01/2017 for 13 January): Sibyl reads such dates month first, as the original service did, so '${name}' is kept as text, not as dates. Send them as 2017-01-13 (ISO 8601) to use them as dates or as the data set's timestamp.`,
    }));
}
