/**
 * What an upload says about how its columns were read, and the columns it reads specially: the CSV's
 * encoding and dialect, unnamed columns (empty ones left out, the index R and pandas write given role
 * none) and dates written day first. Called by ingest.ts once the rows are profiled.
 */
import type { Message } from '../../store/schema.js';
import { isNumericType, type ColumnMap, type ColumnPatchMap } from '../../domain/columns.js';
import type { ColumnProfile } from '../../domain/profile.js';
import { listInWords } from '../../domain/wording.js';
import { isYearName, monthName } from '../../domain/dates.js';
import { missingCode, missingCodeMessage } from '../../domain/missing-codes.js';
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

/**
 * Dates that are read month first, as the original service read them, but whose first number never
 * changes while the second runs through months: a monthly or quarterly series written day first (as
 * UK and EU spreadsheets write 1 July 1991: 01/07/1991). Read as sent, every date falls on a day 1–12
 * of one month, and a forecast by month or quarter fills the months between with the imputation
 * (a quarterly beer series forecast as 0, 0, 788, 0). Said, since no day past 12 gives it away.
 */
export function dayFirstLikelyMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.keys(columns).flatMap((name) => {
    const likely = profiles[name]?.dayFirstLikely;
    if (!likely || columns[name]!.dataType !== 'date') return [];
    const month = monthName(likely.first);
    const [first, second, year] = likely.example.split(/[/.\-\s]/);
    const iso = year && year.length === 4 ? `${year}-${second!.padStart(2, '0')}-${first!.padStart(2, '0')}` : undefined;
    return [{
      severity: 'warning' as const,
      message: `Column '${name}' holds dates such as '${likely.example}' whose first number is always ${likely.first} while the second changes. Sibyl reads them month first, as the original service did, so every one falls on a day from 1 to 12 of ${month}. ` +
        `If they were written day first (${likely.first} ${monthName(Number(second))} for '${likely.example}'), send them as ${iso ?? 'year-month-day'} (ISO 8601): read as they are, sessions work on the wrong dates.`,
    }];
  });
}

/**
 * Columns of words read as text because they hold prose (profile.ts, prose.ts): the sender of a table
 * with a column of reviews learns why its type is text, and how to have categories instead.
 */
export function proseMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.keys(columns).flatMap((name) => {
    const prose = profiles[name]?.prose;
    if (!prose || columns[name]!.dataType !== 'text') return [];
    const among = prose.distinct === prose.sampled ? `each of its ${prose.sampled} cells different` : `${prose.distinct} different values among ${prose.sampled} cells`;
    return [{
      severity: 'informational' as const,
      message: `Column '${name}' holds prose (${among}, ${prose.meanWords.toFixed(0)} words each on average): it is read as text, so models learn from its words and word pairs (a session lists them under /v1/vocabulary). Declare its dataType string to treat each value as a category instead.`,
    }];
  });
}

/**
 * An upload whose rows repeat an identity keeps the last row of each (upsert by key or timestamp):
 * several series stacked in one table (a date, a region, the sales) lost all but one series' rows
 * without a word.
 */
export function repeatedIdentityMessages(identity: { kind: 'key' | 'timestamp'; column: string }, rowsSent: number, identities: number): Message[] {
  const repeated = rowsSent - identities;
  if (repeated <= 0) return [];
  const what = identity.kind === 'timestamp' ? 'timestamp' : 'key';
  return [{
    severity: 'warning',
    message: `${repeated} of the ${rowsSent} rows sent ${repeated === 1 ? 'repeats' : 'repeat'} the ${what} ('${identity.column}') of a row sent after them. A data set with a ${what} holds one row per ${what}, so the last row sent for each of the ${identities} ${what}s was kept. ` +
      `If the rows hold several series, one per value of another column (a region, a product), upload each series as its own data set, or as its own column.`,
  }];
}

/**
 * The single date column of a data set that is not a time series, because rows share a date or lack
 * one: the sender of a series learns why only when a forecast finds no timestamp, so the upload says
 * it, and how a session can still use the column. A few repeats among many dates are usually the hour
 * that local clock times repeat when daylight saving time ends, not several series.
 */
