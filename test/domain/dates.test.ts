import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIsoMillis, formatOffset, formatStoredTimestamp, isYearName, looksLikeDate, parseDate, parseTimestamp, writtenOffsetMs } from '../../src/domain/dates.js';

const utc = (...a: [number, number, number, number?, number?, number?, number?]) =>
  Date.UTC(a[0], a[1] - 1, a[2], a[3] ?? 0, a[4] ?? 0, a[5] ?? 0, a[6] ?? 0);

test('every client date format of compat §2.2 parses, zone-less input as UTC', () => {
  const cases: [string, number][] = [
    ['06-01-2017', utc(2017, 6, 1)], // JS tests, en-US month first
    ['06-29-2017', utc(2017, 6, 29)], // post-session-forecast cassette
    ['1-01-2017', utc(2017, 1, 1)],
    ['01/01/2017 00:00:00', utc(2017, 1, 1)], // PowerShell
    ['2017-06-01', utc(2017, 6, 1)],
    ['2008-09-01 00:00:00', utc(2008, 9, 1)], // Python str(datetime)
    ['2017-01-01T00:00:00', utc(2017, 1, 1)],
    ['2017-01-01T05:30:00+0000', utc(2017, 1, 1, 5, 30)], // Python %z
    ['2017-01-01T05:30:00+00:00', utc(2017, 1, 1, 5, 30)],
    ['2017-01-01T00:00:00.000Z', utc(2017, 1, 1)], // JS toISOString
    ['2017-01-01T00:00:00.0000000+00:00', utc(2017, 1, 1)], // .NET "O"
    ['2017-04-01T00:00:00.0000000Z', utc(2017, 4, 1)], // stored form in the JS cassettes
    ['2017-12-15T20:33:15.385257+00:00', utc(2017, 12, 15, 20, 33, 15, 385)],
    ['1993-09', utc(1993, 9, 1)], // YYYY-MM (sample-js-bigfoot)
    ['7/4/2008 4:00:00 AM', utc(2008, 7, 4, 4)], // .NET en-US culture output
    ['7/4/2008 12:00:00 AM', utc(2008, 7, 4, 0)],
    ['7/4/2008 4:00:00 PM', utc(2008, 7, 4, 16)],
    ['2013-07-04T01:00:00', utc(2013, 7, 4, 1)], // NAB
    ['2017/06/01', utc(2017, 6, 1)],
    ['  2017-06-01 ', utc(2017, 6, 1)],
  ];
  for (const [s, expected] of cases) assert.equal(parseDate(s), expected, s);
});

test('month names as R, Excel and US spreadsheets write them (and en-US DateTime.Parse read them)', () => {
  const jan13 = Date.UTC(2017, 0, 13);
  for (const s of ['13-Jan-2017', '13 Jan 2017', '13 January 2017', '13-jan-2017', 'Jan 13, 2017', 'January 13, 2017', 'Jan. 13 2017']) assert.equal(parseDate(s), jan13, s);
  assert.equal(parseDate('Sept 1, 2017'), Date.UTC(2017, 8, 1));
  assert.equal(parseDate('13-Jan-2017 15:30'), Date.UTC(2017, 0, 13, 15, 30));
  assert.equal(parseDate('13-Jan-17'), jan13, "Excel's d-mmm-yy");
  assert.equal(parseDate('1-Mar-49'), Date.UTC(2049, 2, 1));
  assert.equal(parseDate('1-Mar-50'), Date.UTC(1950, 2, 1));
  for (const s of ['31-Feb-2017', '13-Foo-2017', 'Mayday 3, 2017', '13-Jan-017', 'Jan 13, 17']) assert.equal(parseDate(s), null, s);
});

test('months and quarters as monthly and quarterly series are written (R yearmon/yearqtr, pandas periods, Excel mmm-yy): their first day', () => {
  const cases: [string, string][] = [['Jan 2017', '2017-01-01'], ['January 2017', '2017-01-01'], ['Sept 2017', '2017-09-01'], ['Jan-17', '2017-01-01'], ['Dec-1999', '1999-12-01'],
    ['01/2017', '2017-01-01'], ['7/2017', '2017-07-01'], ['2017Q1', '2017-01-01'], ['2017 Q4', '2017-10-01'], ['2017-Q2', '2017-04-01'], ['q3 2017', '2017-07-01']];
  for (const [s, iso] of cases) assert.equal(parseDate(s), Date.parse(`${iso}T00:00:00Z`), s);
  for (const s of ['May 17', 'Foo 2017', 'Q5 2017', '2017Q0', '13/2017', '2017 Q', 'Q1']) assert.equal(parseDate(s), null, s);
});

