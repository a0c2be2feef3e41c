import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { mulberry32 } from '../support/random.js';

/**
 * Resampling to each result interval, on series whose period totals are known: the forecast of an
 * aggregated series must land near the known totals (sums by default, means when the metadata says so),
 * and empty periods are imputed as the column's metadata says (zeroes by default).
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Four weeks of hourly readings 10 + 5·sin(2πh/24) ± 0.5 from Monday 2017-01-02: each day sums to 240 ± noise. */
function hourly(): { time: string; load: string }[] {
  const rand = mulberry32(7);
  return Array.from({ length: 28 * 24 }, (_, h) => ({
    time: new Date(Date.UTC(2017, 0, 2) + h * HOUR_MS).toISOString(),
    load: (10 + 5 * Math.sin((2 * Math.PI * h) / 24) + (rand() - 0.5)).toFixed(3),
  }));
}

/** Five years (2017–2021) of daily values 10 ± 1, with no rows on Sundays. */
function dailyWithoutSundays(): { day: string; units: string }[] {
  const rand = mulberry32(11);
  const rows: { day: string; units: string }[] = [];
  for (let t = Date.UTC(2017, 0, 1); t <= Date.UTC(2021, 11, 31); t += DAY_MS) {
    const value = (10 + 2 * (rand() - 0.5)).toFixed(3);
    if (new Date(t).getUTCDay() !== 0) rows.push({ day: new Date(t).toISOString().slice(0, 10), units: value });
  }
  return rows;
}

async function forecastRows(s: TestServer, body: Record<string, unknown>): Promise<{ session: any; rows: Record<string, string>[] }> {
  const created = await s.call('POST', '/v1/sessions/forecast', { json: body });
  assert.equal(created.status, 200, created.text);
  const id = created.json.sessionId;
  await completedSession(s, id);
  const r = await s.call('GET', `/v1/sessions/${id}/results?pageSize=1000`);
  return { session: r.json, rows: r.json.data };
}

function near(actual: number, expected: number, relTol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= relTol * Math.abs(expected), `${what}: ${actual} is not within ${relTol * 100} % of ${expected}`);
}

