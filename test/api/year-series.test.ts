/**
 * Timestamps written as numbers. A yearly series written with bare years (year,count / 1860,5), as
 * R's data frames and statistics offices write it: the upload says the years are numbers and how to
 * use them; a session that declares the column its timestamp reads each year as 1 January, as does an
 * upload that declares it; and a timestamp column holding no date is named as such, not as a target
 * without values. Unix times declared the timestamp are read as seconds (or milliseconds).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** R datasets' discoveries: great inventions and discoveries per year, 1860–1959. */
const rows = readFixture('forecast', 'rdatasets', 'discoveries.csv').rows;
const byYear = ['year,discoveries', ...rows.map(([date, v]) => `${date!.slice(0, 4)},${v}`)].join('\n') + '\n';
const csv = { headers: { 'content-type': 'text/csv' } };

for (const backend of await backends()) {
  describe(`a yearly series written with bare years (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('the upload says the years are numbers; a forecast names the column, and with it as timestamp forecasts by year', async () => {
      const up = await s.call('PUT', '/v1/data/discoveries', { body: byYear, ...csv });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.isTimeSeries, false);
      assert.equal(up.json.columns.year.dataType, 'numeric');
      assert.match(up.json.messages[0].message, /^Column 'year' holds whole numbers rising from row to row, as years are written: .* give 'year' role timestamp in the data set's column metadata or in the session's columns; or delete the data set and upload it again with timestampColumn=year/);

      const refused = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'discoveries', targetColumn: 'discoveries', startDate: '1960-01-01', endDate: '1964-01-01' } });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(refused.json.errorDetails.columns, ["data set 'discoveries' has no timestamp column: if its column 'year' holds years, give it role timestamp in the session's columns (each year is read as 1 January)"]);

      const forecast = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'discoveries', targetColumn: 'discoveries', startDate: '1960-01-01', endDate: '1964-01-01', columns: { year: { role: 'timestamp' } } } });
      assert.equal(forecast.status, 200, forecast.text);
      assert.equal(forecast.json.resultInterval, 'year');
      assert.equal(forecast.json.columns.year.dataType, 'date', 'declaring the timestamp declares dates');
      const done = await completedSession(s, forecast.json.sessionId);
      // Five years forecast: the test metrics rest on a holdout of the last five, and the session says what that is worth.
      assert.ok(done.messages.some((m: any) => /^The test metrics compare the last 5 years of the data with a forecast of them .* rSquared says little/.test(m.message)), JSON.stringify(done.messages));
      const result = (await s.call('GET', `/v1/sessions/${forecast.json.sessionId}/results`)).json.data;
      assert.deepEqual(result.map((r: any) => r.year.slice(0, 10)), ['1960-01-01', '1961-01-01', '1962-01-01', '1963-01-01', '1964-01-01']);
      assert.ok(result.every((r: any) => Number(r.discoveries) > 0 && Number(r.discoveries) < 8), JSON.stringify(result));
    });

    it('an upload declaring years its timestamp (CSV timestampColumn, JSON role) makes a time series of 1 Januaries', async () => {
      const up = await s.call('PUT', '/v1/data/discoveries-ts?timestampColumn=year', { body: byYear, ...csv });
      assert.equal(up.status, 201, up.text);
      assert.deepEqual([up.json.isTimeSeries, up.json.rowCount, up.json.columns.year, up.json.columns.discoveries.role], [true, 100, { dataType: 'date', role: 'timestamp' }, 'target']);
      const json = await s.call('PUT', '/v1/data/discoveries-json', { json: { columns: { year: { role: 'timestamp' } }, data: [{ year: 1860, discoveries: 5 }, { year: 1861, discoveries: 3 }] } });
      assert.equal(json.status, 201, json.text);
      assert.deepEqual([json.json.isTimeSeries, json.json.columns.year.dataType], [true, 'date']);
      const read = await s.call('GET', '/v1/data/discoveries-json?formatDates=true');
      assert.deepEqual(read.json.data.map((r: any) => r.year), ['1860-01-01T00:00:00.0000000Z', '1861-01-01T00:00:00.0000000Z']);
    });

    it('Unix times declared the timestamp are read as such (seconds, as logs write them)', async () => {
      const taxi = readFixture('anomaly', 'nab', 'realKnownCause', 'nyc_taxi.csv').rows.slice(0, 96);
      const body = ['time,rides', ...taxi.map(([t, v]) => `${Date.parse(`${t}Z`) / 1000},${v}`)].join('\n') + '\n';
      const up = await s.call('PUT', '/v1/data/rides?timestampColumn=time', { body, ...csv });
      assert.equal(up.status, 201, up.text);
      assert.deepEqual([up.json.isTimeSeries, up.json.rowCount, up.json.columns.rides.role], [true, 96, 'target']);
      const first = (await s.call('GET', '/v1/data/rides?pageSize=1&formatDates=true')).json.data[0];
      assert.equal(first.time, '2014-07-01T00:00:00.0000000Z');
    });

    it('a timestamp column that holds no date is a 400 naming it, not the target', async () => {
      const up = await s.call('PUT', '/v1/data/codes', { body: 'period,value\n' + Array.from({ length: 12 }, (_, i) => `P${i + 1},${i * 3}`).join('\n') + '\n', ...csv });
      assert.equal(up.status, 201, up.text);
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'codes', targetColumn: 'value', columns: { period: { role: 'timestamp' } } } });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(Object.keys(r.json.errorDetails), ['period']);
      assert.match(r.json.errorDetails.period[0], /^column 'period' holds no date Sibyl reads: write its dates as ISO 8601/);
    });
  });
}
