import { test } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture } from '../../support/fixtures.js';
import {
  addPeriods,
  inferInterval,
  parseLogical,
  periodsBetween,
  periodStart,
  prepareSeries,
  seasonalPeriods,
  weekStartOf,
  type Interval,
} from '../../../src/ml/timeseries/prepare.js';

const utc = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

test('periodStart truncates in UTC, weeks starting on Monday', () => {
  const t = utc('2024-03-03T17:45:12.345Z'); // a Sunday
  const expected: Record<Interval, string> = {
    hour: '2024-03-03T17:00:00.000Z',
    day: '2024-03-03T00:00:00.000Z',
    week: '2024-02-26T00:00:00.000Z',
    month: '2024-03-01T00:00:00.000Z',
    quarter: '2024-01-01T00:00:00.000Z',
    year: '2024-01-01T00:00:00.000Z',
  };
  for (const [interval, start] of Object.entries(expected)) assert.equal(iso(periodStart(t, interval as Interval)), start, interval);
  // A Monday is its own week start; dates before 1970 work the same way.
  assert.equal(iso(periodStart(utc('2024-02-26T00:00:00Z'), 'week')), '2024-02-26T00:00:00.000Z');
  assert.equal(iso(periodStart(utc('1969-12-31T12:00:00Z'), 'week')), '1969-12-29T00:00:00.000Z');
});

test('timestamps with a UTC offset land in their UTC period', () => {
  // 23:30 at UTC−5 on 31 March is 04:30 UTC on 1 April.
  const t = utc('2024-03-31T23:30:00-05:00');
  assert.equal(iso(periodStart(t, 'hour')), '2024-04-01T04:00:00.000Z');
  assert.equal(iso(periodStart(t, 'day')), '2024-04-01T00:00:00.000Z');
  assert.equal(iso(periodStart(t, 'month')), '2024-04-01T00:00:00.000Z');
  // 00:30 at UTC+2 on 1 January is still the previous year in UTC.
  assert.equal(iso(periodStart(utc('2025-01-01T00:30:00+02:00'), 'year')), '2024-01-01T00:00:00.000Z');
});

test('addPeriods clamps month ends and handles leap years', () => {
  assert.equal(iso(addPeriods(utc('2024-01-31T10:00:00Z'), 'month', 1)), '2024-02-29T10:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2023-01-31T00:00:00Z'), 'month', 1)), '2023-02-28T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-03-31T00:00:00Z'), 'month', -1)), '2024-02-29T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-11-30T00:00:00Z'), 'month', 3)), '2025-02-28T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-02-29T00:00:00Z'), 'year', 1)), '2025-02-28T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-02-29T00:00:00Z'), 'year', 4)), '2028-02-29T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-02-28T00:00:00Z'), 'day', 1)), '2024-02-29T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-02-26T00:00:00Z'), 'week', 1)), '2024-03-04T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-12-31T23:00:00Z'), 'hour', 2)), '2025-01-01T01:00:00.000Z');
  assert.throws(() => addPeriods(0, 'day', 0.5), RangeError);
});

test('periodsBetween counts period boundaries, signed', () => {
  assert.equal(periodsBetween(utc('2023-11-30T00:00:00Z'), utc('2024-02-01T00:00:00Z'), 'month'), 3);
  assert.equal(periodsBetween(utc('2024-02-01T00:00:00Z'), utc('2023-11-30T00:00:00Z'), 'month'), -3);
  assert.equal(periodsBetween(utc('2024-01-01T00:00:00Z'), utc('2024-12-31T00:00:00Z'), 'day'), 365); // leap year
  assert.equal(periodsBetween(utc('2024-03-03T00:00:00Z'), utc('2024-03-04T00:00:00Z'), 'week'), 1); // Sun → Mon
  assert.equal(periodsBetween(utc('2024-03-04T00:00:00Z'), utc('2024-03-10T23:00:00Z'), 'week'), 0);
  assert.equal(periodsBetween(utc('1999-12-31T23:59:59Z'), utc('2000-01-01T00:00:00Z'), 'year'), 1);
  assert.equal(periodsBetween(utc('2024-03-10T00:59:00Z'), utc('2024-03-10T02:00:00Z'), 'hour'), 2);
});

