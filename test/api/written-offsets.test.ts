import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** fpp2 a10 (monthly, 1991-07..2008-06), each month written as local midnight in Central Europe (+01:00, or +02:00 April to October), as a spreadsheet in Berlin exports it. */
function a10(zoned: boolean): string {
  return readFileSync(fixturePath('forecast', 'fpp2', 'a10.csv'), 'utf8').trim().split('\n').map((l, i) => {
    if (i === 0 || !zoned) return l;
    const [date, value] = l.split(',');
    const month = Number(date!.slice(5, 7));
    return `${date}T00:00:00${month >= 4 && month <= 10 ? '+02:00' : '+01:00'},${value}`;
  }).join('\n');
}

for (const backend of await backends()) {
  describe(`timestamps written with a UTC offset (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, zoned] of [['plain', false], ['berlin', true]] as const) {
        assert.equal((await s.call('PUT', `/v1/data/${name}`, { body: a10(zoned), headers: { 'content-type': 'text/csv' } })).status, 201);
      }
    });
    after(async () => { await s.close(); });

    async function forecastOf(dataset: string): Promise<{ dates: string[]; values: number[]; messages: string[] }> {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: dataset, targetColumn: 'value', resultInterval: 'month' } });
      assert.equal(r.status, 200, r.text);
      const { messages } = await completedSession(s, r.json.sessionId);
      const got = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.equal(got.status, 200, got.text);
      return { dates: got.json.data.map((row: { date: string }) => row.date.slice(0, 10)), values: got.json.data.map((row: { value: string }) => Number(row.value)), messages: messages.map((m: { message: string }) => m.message) };
    }

    it('months written as local midnight count in their own month, not in the UTC month before: the forecast is the plain series\' one, and a message says how the dates were read', async () => {
      const plain = await forecastOf('plain');
      const berlin = await forecastOf('berlin');
      assert.equal(plain.dates[0], '2008-07-01');
      assert.deepEqual(berlin.dates, plain.dates);
      assert.deepEqual(berlin.values, plain.values);
      assert.ok(berlin.messages.some((m) => /^Timestamps of 'date' are written with UTC offsets \(\+01:00 and \+02:00\): each row counts in the month of its date as written/.test(m)), JSON.stringify(berlin.messages));
      assert.ok(!plain.messages.some((m) => /UTC offsets/.test(m)), JSON.stringify(plain.messages));
    });

    it('startDate and endDate written with an offset count on their dates as written by month, as the rows do: a forecast from 1 July Berlin time starts in July', async () => {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'plain', targetColumn: 'value', resultInterval: 'month', startDate: '2008-07-01T00:00:00+02:00', endDate: '2008-09-01T00:00:00+02:00' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.startDate, '2008-07-01T00:00:00+00:00');
      assert.equal(r.json.endDate, '2008-09-01T00:00:00+00:00');
      assert.ok(r.json.messages.some((m: { message: string }) => /^startDate and endDate are written with a UTC offset \(\+02:00\): by month they count on the date as written \(2008-07-01 and 2008-09-01\)/.test(m.message)), JSON.stringify(r.json.messages));
      await completedSession(s, r.json.sessionId);
      const got = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.deepEqual(got.json.data.map((row: { date: string }) => row.date.slice(0, 10)), ['2008-07-01', '2008-08-01', '2008-09-01']);
    });

    it('an impact window written in Berlin time, January to June, is January to June, not December to May', async () => {
      const r = await s.call('POST', '/v1/sessions/impact', { json: { dataSourceName: 'berlin', targetColumn: 'value', eventName: 'campaign', startDate: '2008-01-01T00:00:00+01:00', endDate: '2008-06-01T00:00:00+02:00' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.startDate, '2008-01-01T00:00:00+00:00');
      assert.equal(r.json.endDate, '2008-06-01T00:00:00+00:00');
      await completedSession(s, r.json.sessionId);
      const got = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.deepEqual(got.json.data.map((row: { date: string }) => row.date.slice(0, 10)), ['2008-01-01', '2008-02-01', '2008-03-01', '2008-04-01', '2008-05-01', '2008-06-01']);
    });

    it('by hour the request dates keep their UTC instant, as hourly rows do', async () => {
      const rows = ['time,load'];
      for (let h = 0; h < 24 * 21; h++) rows.push(`${new Date(Date.UTC(2017, 2, 1) + h * 3_600_000).toISOString()},${100 + 20 * Math.sin((2 * Math.PI * h) / 24) + (h % 7)}`);
      assert.equal((await s.call('PUT', '/v1/data/hourly', { body: rows.join('\n'), headers: { 'content-type': 'text/csv' } })).status, 201);
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hourly', targetColumn: 'load', resultInterval: 'hour', startDate: '2017-03-22T00:00:00+02:00', endDate: '2017-03-22T05:00:00+02:00' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.startDate, '2017-03-21T22:00:00+00:00');
      assert.equal(r.json.endDate, '2017-03-22T03:00:00+00:00');
      assert.ok(!r.json.messages.some((m: { message: string }) => /UTC offset/.test(m.message)), JSON.stringify(r.json.messages));
    });
  });
}