for (const backend of await backends()) {
  describe(`forecast resampling to each result interval over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      // Decimals would be inferred numericMeasure (mean/mean): declared numeric, the columns sum and impute zeroes.
      const meter = await s.call('PUT', '/v1/data/meter?timestampColumn=time', { json: { data: hourly(), columns: { load: { dataType: 'numeric' } } } });
      assert.equal(meter.status, 201);
      assert.deepEqual(meter.json.columns.load, { dataType: 'numeric', role: 'target', imputation: 'zeroes', aggregation: 'sum' });
      assert.equal((await s.call('PUT', '/v1/data/shop?timestampColumn=day', { json: { data: dailyWithoutSundays(), columns: { units: { dataType: 'numeric' } } } })).status, 201);
    });
    after(async () => { await s.close(); });

    it('Hour: hourly periods following the daily cycle', async () => {
      const { rows } = await forecastRows(s, { dataSourceName: 'meter', targetColumn: 'load', resultInterval: 'hour', startDate: '2017-01-29T00:00:00Z', endDate: '2017-01-29T23:00:00Z' });
      assert.equal(rows.length, 24);
      assert.equal(rows[1]!.time, '2017-01-29T01:00:00.0000000Z');
      rows.forEach((r, h) => assert.ok(Math.abs(Number(r.load) - (10 + 5 * Math.sin((2 * Math.PI * h) / 24))) < 1.5, `hour ${h}: ${r.load}`));
    });

    it('Day from hourly data: daily sums, or daily means when the aggregation is mean', async () => {
      const sums = await forecastRows(s, { dataSourceName: 'meter', targetColumn: 'load', resultInterval: 'Day', startDate: '2017-01-29', endDate: '2017-02-04' });
      assert.equal(sums.rows.length, 7);
      assert.equal(sums.rows[0]!.time, '2017-01-29T00:00:00.0000000Z');
      for (const r of sums.rows) near(Number(r.load), 240, 0.03, 'daily sum');
      const means = await forecastRows(s, { dataSourceName: 'meter', targetColumn: 'load', resultInterval: 'day', startDate: '2017-01-29', endDate: '2017-02-04', columns: { load: { aggregation: 'mean' } } });
      assert.equal(means.session.columns.load.aggregation, 'mean');
      for (const r of means.rows) near(Number(r.load), 10, 0.03, 'daily mean');
    });

    it('Week from hourly data: weeks start on Monday and sum 168 hours', async () => {
      const { rows } = await forecastRows(s, { dataSourceName: 'meter', targetColumn: 'load', resultInterval: 2, startDate: '2017-01-23', endDate: '2017-02-05' });
      assert.deepEqual(rows.map((r) => r.time), ['2017-01-23T00:00:00.0000000Z', '2017-01-30T00:00:00.0000000Z']);
      for (const r of rows) near(Number(r.load), 1680, 0.03, 'weekly sum');
    });

    it('Day with missing Sundays: zeroes by default, the mean when the imputation says so', async () => {
      const zero = await forecastRows(s, { dataSourceName: 'shop', targetColumn: 'units', startDate: '2021-12-27', endDate: '2022-01-09' });
      const sunday = (rows: Record<string, string>[]) => rows.filter((r) => new Date(r.day!).getUTCDay() === 0).map((r) => Number(r.units));
      const weekday = (rows: Record<string, string>[]) => rows.filter((r) => new Date(r.day!).getUTCDay() !== 0).map((r) => Number(r.units));
      for (const v of sunday(zero.rows)) assert.ok(Math.abs(v) < 1, `imputed Sundays are zero: ${v}`);
      for (const v of weekday(zero.rows)) near(v, 10, 0.1, 'weekday');
      const mean = await forecastRows(s, { dataSourceName: 'shop', targetColumn: 'units', startDate: '2021-12-27', endDate: '2022-01-09', columns: { units: { imputation: 'mean' } } });
      for (const v of sunday(mean.rows)) near(v, 10, 0.1, 'Sunday imputed with the mean');
    });

    it('Month and Year from daily data: calendar periods totalling the days that have rows', async () => {
      // Aggregation comes first: a month or year always has rows, so the missing Sundays are not imputed.
      const expected = (from: number, to: number) => 10 * Array.from({ length: (to - from) / DAY_MS }, (_, d) => new Date(from + d * DAY_MS).getUTCDay()).filter((w) => w !== 0).length;
      const month = await forecastRows(s, { dataSourceName: 'shop', targetColumn: 'units', resultInterval: 'month', startDate: '2021-12-01', endDate: '2022-02-01', columns: { units: { imputation: 'mean' } } });
      assert.deepEqual(month.rows.map((r) => r.day), ['2021-12-01T00:00:00.0000000Z', '2022-01-01T00:00:00.0000000Z', '2022-02-01T00:00:00.0000000Z']);
      const bounds = [Date.UTC(2021, 11, 1), Date.UTC(2022, 0, 1), Date.UTC(2022, 1, 1), Date.UTC(2022, 2, 1)];
      // The number of Sundays in a month (4 or 5) is not predictable from the totals alone: 10 % tolerance.
      month.rows.forEach((r, k) => near(Number(r.units), expected(bounds[k]!, bounds[k + 1]!), 0.1, `total of ${r.day}`));
      const year = await forecastRows(s, { dataSourceName: 'shop', targetColumn: 'units', resultInterval: 'YEAR', startDate: '2021-01-01', endDate: '2022-01-01' });
      assert.equal(year.session.resultInterval, 'year');
      assert.deepEqual(year.rows.map((r) => r.day), ['2021-01-01T00:00:00.0000000Z', '2022-01-01T00:00:00.0000000Z']);
      for (const r of year.rows) near(Number(r.units), expected(Date.UTC(2021, 0, 1), Date.UTC(2022, 0, 1)), 0.03, `total of ${r.day}`);
    });
  });
}