test('seasonalPeriods: main cycle per interval, extra cycles only when covered twice', () => {
  assert.deepEqual(seasonalPeriods('hour'), { main: 24, extra: [168] });
  assert.deepEqual(seasonalPeriods('hour', 200), { main: 24, extra: [] });
  assert.deepEqual(seasonalPeriods('day', 3 * 365), { main: 7, extra: [365] });
  assert.deepEqual(seasonalPeriods('day', 400), { main: 7, extra: [] });
  assert.deepEqual(seasonalPeriods('week'), { main: 52, extra: [] });
  assert.deepEqual(seasonalPeriods('month'), { main: 12, extra: [] });
  assert.deepEqual(seasonalPeriods('year'), { main: 1, extra: [] });
});

test('quarters: calendar quarters from January, moved and counted like months in threes', () => {
  assert.equal(iso(periodStart(utc('2024-05-20T10:00:00Z'), 'quarter')), '2024-04-01T00:00:00.000Z');
  assert.equal(iso(periodStart(utc('2024-12-31T23:00:00Z'), 'quarter')), '2024-10-01T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-10-01T00:00:00Z'), 'quarter', 1)), '2025-01-01T00:00:00.000Z');
  assert.equal(iso(addPeriods(utc('2024-01-01T00:00:00Z'), 'quarter', -3)), '2023-04-01T00:00:00.000Z');
  assert.equal(periodsBetween(utc('2023-02-15T00:00:00Z'), utc('2024-12-01T00:00:00Z'), 'quarter'), 7);
  assert.equal(seasonalPeriods('quarter').main, 4);
  assert.equal(inferInterval([utc('2020-01-01T00:00:00Z'), utc('2020-04-01T00:00:00Z'), utc('2020-07-01T00:00:00Z'), utc('2020-10-01T00:00:00Z')]), 'quarter');
});

test('inferInterval picks the interval closest to the median spacing', () => {
  const monthly = Array.from({ length: 30 }, (_, i) => addPeriods(utc('2023-01-31T00:00:00Z'), 'month', i));
  assert.equal(inferInterval(monthly), 'month');
  assert.equal(inferInterval([utc('1970-01-01T00:00:00Z'), utc('1971-01-01T00:00:00Z'), utc('1972-01-01T00:00:00Z')]), 'year');
  assert.equal(inferInterval([0, 3_600_000, 7_200_000, 1e9]), 'hour');
  assert.throws(() => inferInterval([5, 5]), RangeError);
});

test('prepareSeries aggregates each column into its period and imputes empty periods', () => {
  // Unordered rows over four days with an empty day (2024-02-28) in between; leap day included.
  const ts = ['2024-02-29T08:00:00Z', '2024-02-27T01:00:00Z', '2024-02-27T23:59:59Z', '2024-02-29T20:00:00Z', '2024-02-27T12:00:00Z', '2024-03-01T00:00:00Z'].map(utc);
  const v = [4, 1, 3, 6, 3, 10];
  const run = (aggregation: 'sum' | 'mean' | 'median' | 'mode' | 'min' | 'max', imputation?: 'zeroes' | 'mean' | 'median' | 'mode' | 'min' | 'max') =>
    Array.from(prepareSeries(ts, [{ name: 'v', values: v, aggregation, imputation }], 'day').columns[0].values);
  const prepared = prepareSeries(ts, [{ name: 'v', values: v }], 'day');
  assert.deepEqual(Array.from(prepared.timestamps, iso), [
    '2024-02-27T00:00:00.000Z',
    '2024-02-28T00:00:00.000Z',
    '2024-02-29T00:00:00.000Z',
    '2024-03-01T00:00:00.000Z',
  ]);
  assert.deepEqual(Array.from(prepared.columns[0].values), [7, 0, 10, 10]); // default: sum, gaps → zeroes
  assert.equal(prepared.columns[0].imputed, 1);
  assert.deepEqual(run('mean'), [7 / 3, 0, 5, 10]);
  assert.deepEqual(run('median'), [3, 0, 4, 10]); // even count → lower middle value
  assert.deepEqual(run('mode'), [3, 0, 4, 10]); // tie → smallest
  assert.deepEqual(run('min', 'max'), [1, 10, 4, 10]);
  assert.deepEqual(run('max', 'min'), [3, 3, 6, 10]);
  assert.deepEqual(run('sum', 'mean'), [7, 9, 10, 10]);
  assert.deepEqual(run('sum', 'median'), [7, 10, 10, 10]);
  assert.deepEqual(run('sum', 'mode'), [7, 10, 10, 10]);
});

