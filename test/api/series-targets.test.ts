import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { elecdailyRows } from '../support/elecdaily.js';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * fpp2 elecdaily (Victoria's daily electricity demand and temperature, 2014): a request giving both
 * columns role target made a forecast of Demand alone and said nothing of Temperature.
 */
for (const backend of await backends()) {
  describe(`a series session asked for several targets (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const data = elecdailyRows().map(({ date, Demand, Temperature }) => ({ date, Demand, Temperature }));
      assert.equal((await s.call('PUT', '/v1/data/elec', { json: { data, columns: { date: { dataType: 'date', role: 'timestamp' } } } })).status, 201);
    });
    after(async () => { await s.close(); });

    for (const [kind, extra] of [['forecast', {}], ['impact', { eventName: 'heat', startDate: '2014-12-01', endDate: '2014-12-31' }]] as const) {
      it(`${kind}: two columns with role target, or one beside targetColumn, are a 400 naming them, and no session is made`, async () => {
        const before = (await s.call('GET', '/v1/sessions')).json.totalCount;
        const both = await s.call('POST', `/v1/sessions/${kind}`, { json: { dataSourceName: 'elec', ...extra, columns: { Demand: { role: 'target' }, Temperature: { role: 'target' } } } });
        assert.equal(both.status, 400, both.text);
        assert.deepEqual(Object.keys(both.json).sort(), ['errorDetails', 'errorType', 'message', 'statusCode']);
        assert.match(both.json.errorDetails.columns[0], /one target, and the request names 2: 'Demand', 'Temperature'/);
        const beside = await s.call('POST', `/v1/sessions/${kind}`, { json: { dataSourceName: 'elec', targetColumn: 'Demand', ...extra, columns: { Temperature: { role: 'target' } } } });
        assert.equal(beside.status, 400, beside.text);
        assert.match(beside.json.errorDetails.columns[0], /targetColumn 'Demand', 'Temperature'/);
        assert.equal((await s.call('GET', '/v1/sessions')).json.totalCount, before);
        // The target named once, and again in columns, is one target.
        const one = await s.call('POST', `/v1/sessions/${kind}`, { json: { dataSourceName: 'elec', targetColumn: 'Demand', ...extra, columns: { Demand: { role: 'target' }, Temperature: { role: 'none' } } } });
        assert.equal(one.status, 200, one.text);
      });
    }
  });
}
