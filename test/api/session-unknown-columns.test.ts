/**
 * A model session's `columns` may only describe columns its data source has: metadata for another
 * name (a typo, another letter case) is a 400 naming the column and the one probably meant, and no
 * session is made. It used to be added to the session as an empty string feature of that name,
 * which the model then fitted on; time-series sessions already refused it this way.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('model sessions: metadata for a column the data source does not have', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const rows = Array.from({ length: 40 }, (_, i) => `${i},${(i * 7) % 11},${i % 2 ? 'yes' : 'no'}`).join('\n');
    assert.equal((await s.call('PUT', '/v1/data/small', { body: `size,weight,Label\n${rows}\n`, headers: { 'content-type': 'text/csv' } })).status, 201);
  });
  after(async () => { await s.close(); });

  it('is refused with the column named and the one probably meant, and makes no session', async () => {
    const r = await s.call('POST', '/v1/sessions/model', { json: {
      dataSourceName: 'small', targetColumn: 'Label', predictionDomain: 'classification',
      columns: { wieght: { role: 'feature', dataType: 'numeric' }, label: { role: 'target' }, size: { role: 'feature' } },
    } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorType, 'RequestValidation');
    assert.match(r.json.message, /column metadata does not fit the data source/);
    assert.deepEqual(Object.keys(r.json.errorDetails).sort(), ['label', 'wieght']);
    assert.equal(r.json.errorDetails.wieght[0], "column 'wieght' is not in data source 'small'. Did you mean 'weight'?");
    assert.equal(r.json.errorDetails.label[0], "column 'label' is not in data source 'small'. Did you mean 'Label'?");
    assert.equal((await s.call('GET', '/v1/sessions')).json.totalCount, 0, 'no session was made');

    const ok = await s.call('POST', '/v1/sessions/model', { json: {
      dataSourceName: 'small', targetColumn: 'Label', predictionDomain: 'classification', columns: { weight: { role: 'none' } },
    } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(Object.keys(ok.json.columns).sort(), ['Label', 'size', 'weight']);
  });
});