export function untimedDateMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  if (hasIdentityRole(columns)) return [];
  const dates = Object.keys(columns).filter((n) => columns[n]!.dataType === 'date');
  const profile = dates.length === 1 ? profiles[dates[0]!] : undefined;
  if (!profile || profile.dataType !== 'date' || profile.uniqueDates || profile.present === 0) return [];
  const name = dates[0]!;
  const reasons: string[] = [];
  // Past DATE_SET_CAP dates the profile does not count them, and an unsorted column is not a candidate.
  const repeats = profile.distinctDates === undefined ? 0 : profile.present - profile.distinctDates;
  const fewRepeats = repeats > 0 && repeats * 100 < profile.present;
  if (fewRepeats) reasons.push(`${repeats} of its ${profile.present} dates ${repeats === 1 ? 'repeats' : 'repeat'} an earlier row's`);
  else if (repeats > 0) reasons.push(`rows share its dates (${profile.distinctDates} dates in ${profile.present} rows)`);
  if (profile.missing > 0) reasons.push(`${profile.missing} ${profile.missing === 1 ? 'row has' : 'rows have'} no date`);
  if (reasons.length === 0) return [];
  const advice = fewRepeats
    ? `Times written in local clock time repeat an hour when daylight saving time ends: send them with their offset from UTC (2014-04-06T02:30:00+11:00), or delete the data set and upload it again with timestampColumn=${name}, which keeps the last row of each repeated time.`
    : `If the rows hold several series, one per value of another column, upload each series as its own data set.`;
  return [{
    severity: 'informational',
    message: `Column '${name}' holds dates, but ${reasons.join(' and ')}, so it is not the data set's timestamp and the data set is not a time series. ` +
      `A forecast or impact session can still use it: give '${name}' role timestamp in the data set's column metadata or in the session's columns, and the rows of each period are combined with each column's aggregation. ${advice}`,
  }];
}

/**
 * A yearly series written with bare years (year,flow / 1871,1120), as R's data frames and most
 * statistics offices write it: the years are numbers, so the data set has no timestamp and a forecast
 * finds none. Said for a column named as years whose whole numbers rise from row to row, in a data set
 * without dates or an identity.
 */
export function yearColumnMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  if (hasIdentityRole(columns) || Object.values(columns).some((c) => c.dataType === 'date')) return [];
  return Object.keys(columns)
    .filter((n) => isYearName(n) && profiles[n]?.risingWholeNumbers && isNumericType(columns[n]!.dataType))
    .map((name) => ({
      severity: 'informational',
      message: `Column '${name}' holds whole numbers rising from row to row, as years are written: they are stored as numbers, so the data set has no timestamp. ` +
        `A forecast or impact session can use them as years (each as 1 January): give '${name}' role timestamp in the data set's column metadata or in the session's columns; or delete the data set and upload it again with timestampColumn=${name} to make it a time series.`,
    }));
}

/**
 * Columns of numbers whose extremes hold a code for a missing value (-9999, 999: missing-codes.ts),
 * among this upload's rows: stored as numbers, they would be taken for values without a word.
 */
export function missingCodeMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.keys(columns).flatMap((name) => {
    const extremes = profiles[name]?.extremes;
    const meta = columns[name]!;
    if (!extremes || !isNumericType(meta.dataType) || meta.role === 'key' || meta.role === 'timestamp') return [];
    const code = missingCode(extremes);
    return code ? [{ severity: 'warning' as const, message: missingCodeMessage(name, code, 'upload') }] : [];
  });
}

/**
 * Columns read as numbers although a few of their cells are words ('unknown', 'refused': profile.ts
 * NUMBER_WORDS): the words are missing values to every session, which the sender should know, and
 * can undo by declaring the column a string.
 */
export function numberWordsMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.keys(columns).flatMap((name) => {
    const words = profiles[name]?.missingWords;
    if (!words || !isNumericType(columns[name]!.dataType)) return [];
    const cells = words.reduce((a, w) => a + w.count, 0);
    const listed = listInWords(words.map((w) => `'${w.word}' (${w.count})`));
    return [{
      severity: 'warning' as const,
      message: `Column '${name}' holds numbers, and words in ${cells} of its ${profiles[name]!.present + cells} cells: ${listed}. ` +
        `It is read as a column of numbers, with those cells missing. If the words are values, declare the column's dataType string.`,
    }];
  });
}

function hasIdentityRole(columns: ColumnMap): boolean {
  return Object.values(columns).some((c) => c.role === 'timestamp' || c.role === 'key');
}
