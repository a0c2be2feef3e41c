/**
 * Requests exactly as the original Python client (`nexosisapi`, GitHub Nexosis/nexosisclient-py)
 * sends them, for the parts its live suite exercises beyond data sets and sessions: views (its
 * body carries viewName and `columns: {}`, the list sends empty filters, remove sends
 * cascade=sessions), a model whose targetColumn differs from the column name in letter case, a
 * data set delete with cascade=view; and the column statistics endpoint.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const PY = { 'user-agent': 'Nexosis-Python-API-Client/1.0', accept: 'application/json' };
const rows = Array.from({ length: 40 }, (_, i) => ({
  timestamp: new Date(Date.UTC(2008, 6, 1) + i * 86_400_000).toISOString().slice(0, 10),
  observed: String(20 + (i % 7)),
}));

describe('requests as the Python client sends them', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    for (const name of ['viewdata-py', 'right-viewdata-py']) {
      const r = await s.call('PUT', `/v1/data/${name}`, { json: { data: rows, columns: null }, headers: PY });
      assert.equal(r.status, 201, r.text);
    }
    const spend = Array.from({ length: 30 }, (_, i) => ({ 'R.D.Spend': String(1000 + i * 10), Profit: String(5000 + i * 37 + (i % 3)) }));
    assert.equal((await s.call('PUT', '/v1/data/data-regression', { json: { data: spend }, headers: PY })).status, 201);
  });
  after(async () => { await s.close(); });

  it('imports.import_from_s3 sends `columns: null` when no metadata is given: accepted as no metadata', async () => {
    // The endpoint is loopback, so the outbound guard refuses it: the answer names the endpoint, not the columns.
    const body = { dataSetName: 'test-python-import', bucket: 'nexosis-sample-data', path: 'LocationA.csv', region: 'us-east-1', columns: null, endpoint: 'http://127.0.0.1:1' };
    const r = await s.call('POST', '/v1/imports/s3', { json: body, headers: PY });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorDetails?.columns, undefined, r.text);
  });

  it('views.create, views.list(partial_name=...), views.get, views.remove', async () => {
    const body = { viewName: 'alpha-beta-mike', dataSetName: 'viewdata-py', columns: {}, joins: [{ dataSet: { name: 'right-viewdata-py' } }] };
    const created = await s.call('PUT', '/v1/views/alpha-beta-mike', { json: body, headers: PY });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.viewName, 'alpha-beta-mike');
    assert.deepEqual(Object.keys(created.json.columns).sort(), ['observed', 'timestamp'], 'same-named columns of the right side are left out');
    const cal = await s.call('PUT', '/v1/views/testPyView', { json: { viewName: 'testPyView', dataSetName: 'viewdata-py', columns: {}, joins: [{ calendar: { name: 'Nexosis.Holidays-US' } }] }, headers: PY });
    assert.equal(cal.status, 201, cal.text);
    assert.deepEqual(cal.json.joins[0].calendar, { name: 'Nexosis.Holidays-US' });

    const listed = await s.call('GET', '/v1/views?partialName=alpha-beta-mike&dataSetName=&page=0&pageSize=50', { headers: PY });
    assert.deepEqual(listed.json.items.map((v: { viewName: string }) => v.viewName), ['alpha-beta-mike']);
    const paged = await s.call('GET', '/v1/views?partialName=&dataSetName=&page=1&pageSize=10', { headers: PY });
    assert.equal(paged.json.pageNumber, 1);
    assert.equal(paged.json.pageSize, 10);
    const got = await s.call('GET', '/v1/views/alpha-beta-mike?page=0&pageSize=50', { headers: PY });
    assert.equal(got.json.dataSetName, 'viewdata-py');
    assert.equal(got.json.data.length, rows.length);

    assert.equal((await s.call('PUT', '/v1/views/python-test-remove', { json: { ...body, viewName: 'python-test-remove' }, headers: PY })).status, 201);
    assert.equal((await s.call('DELETE', '/v1/views/python-test-remove?cascade=sessions', { headers: PY })).status, 204);
    assert.equal((await s.call('GET', '/v1/views/python-test-remove', { headers: PY })).status, 404);
  });

  it('sessions.train_model with targetColumn "profit" for the column "Profit"', async () => {
    const r = await s.call('POST', '/v1/sessions/model', {
      json: { predictionDomain: 'regression', dataSourceName: 'data-regression', targetColumn: 'profit', columns: { Profit: { dataType: 'numeric', role: 'target' } }, callbackUrl: null, extraParameters: null },
      headers: PY,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.targetColumn, 'Profit');
    const twoCases = await s.call('PUT', '/v1/data/two-cases', { json: { data: [{ ab: '1', AB: '2' }, { ab: '3', AB: '4' }] } });
    assert.equal(twoCases.status, 201);
    const ambiguous = await s.call('POST', '/v1/sessions/model', { json: { predictionDomain: 'regression', dataSourceName: 'two-cases', targetColumn: 'Ab' } });
    assert.equal(ambiguous.status, 400, 'two columns differ from it only in case: which one is not guessed');
  });

  it('datasets.remove(cascade="view") takes the views that read the data set', async () => {
    assert.equal((await s.call('DELETE', '/v1/data/viewdata-py?cascade=view', { headers: PY })).status, 204);
    assert.equal((await s.call('GET', '/v1/views/alpha-beta-mike', { headers: PY })).status, 404);
    assert.equal((await s.call('GET', '/v1/views/testPyView', { headers: PY })).status, 404);
  });

  it('GET /v1/data/<name>/stats: counts, moments, median and a distribution per column; one column by name', async () => {
    const r = await s.call('GET', '/v1/data/data-regression/stats');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.dataSetName, 'data-regression');
    const profit = r.json.columns.Profit;
    const values = Array.from({ length: 30 }, (_, i) => 5000 + i * 37 + (i % 3));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.equal(profit.totalCount, 30);
    assert.equal(profit.missingCount, 0);
    assert.equal(profit.distinctCount, 30);
    assert.equal(profit.min, Math.min(...values));
    assert.equal(profit.max, Math.max(...values));
    assert.ok(Math.abs(profit.mean - mean) < 1e-9);
    assert.equal(profit.median, [...values].sort((a, b) => a - b)[14], 'lower middle value of an even count');
    assert.ok(Math.abs(profit.variance - values.reduce((a, v) => a + (v - mean) ** 2, 0) / 30) < 1e-6);
    assert.equal(profit.distribution.reduce((a: number, b: { count: number }) => a + b.count, 0), 30);
    assert.equal(profit.suggestedType, 'numeric');
    const one = await s.call('GET', '/v1/data/data-regression/stats/profit');
    assert.deepEqual(Object.keys(one.json.columns), ['Profit']);
    assert.equal((await s.call('GET', '/v1/data/data-regression/stats/nope')).status, 404);
    assert.equal((await s.call('GET', '/v1/data/nope/stats')).status, 404);
  });
});
