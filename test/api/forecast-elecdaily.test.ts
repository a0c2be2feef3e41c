import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { elecdailyRows } from '../support/elecdaily.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/**
 * Daily electricity demand in Victoria, 2014 (fpp2 elecdaily), with two declared features: WorkDay
 * (logical) and Temperature (numeric). The last 14 days are forecast, as in the benchmark's split;
 * their feature values come in a second upload without the target.
 */
const H = 14;

function elecdaily() {
  const rows = elecdailyRows();
  const n = rows.length - H;
  const history = rows.slice(0, n);
  const future = rows.slice(n).map(({ date, WorkDay, Temperature }) => ({ date, WorkDay, Temperature }));
  return { history, future, actual: rows.slice(n).map((r) => Number(r.Demand)), start: rows[n]!.date, end: rows.at(-1)!.date };
}

/** R forecast's ets + auto.arima + theta combination on the same split (reference/forecast_series.csv in test/fixtures). */
function referenceSmape(): number {
  const t = readFixture('reference', 'forecast_series.csv');
  const row = t.rows.find((r) => r[1] === 'fpp2/elecdaily_Demand' && r[6] === 'comb');
  assert.ok(row, 'reference row for elecdaily_Demand comb');
  return Number(row[t.header.indexOf('smape')]);
}

function smape(actual: number[], forecast: number[]): number {
  return (actual.reduce((s, a, i) => s + (200 * Math.abs(a - forecast[i]!)) / (Math.abs(a) + Math.abs(forecast[i]!)), 0)) / actual.length;
}

for (const backend of await backends()) {
  describe(`forecast of real data with declared features over HTTP (${backend})`, () => {
    const data = elecdaily();
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const columns = { date: { dataType: 'date', role: 'timestamp' }, Demand: { role: 'target' }, WorkDay: { dataType: 'logical', role: 'feature' }, Temperature: { dataType: 'numeric', role: 'feature' } };
      assert.equal((await s.call('PUT', '/v1/data/elecdaily', { json: { data: data.history, columns } })).status, 201);
      assert.equal((await s.call('PUT', '/v1/data/elecdaily', { json: data.future })).status, 201);
    });
    after(async () => { await s.close(); });

    it('beats R\'s combination (which has no features) on the last two weeks', async (t) => {
      const created = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'elecdaily', targetColumn: 'Demand', startDate: data.start, endDate: data.end } });
      assert.equal(created.status, 200, created.text);
      const id = created.json.sessionId;
      await completedSession(s, id);
      const r = await s.call('GET', `/v1/sessions/${id}/results`);
      assert.equal(r.json.data.length, H);
      const ours = smape(data.actual, r.json.data.map((d: any) => Number(d.Demand)));
      const reference = referenceSmape();
      t.diagnostic(`sMAPE ${ours.toFixed(2)} (R ets+arima+theta combination: ${reference})`);
      assert.ok(ours < reference, `sMAPE ${ours.toFixed(2)} vs ${reference}`);
    });
  });
}
