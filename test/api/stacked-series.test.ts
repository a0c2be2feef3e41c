/**
 * Dates that repeat: several series stacked in one table (a date, a column naming the series, the
 * value), as a long-format export writes them, and local clock times that repeat an hour. The upload
 * says why its date column is not the timestamp, a timestamp declared on such rows keeps one row per
 * date and says how many it dropped, one declared once rows are stored is refused (they would be
 * appended), and a session told to use the dates says that it combines the rows of each period.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** fpp2 elecdaily: Victoria's daily electricity demand and temperature in 2014, one row per date and series. */
function stacked(): string {
  const demand = readFixture('forecast', 'fpp2', 'elecdaily_Demand.csv').rows;
  const temperature = readFixture('forecast', 'fpp2', 'elecdaily_Temperature.csv').rows;
  const lines = ['date,series,value'];
  demand.forEach(([date, value], i) => lines.push(`${date},Demand,${value}`, `${date},Temperature,${temperature[i]![1]}`));
  return lines.join('\n') + '\n';
}

/**
 * elecdaily's demand figures as hourly readings written in Melbourne's local clock time without an
 * offset, as meter exports write them: clocks went back on 6 April 2014, so 02:00 appears twice.
 */
function localClockTimes(): string {
  const demand = readFixture('forecast', 'fpp2', 'elecdaily_Demand.csv').rows;
  const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Australia/Melbourne', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const start = Date.UTC(2014, 3, 4, 14);
  return ['time,demand', ...demand.map(([, v], i) => `${local.format(new Date(start + i * 3_600_000))},${v}`)].join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`several series stacked in one table (${backend})`, () => {
    let s: TestServer;
    const csv = { headers: { 'content-type': 'text/csv' } };
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('the upload says why its date column is not the timestamp; a forecast names it, and with it as timestamp combines each period, saying so', async () => {
      const up = await s.call('PUT', '/v1/data/elec', { body: stacked(), ...csv });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.isTimeSeries, false);
      assert.equal(up.json.rowCount, 730);
      assert.deepEqual(up.json.messages.map((m: any) => m.message.split('. ')[0]), ["Column 'date' holds dates, but rows share its dates (365 dates in 730 rows), so it is not the data set's timestamp and the data set is not a time series"]);

      const refused = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'elec', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-07' } });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(refused.json.errorDetails.columns, ["data set 'elec' has no timestamp column: give its date column 'date' role timestamp in the session's columns; rows that share a period are then combined with each column's aggregation"]);

      const combined = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'elec', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-07', resultInterval: 'day', columns: { date: { role: 'timestamp' } } } });
      assert.equal(combined.status, 200, combined.text);
      assert.deepEqual(combined.json.messages, [{ severity: 'informational', message: "Rows of data set 'elec' share their timestamps (2 values of 'value' per timestamp): each period combines them by the target's aggregation, mean. If they are several series, one per value of another column, a session on one of them needs a data set of its own." }]);
    });

    it('a timestamp declared on such rows keeps the last row of each date and says how many were dropped; rows with distinct dates say nothing', async () => {
      const up = await s.call('PUT', '/v1/data/elec-by-date?timestampColumn=date', { body: stacked(), ...csv });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.rowCount, 365);
      assert.equal(up.json.messages.length, 1, up.text);
      assert.equal(up.json.messages[0].severity, 'warning');
      assert.match(up.json.messages[0].message, /^365 of the 730 rows sent repeat the timestamp \('date'\) of a row sent after them\. .* the last row sent for each of the 365 timestamps was kept\./);
      const first = (await s.call('GET', '/v1/data/elec-by-date?pageSize=1')).json.data[0];
      assert.deepEqual([first.series, Number(first.value)], ['Temperature', 26]);

      const single = readFixture('forecast', 'fpp2', 'elecdaily_Demand.csv');
      const one = await s.call('PUT', '/v1/data/demand?timestampColumn=date', { body: ['date,value', ...single.rows.map((r) => r.join(','))].join('\n'), ...csv });
      assert.equal(one.status, 201, one.text);
      assert.deepEqual([one.json.rowCount, one.json.messages], [365, []]);
    });

    it('an hour repeated by the end of daylight saving time is named as such; declaring the timestamp afterwards is refused, changing nothing', async () => {
      const body = localClockTimes();
      assert.equal(body.split('\n').filter((l) => l.startsWith('2014-04-06 02:00')).length, 2, 'the fixture repeats the hour');
      const up = await s.call('PUT', '/v1/data/meter', { body, ...csv });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.isTimeSeries, false);
      assert.match(up.json.messages[0].message, /^Column 'time' holds dates, but 1 of its 365 dates repeats an earlier row's, so it is not the data set's timestamp .* repeat an hour when daylight saving time ends: send them with their offset from UTC .*, or delete the data set and upload it again with timestampColumn=time/);

      const late = await s.call('PUT', '/v1/data/meter?timestampColumn=time', { body, ...csv });
      assert.equal(late.status, 400, late.text);
      assert.equal(late.json.errorType, 'InvalidColumnMetadata');
      assert.match(late.json.errorDetails.time[0], /^data set 'meter' holds 365 rows without a timestamp: .* delete the data set and upload its rows again with 'time' as its timestamp \(timestampColumn=time\)\.$/);
      const after = await s.call('GET', '/v1/data/meter?pageSize=1');
      assert.deepEqual([after.json.rowCount, after.json.columns.time.role], [365, null], 'the refused upload changed nothing');

      assert.equal((await s.call('DELETE', '/v1/data/meter')).status, 204);
      const again = await s.call('PUT', '/v1/data/meter?timestampColumn=time', { body, ...csv });
      assert.deepEqual([again.status, again.json.isTimeSeries, again.json.rowCount], [201, true, 364]);
      assert.match(again.json.messages[0].message, /^1 of the 365 rows sent repeats the timestamp \('time'\)/);
    });

    it('keys repeated in one JSON upload: the last row of each is kept, and the upload says so', async () => {
      const data = [{ id: 'a', x: '1' }, { id: 'b', x: '2' }, { id: 'a', x: '3' }];
      const up = await s.call('PUT', '/v1/data/keyed', { json: { columns: { id: { dataType: 'string', role: 'key' } }, data } });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.rowCount, 2);
      assert.match(up.json.messages[0].message, /^1 of the 3 rows sent repeats the key \('id'\) of a row sent after them\. A data set with a key holds one row per key, so the last row sent for each of the 2 keys was kept\./);
      const rows = (await s.call('GET', '/v1/data/keyed')).json.data;
      assert.deepEqual(rows.map((r: any) => [r.id, r.x]).sort(), [['a', '3'], ['b', '2']]);
    });
  });
}
