import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { elecdailyRows } from '../support/elecdaily.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { holdoutSplit } from '../../src/service/models/holdout-split.js';

/**
 * A model session on a time series: fpp2 elecdaily (daily electricity demand in Victoria, 2014, with
 * Temperature and WorkDay). The data set holds the first 337 days; the last 28 stay outside it, the
 * days a user would ask the model about next. A random holdout let each test day sit between training
 * days: test MAE 4.65, where the 20 days after the data gave 5.76. The days from Christmas Eve on are
 * left out of that comparison: nothing in the data is like them (its only holiday weeks are its first
 * days), so no holdout of it can foresee them (MAE ~37 on those 8 days, 11.5 over all 28).
 */
const AHEAD = 28;

function elecdaily() {
  const rows = elecdailyRows();
  const n = rows.length - AHEAD;
  return { history: rows.slice(0, n), next: rows.slice(n) };
}

const mae = (actual: number[], predicted: number[]) => actual.reduce((a, y, i) => a + Math.abs(y - predicted[i]!), 0) / actual.length;

describe('model sessions on a time series hold back its latest rows (HTTP)', () => {
  const data = elecdaily();
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    const columns = { date: { dataType: 'date', role: 'timestamp' }, Demand: { dataType: 'numeric', role: 'target' }, WorkDay: { dataType: 'logical', role: 'feature' }, Temperature: { dataType: 'numeric', role: 'feature' } };
    assert.equal((await s.call('PUT', '/v1/data/elecdaily', { json: { data: data.history, columns } })).status, 201);
    // The same rows without their dates: nothing orders them in time.
    const undated = data.history.map(({ date: _d, ...rest }) => rest);
    assert.equal((await s.call('PUT', '/v1/data/elecdaily-undated', { json: { data: undated, columns: { Demand: columns.Demand, WorkDay: columns.WorkDay, Temperature: columns.Temperature } } })).status, 201);
  });
  after(async () => { await s.close(); });

  it('tests on the last 20 % of days, says so, and its test MAE is near the MAE on the days after the data', async (t) => {
    const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'elecdaily', targetColumn: 'Demand', predictionDomain: 'regression' } });
    assert.equal(created.status, 200, created.text);
    const done = await completedSession(s, created.json.sessionId, 300_000);
    const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results?pageSize=1000`);
    // Honest: the model predicts the days after its data about as well as the test said it would.
    const testMae = Number(results.json.metrics.meanAbsoluteError);
    const predicted = await s.call('POST', `/v1/models/${done.modelId}/predict`, { json: { data: data.next.map(({ Demand: _y, ...features }) => features) } });
    assert.equal(predicted.status, 200, predicted.text);
    const before = data.next.filter((r) => r.date < '2014-12-24').length;
    const actual = data.next.map((r) => Number(r.Demand));
    const forecast = predicted.json.data.map((r: Record<string, string>) => Number(r.Demand));
    const nextMae = mae(actual.slice(0, before), forecast.slice(0, before));
    t.diagnostic(`test MAE ${testMae.toFixed(2)}; MAE on the next ${before} days ${nextMae.toFixed(2)} (ratio ${(nextMae / testMae).toFixed(2)}), on all ${AHEAD} ${mae(actual, forecast).toFixed(2)}`);
    const n = data.history.length;
    const testCount = Math.round(n * 0.2);
    assert.equal(results.json.testRows, testCount);
    const latest = data.history.slice(n - testCount).map((r) => r.date);
    assert.deepEqual(results.json.data.map((r: Record<string, string>) => r.date.slice(0, 10)).sort(), latest);
    const said = done.messages.find((m: { message: string }) => /^The test rows are the last/.test(m.message));
    assert.ok(said, JSON.stringify(done.messages));
    assert.equal(said.severity, 'informational');
    assert.match(said.message, new RegExp(`^The test rows are the last ${testCount} of the ${n} rows by 'date', from ${latest[0]}.* to ${latest.at(-1)}`));

    assert.ok(nextMae / testMae < 1.2 && testMae / nextMae < 1.2, `test MAE ${testMae} against ${nextMae} on the next days`);
  });

  it('a data set without a timestamp keeps the seeded random split', async () => {
    const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'elecdaily-undated', targetColumn: 'Demand', predictionDomain: 'regression' } });
    assert.equal(created.status, 200, created.text);
    const done = await completedSession(s, created.json.sessionId, 300_000);
    const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results?pageSize=1000`);
    // The session seed is 1 unless extraParameters.seed says otherwise; result rows come in row order.
    const expected = Array.from(holdoutSplit(data.history.length, 1).test, (r) => Number(data.history[r]!.Demand));
    assert.deepEqual(results.json.data.map((r: Record<string, string>) => Number(r['Demand:actual'])), expected);
    assert.ok(!done.messages.some((m: { message: string }) => /^The test rows are the last/.test(m.message)));
  });
});
