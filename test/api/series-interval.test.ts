/**
 * The result interval of forecast and impact sessions against the data's own spacing: left out, it
 * follows a monthly or quarterly grid instead of the spec's day; asked finer than the grid, it is a 400
 * naming the intervals that fit; irregular event rows keep any interval.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { mulberry32 } from '../support/random.js';

/** fpp2 a10 (monthly, 1991-07..2008-06) and ausbeer (quarterly, 1956 Q1..2010 Q2), written as pandas writes a quarterly PeriodIndex. */
const csv = (name: string, date?: (iso: string) => string) => {
  const t = readFixture('forecast', 'fpp2', `${name}.csv`);
  return ['date,value', ...t.rows.map(([d, v]) => `${date ? date(d!) : d},${v}`)].join('\n') + '\n';
};
const quarter = (iso: string) => `${iso.slice(0, 4)}Q${(Number(iso.slice(5, 7)) + 2) / 3}`;

/** Sales events at random times (about two a day, none on many days): counted by any interval. */
function events(): string {
  const rand = mulberry32(3);
  const lines = ['time,amount'];
  for (let t = Date.UTC(2017, 0, 1), i = 0; i < 600; i++) {
    t += Math.floor(-Math.log(1 - rand()) * 12 * 3_600_000);
    lines.push(`${new Date(t).toISOString()},${(5 + 10 * rand()).toFixed(2)}`);
  }
  return lines.join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`series sessions and the data's spacing (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, body] of [['a10', csv('a10')], ['ausbeer', csv('ausbeer', quarter)], ['events', events()]] as const) {
        const up = await s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });
        assert.equal(up.status, 201, up.text);
      }
    });
    after(async () => { await s.close(); });

    it('a forecast without resultInterval follows a monthly or quarterly grid, saying so', async () => {
      const monthly = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value' } });
      assert.equal(monthly.status, 200, monthly.text);
      assert.equal(monthly.json.resultInterval, 'month');
      assert.deepEqual(monthly.json.messages, [{ severity: 'informational', message: "No resultInterval was given: the data holds one value of 'value' per month, so the session works by month, not by day, the default, which would fill most days with the target's imputation." }]);
      await completedSession(s, monthly.json.sessionId);
      const rows = (await s.call('GET', `/v1/sessions/${monthly.json.sessionId}/results`)).json.data;
      assert.deepEqual(rows.slice(0, 2).map((r: any) => r.date.slice(0, 10)), ['2008-07-01', '2008-08-01']);
      assert.ok(rows.every((r: any) => Number(r.value) > 10 && Number(r.value) < 40), 'monthly totals of 10–30, not a fill of ~11 a day');

      const quarterly = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'ausbeer', targetColumn: 'value' } });
      assert.equal(quarterly.status, 200, quarterly.text);
      assert.equal(quarterly.json.resultInterval, 'quarter');
      assert.match(quarterly.json.messages[0].message, /one value of 'value' per quarter, so the session works by quarter, not by day/);
      await completedSession(s, quarterly.json.sessionId);
      const quarters = (await s.call('GET', `/v1/sessions/${quarterly.json.sessionId}/results`)).json.data;
      assert.deepEqual(quarters.map((r: any) => r.date.slice(0, 10)), ['2010-07-01', '2010-10-01', '2011-01-01', '2011-04-01'], 'one seasonal cycle of quarters');
      assert.ok(quarters.every((r: any) => Number(r.value) > 350 && Number(r.value) < 550), JSON.stringify(quarters));
    });

    it('an interval finer than the grid is a 400 naming those that fit, for forecasts and impact analyses; the data\'s own interval or a coarser one is accepted', async () => {
      const byDay = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value', resultInterval: 'day' } });
      assert.equal(byDay.status, 400, byDay.text);
      assert.deepEqual(byDay.json.errorDetails.resultInterval, ["Data set 'a10' holds one value of 'value' per month: by day, 29 of every 30 days would be filled with the target's imputation (mean) and analysed as data. Ask for resultInterval month, quarter or year."]);
      const byMonth = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'ausbeer', targetColumn: 'value', resultInterval: 'Month' } });
      assert.equal(byMonth.status, 400, byMonth.text);
      assert.match(byMonth.json.errorDetails.resultInterval[0], /per quarter: by month, 2 of every 3 months would be filled .* Ask for resultInterval quarter or year\.$/);
      const impact = await s.call('POST', '/v1/sessions/impact', { json: { dataSourceName: 'a10', targetColumn: 'value', eventName: 'e', startDate: '2007-01-01', endDate: '2007-06-30', resultInterval: 'week' } });
      assert.equal(impact.status, 400, impact.text);
      assert.ok(impact.json.errorDetails.resultInterval);
      const impactMonthly = await s.call('POST', '/v1/sessions/impact', { json: { dataSourceName: 'a10', targetColumn: 'value', eventName: 'e', startDate: '2007-01-01', endDate: '2007-06-30' } });
      assert.equal(impactMonthly.status, 200, impactMonthly.text);
      assert.equal(impactMonthly.json.resultInterval, 'month');
      for (const resultInterval of ['month', 'quarter', 'year']) {
        const ok = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value', resultInterval } });
        assert.equal(ok.status, 200, `${resultInterval}: ${ok.text}`);
        assert.deepEqual(ok.json.messages, []);
      }
    });

    it('events at irregular times keep the spec\'s day and any interval asked for', async () => {
      for (const resultInterval of [undefined, 'hour', 'day']) {
        const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'events', targetColumn: 'amount', ...(resultInterval ? { resultInterval } : {}) } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.resultInterval, resultInterval ?? 'day');
      }
    });
  });
}