test('prepareSeries builds monthly, weekly, hourly and yearly grids', () => {
  const monthly = prepareSeries([utc('2023-12-31T23:00:00Z'), utc('2024-03-15T00:00:00Z')], [{ name: 'x', values: [1, 2] }], 'month');
  assert.deepEqual(Array.from(monthly.timestamps, iso), ['2023-12-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
  assert.deepEqual(Array.from(monthly.columns[0].values), [1, 0, 0, 2]);

  const weekly = prepareSeries([utc('2024-03-03T10:00:00Z'), utc('2024-03-04T10:00:00Z')], [{ name: 'x', values: [1, 2] }], 'week');
  assert.deepEqual(Array.from(weekly.timestamps, iso), ['2024-02-26T00:00:00.000Z', '2024-03-04T00:00:00.000Z']);

  const hourly = prepareSeries([utc('2024-03-10T01:10:00Z'), utc('2024-03-10T01:50:00Z'), utc('2024-03-10T03:00:00Z')], [{ name: 'x', values: [1, 2, 3], aggregation: 'max' }], 'hour');
  assert.deepEqual(Array.from(hourly.columns[0].values), [2, 0, 3]);

  const yearly = prepareSeries([utc('2020-06-01T00:00:00Z'), utc('2022-01-01T00:00:00Z'), NaN], [{ name: 'x', values: [5, 7, 100] }], 'year');
  assert.deepEqual(Array.from(yearly.timestamps, iso), ['2020-01-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z', '2022-01-01T00:00:00.000Z']);
  assert.deepEqual(Array.from(yearly.columns[0].values), [5, 0, 7]);
});

test('missing values: numeric cells are skipped, logical empty cells are FALSE', () => {
  const ts = [utc('2024-01-01T00:00:00Z'), utc('2024-01-01T05:00:00Z'), utc('2024-01-02T00:00:00Z')];
  const prepared = prepareSeries(
    ts,
    [
      { name: 'num', values: [NaN, 4, NaN], aggregation: 'mean', imputation: 'mean' },
      { name: 'flag', values: ['TRUE', '', ''].map(parseLogical), logical: true, aggregation: 'mean' },
      { name: 'flagNaN', values: [1, NaN, NaN], logical: true, aggregation: 'max' },
    ],
    'day',
  );
  assert.deepEqual(Array.from(prepared.columns[0].values), [4, 4]); // day 2 has no value → column mean
  assert.deepEqual(Array.from(prepared.columns[1].values), [0.5, 0]);
  assert.deepEqual(Array.from(prepared.columns[2].values), [1, 0]);
  assert.deepEqual(['true', 'TRUE', '1', 'yes', true, 'false', '', null, undefined, false].map(parseLogical), [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
});

test('real data: half-hourly NYC taxi counts aggregate to hourly and daily sums', () => {
  const table = readFixture('anomaly/nab/realKnownCause/nyc_taxi.csv');
  const ts = column(table, 'timestamp').map((s) => Date.parse(`${s.replace(' ', 'T')}Z`));
  const values = column(table, 'value').map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  assert.equal(inferInterval(ts), 'hour'); // 30-minute spacing is nearer an hour than a day
  const hourly = prepareSeries(ts, [{ name: 'value', values }], 'hour');
  const daily = prepareSeries(ts, [{ name: 'value', values }], 'day');
  assert.equal(hourly.timestamps.length, Math.round((periodStart(ts[ts.length - 1], 'hour') - periodStart(ts[0], 'hour')) / 3_600_000) + 1);
  assert.equal(hourly.timestamps.length, values.length / 2);
  assert.equal(hourly.columns[0].values[0], values[0] + values[1]);
  assert.equal(daily.timestamps.length, values.length / 48);
  assert.equal(daily.columns[0].values.reduce((a, b) => a + b, 0), total);
  assert.equal(daily.columns[0].imputed, 0);
});

test('weekStartOf: the weekday most dates fall on, Monday for dates spread over the week', () => {
  const sundays = Array.from({ length: 20 }, (_, k) => utc('2024-01-07T00:00:00Z') + k * 7 * 86_400_000);
  assert.equal(weekStartOf(sundays), 0);
  // One row keyed on the Wednesday after its Sunday does not move the series to Mondays.
  assert.equal(weekStartOf([...sundays.slice(0, 10), sundays[10]! + 3 * 86_400_000, ...sundays.slice(11)]), 0);
  const days = Array.from({ length: 28 }, (_, k) => utc('2024-01-07T00:00:00Z') + k * 86_400_000);
  assert.equal(weekStartOf(days), 1);
  // Two reports a week, Sundays and Wednesdays: no weekday of its own.
  assert.equal(weekStartOf(sundays.flatMap((t) => [t, t + 3 * 86_400_000])), 1);
  assert.equal(weekStartOf([]), 1);
});