test('offsets are applied and sub-millisecond digits truncated, not rounded', () => {
  assert.equal(parseDate('2017-01-01T00:00:00-05:00'), utc(2017, 1, 1, 5));
  assert.equal(parseDate('2017-01-01T00:00:00+0530'), utc(2016, 12, 31, 18, 30));
  assert.equal(parseDate('2017-01-01T00:00:00+01'), utc(2016, 12, 31, 23));
  assert.equal(parseDate('2017-01-01T23:59:59.9999999Z'), utc(2017, 1, 1, 23, 59, 59, 999));
});

test('impossible or non-date strings are rejected', () => {
  for (const s of ['', '2017', '20170101', '13-01-2017', '02-30-2017', '2017-02-29', '2017-13', '2017-01-01T24:00:00',
    '7/4/2008 13:00:00 PM', 'yesterday', '1.5', '2017-01-01T00:00:00+', 'abc-de-fghi']) {
    assert.equal(parseDate(s), null, s);
  }
  assert.equal(parseDate('2016-02-29'), utc(2016, 2, 29), 'leap day');
});

test('looksLikeDate: date strings only, never plain numbers', () => {
  assert.ok(looksLikeDate('2017-06-01'));
  assert.ok(looksLikeDate('06-01-2017'));
  for (const v of ['2017', '20170101', 2017, 20170101, true, null, 'Crew']) assert.ok(!looksLikeDate(v), String(v));
});

test('formatters write the wire forms', () => {
  const t = utc(2017, 6, 29);
  assert.equal(formatOffset(t), '2017-06-29T00:00:00+00:00');
  assert.equal(formatOffset(utc(2017, 12, 15, 20, 33, 15, 380)), '2017-12-15T20:33:15.38+00:00');
  assert.equal(formatStoredTimestamp(utc(2017, 4, 1)), '2017-04-01T00:00:00.0000000Z');
  assert.equal(formatStoredTimestamp(utc(2017, 4, 1, 1, 2, 3, 45)), '2017-04-01T01:02:03.0450000Z');
  assert.equal(formatIsoMillis(t), '2017-06-29T00:00:00.000Z');
  assert.equal(formatIsoMillis(t), new Date(t).toISOString());
});

test('formatting then parsing is the identity', () => {
  for (const ms of [utc(1871, 1, 1), utc(2017, 6, 29, 13, 45, 7, 123), utc(2100, 12, 31, 23, 59, 59, 999)]) {
    assert.equal(parseDate(formatOffset(ms)), ms);
    assert.equal(parseDate(formatStoredTimestamp(ms)), ms);
    assert.equal(parseDate(formatIsoMillis(ms)), ms);
  }
});

test('a column declared as dates may hold bare years and Unix times (parseTimestamp), which inference never takes for dates (parseDate)', () => {
  assert.equal(parseTimestamp('1871'), Date.UTC(1871, 0, 1));
  assert.equal(parseTimestamp(' 2017 '), Date.UTC(2017, 0, 1));
  assert.equal(parseTimestamp('2017-01-13'), Date.UTC(2017, 0, 13), 'and every format parseDate reads');
  for (const s of ['1871', '2017']) assert.equal(parseDate(s), null, s);
  for (const s of ['187', '18710', '1871.0', '-1871', '12345678', '12345678901', '12345678901234']) assert.equal(parseTimestamp(s), null, s);
  assert.equal(parseTimestamp('1404172800'), Date.UTC(2014, 6, 1), 'Unix seconds');
  assert.equal(parseTimestamp('1404172800000'), Date.UTC(2014, 6, 1), 'Unix milliseconds');
  assert.equal(parseDate('1404172800'), null);
  for (const name of ['year', 'Year', 'YEAR', 'yr', 'fiscal_year', 'Fiscal Year', 'birth.year']) assert.ok(isYearName(name), name);
  for (const name of ['years_of_service', 'yearly', 'foyer', 'Yearbook']) assert.ok(!isYearName(name), name);
});

test('writtenOffsetMs: the UTC offset written after a time of day, 0 for Z, none, or a date alone', () => {
  assert.equal(writtenOffsetMs('2008-07-01T00:00:00+02:00'), 2 * 3_600_000);
  assert.equal(writtenOffsetMs('2008-07-01 00:00:00-0530'), -5.5 * 3_600_000);
  assert.equal(writtenOffsetMs('2008-07-01T00:00:00.1234567-05'), -5 * 3_600_000);
  assert.equal(writtenOffsetMs('7/1/2008 12:00 AM +01:00'), 3_600_000);
  assert.equal(writtenOffsetMs('2008-07-01T00:00:00Z'), 0);
  assert.equal(writtenOffsetMs('2008-07-01T00:00:00'), 0);
  // A date alone ends in digits after a hyphen, which are its day, not an offset.
  assert.equal(writtenOffsetMs('2008-07-01'), 0);
  assert.equal(writtenOffsetMs('06-01-2017'), 0);
});
