/**
 * Dates as clients send them and as the original service wrote them (compat-notes §2.2, §2.3).
 * The service parsed with en-US culture, so numeric day/month order is month first; input
 * without a zone is UTC. All values are epoch milliseconds.
 */

// 2017-06-01, 2017-06-01T00:00:00, 2008-09-01 00:00:00, …Z, …+0000, …+00:00, 7 fractional digits.
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// 1993-09: a month, as in impact windows.
const YEAR_MONTH = /^(\d{4})-(\d{1,2})$/;
// 06-01-2017, 1-01-2017, 01/01/2017 00:00:00, 7/4/2008 4:00:00 AM (.NET en-US output).
const US = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:\s*([AP]M))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// 2017/06/01, accepted by the same culture.
const SLASHED_ISO = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

// Month names, as en-US DateTime.Parse read them too: 13-Jan-2017 and 13-Jan-17 (R's %d-%b-%Y, Excel's
// d-mmm-yy), 13 January 2017, Jan 13, 2017 and January 13, 2017 (US spreadsheets), with an optional
// 24-hour time. A two-digit year is 2000–2049 up to 49 and 1950–1999 from 50 (.NET's TwoDigitYearMax).
const TIME = '(?:[T ]+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?)?';
const DAY_MONTH_NAME = new RegExp(`^(\\d{1,2})[- ]([a-z]{3,9})\\.?[- ](\\d{4}|\\d{2})${TIME}$`, 'i');
const MONTH_NAME_DAY = new RegExp(`^([a-z]{3,9})\\.? (\\d{1,2}),? (\\d{4})${TIME}$`, 'i');

// A month or a quarter, as monthly and quarterly series are written: Jan 2017, January 2017 and
// Jan-17 (R's zoo yearmon, Excel's mmm-yy; a two-digit year only after a hyphen, as 'May 17' may be
// a day), 01/2017; 2017Q1, 2017 Q1, 2017-Q1 (pandas' and R's quarterly periods) and Q1 2017. Each
// is its first day.
const MONTH_NAME_YEAR = /^([a-z]{3,9})\.?(?: (\d{4})|-(\d{4}|\d{2}))$/i;
const MONTH_SLASH_YEAR = /^(\d{1,2})\/(\d{4})$/;
const YEAR_QUARTER = /^(\d{4}) ?-? ?Q([1-4])$/i;
const QUARTER_YEAR = /^Q([1-4]) ?-? ?(\d{4})$/i;

function fullYear(digits: string): number {
  const y = Number(digits);
  return digits.length > 2 ? y : y <= 49 ? 2000 + y : 1900 + y;
}
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTHS = FULL_MONTHS.map((name) => name.slice(0, 3));

/** The English name of month `m` (1–12), capitalised: for messages. */
export function monthName(m: number): string | undefined {
  const name = FULL_MONTHS[m - 1];
  return name && name[0]!.toUpperCase() + name.slice(1);
}

function dateWithMonthName(year: number, monthName: string, day: number, hour?: string, minute?: string, second?: string): number | null {
  const month = monthNumber(monthName);
  return month ? build(year, month, day, hour, minute, second) : null;
}

/** 1–12 for an English month name or its three-letter (or 'Sept') abbreviation; 0 otherwise. */
function monthNumber(name: string): number {
  const n = name.toLowerCase();
  const i = n.length === 3 ? MONTHS.indexOf(n) : n === 'sept' ? 8 : FULL_MONTHS.indexOf(n);
  return i + 1;
}

// A UTC offset written after a time of day: 2008-07-01T00:00:00+02:00, 7/1/2008 12:00 AM -05:00.
const OFFSET_AFTER_TIME = /\d:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:\s*[AP]M)?\s*([+-])(\d{2})(?::?(\d{2}))?$/i;

/**
 * The UTC offset a date text is written with, in ms (+02:00 → 7,200,000), 0 for Z or none: the
 * epoch ms parseDate gives plus this is the date and time of day as written, on the writer's clock.
 */
export function writtenOffsetMs(s: string): number {
  const m = OFFSET_AFTER_TIME.exec(s.trim());
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000;
}

/** A date as a client wrote it: the instant, and the UTC offset it was written with (writtenOffsetMs). */
export interface WrittenDate {
  utcMs: number;
  offsetMs: number;
}

/** parseDate's instant with the offset the text was written with; null when it is not a date. */
export function parseWrittenDate(s: string): WrittenDate | null {
  const utcMs = parseDate(s);
  return utcMs === null ? null : { utcMs, offsetMs: writtenOffsetMs(s) };
}

/** Epoch ms for a date in any accepted format, or null. Digits-only strings are never dates. */
export function parseDate(s: string): number | null {
  const t = s.trim();
  let m = ISO.exec(t);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8]);
  m = YEAR_MONTH.exec(t);
  if (m) return build(+m[1], +m[2], 1);
  m = US.exec(t);
  if (m) {
    let hour = m[4];
    if (m[8] !== undefined) {
      const h = Number(hour);
      if (hour === undefined || h < 1 || h > 12) return null;
      hour = String((h % 12) + (m[8].toUpperCase() === 'PM' ? 12 : 0));
    }
    return build(+m[3], +m[1], +m[2], hour, m[5], m[6], m[7], m[9]);
  }
  m = SLASHED_ISO.exec(t);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6]);
  m = DAY_MONTH_NAME.exec(t);
  if (m) return dateWithMonthName(fullYear(m[3]), m[2], +m[1], m[4], m[5], m[6]);
  m = MONTH_NAME_DAY.exec(t);
  if (m) return dateWithMonthName(+m[3], m[1], +m[2], m[4], m[5], m[6]);
  return monthOrQuarter(t);
}

function monthOrQuarter(t: string): number | null {
  let m = MONTH_NAME_YEAR.exec(t);
  if (m) return dateWithMonthName(fullYear(m[2] ?? m[3]), m[1], 1);
  m = MONTH_SLASH_YEAR.exec(t);
  if (m) return build(+m[2], +m[1], 1);
  m = YEAR_QUARTER.exec(t);
  if (m) return build(+m[1], 3 * +m[2] - 2, 1);
  m = QUARTER_YEAR.exec(t);
  if (m) return build(+m[2], 3 * +m[1] - 2, 1);
  return null;
}

const BARE_YEAR = /^(\d{4})$/;
/** Unix time in seconds (9–10 digits: 1973–2286) or milliseconds (12–13 digits), as logs and databases write it. */
const UNIX_SECONDS = /^\d{9,10}$/;
const UNIX_MILLISECONDS = /^\d{12,13}$/;
/** year, Year, YEAR, yr, fiscal_year, 'Fiscal Year': how a column of years is named. */
const YEAR_NAME = /(?:^|[ ._-])(?:year|yr)$/i;

/** Whether a column's name says it holds years (1871, 2017), which Sibyl reads as numbers until a column is declared a date. */
export function isYearName(name: string): boolean {
  return YEAR_NAME.test(name);
}

/**
 * A value of a column declared as dates (a timestamp): any date parseDate reads, a bare year, as
 * yearly series are written (1871, ISO 8601's year precision), read as 1 January, or Unix time in
 * seconds or milliseconds (1404172800, 1404172800000). Inference never takes digits for dates, so
 * such a column stays numeric until it is declared a date.
 */
export function parseTimestamp(s: string): number | null {
  const ms = parseDate(s);
  if (ms !== null) return ms;
  const t = s.trim();
  const m = BARE_YEAR.exec(t);
  if (m) return build(+m[1]!, 1, 1);
  if (UNIX_SECONDS.test(t)) return Number(t) * 1000;
  if (UNIX_MILLISECONDS.test(t)) return Number(t);
  return null;
}

/**
 * Whether a data value should make its column a date column. Same formats as `parseDate`,
 * which needs separators, so year-like or yyyymmdd numbers (2017, 20170101) stay numeric;
 * JSON numbers and booleans are never dates.
 */
export function looksLikeDate(v: unknown): boolean {
  return typeof v === 'string' && parseDate(v) !== null;
}

function build(
  year: number, month: number, day: number,
  hour?: string, minute?: string, second?: string, fraction?: string, zone?: string,
): number | null {
  const h = hour === undefined ? 0 : Number(hour);
  const mi = minute === undefined ? 0 : Number(minute);
  const sec = second === undefined ? 0 : Number(second);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || h > 23 || mi > 59 || sec > 59) return null;
  // Sub-millisecond digits (.NET writes seven) are truncated, never rounded into the next second.
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  return ((daysFromCivil(year, month, day) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms - zoneOffsetMs(zone);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil); no Date allocation on the upload path. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function zoneOffsetMs(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes) * 60_000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function secondsPart(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * Resource dates (requestedDate, startDate, statusHistory): `2017-06-29T00:00:00+00:00`, with
 * the fraction only when there is one, trailing zeros dropped, as .NET's round-trip format did.
 */
export function formatOffset(ms: number): string {
  const d = new Date(ms);
  const millis = d.getUTCMilliseconds();
  const fraction = millis === 0 ? '' : '.' + pad(millis, 3).replace(/0+$/, '');
  return `${secondsPart(d)}${fraction}+00:00`;
}

/** Stored timestamps in `data` arrays, normalised like the service did: `2017-04-01T00:00:00.0000000Z`. */
export function formatStoredTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${secondsPart(d)}.${pad(d.getUTCMilliseconds(), 3)}0000Z`;
}

/** `2017-04-01T00:00:00.000Z` (JavaScript's toISOString), for four-digit years. */
export function formatIsoMillis(ms: number): string {
  const d = new Date(ms);
  return `${secondsPart(d)}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}
