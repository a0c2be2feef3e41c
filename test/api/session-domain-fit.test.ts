/**
 * A model session whose target does not fit its domain, or whose data set holds no rows, says so in
 * words that lead to the fix: a regression on a column of words is a 400 naming classification; a
 * classification on a column of measurements fails naming regression; an empty data set is a 400.
 * Before, they failed saying "0 rows have a value in 'Species'" (all 150 had one) or that the data
 * set had "only one valid target class". A class labelled as R writes a missing value ('NA') is warned of.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';

describe('a session whose target does not fit its domain', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    for (const [name, file] of [['iris', ['classification', 'iris.csv']], ['cars', ['regression', 'auto_mpg.csv']]] as const) {
      const up = await s.call('PUT', `/v1/data/${name}`, { body: readFileSync(fixturePath(...file)), headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
    }
  });
  after(async () => { await s.close(); });

  it('a regression on a column of words is a 400 on targetColumn that names classification', async () => {
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'regression' } });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.json.errorDetails, { targetColumn: ["Column 'Species' holds text (dataType string), and a regression predicts a number. To predict its classes, ask for predictionDomain classification; if its values are numbers, declare its dataType numeric in the session's columns."] });
    assert.equal((await s.call('GET', '/v1/sessions')).json.items.length, 0, 'no session was made');
  });

  it('a classification on a column of measurements fails saying how many values are rare, and names regression', async () => {
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'cars', targetColumn: 'Weight_in_lbs', predictionDomain: 'classification' } });
    assert.equal(r.status, 200, r.text);
    const failed = await eventually(async () => {
      const g = await s.call('GET', `/v1/sessions/${r.json.sessionId}`);
      return g.json.status === 'failed' ? g.json : undefined;
    }, 120_000, 250);
    const error = failed.messages.find((m: any) => m.severity === 'error').message;
    assert.match(error, /^Dataset has only one valid target class\. At least 2 target classes are required to build a model\. 'Weight_in_lbs' holds \d{3} different values in 406 rows, none of them in 5 rows or more\. Its values are numbers: to predict the number, ask for predictionDomain regression\.$/);
    // Hundreds of rare classes: ten named, the rest counted in one line.
    const rare = failed.messages.filter((m: any) => m.severity === 'warning' && /^Target class '/.test(m.message));
    assert.equal(rare.length, 10);
    assert.ok(failed.messages.some((m: any) => /^\d+ more target classes are specified on fewer than 5 records each \(\d+ records in all\), and the model will not consider them either\.$/.test(m.message)), JSON.stringify(failed.messages));
  });

  it('a target class that reads as a missing value (R writes a factor\'s NA so) is warned of, and the session\'s missingValues leave those rows out', async () => {
    const lines = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8').trim().split('\n');
    // Every tenth flower's species unknown, as R's write.csv writes it.
    const body = lines.map((l, i) => (i > 0 && i % 10 === 0 ? l.replace(/[^,]*$/, 'NA') : l)).join('\n');
    assert.equal((await s.call('PUT', '/v1/data/irisna', { body, headers: { 'content-type': 'text/csv' } })).status, 201);
    const done = async (extra: Record<string, unknown>) => {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'irisna', targetColumn: 'Species', predictionDomain: 'classification', ...extra } });
      assert.equal(r.status, 200, r.text);
      return eventually(async () => {
        const g = await s.call('GET', `/v1/sessions/${r.json.sessionId}`);
        return g.json.status === 'completed' || g.json.status === 'failed' ? g.json : undefined;
      }, 120_000, 250);
    };
    const asSent = await done({});
    assert.equal(asSent.status, 'completed');
    assert.ok(asSent.messages.some((m: any) => m.severity === 'warning' && m.message === 'Target class \'NA\' (15 rows) reads as a missing value, as R and pandas write one, and the model learns it as a class. If these rows\' \'Species\' is unknown, declare missingValues ["NA"] in the session (or on the data set) so they are left out.'), JSON.stringify(asSent.messages));
    const marked = await done({ missingValues: ['NA'] });
    assert.equal(marked.status, 'completed');
    assert.ok(!marked.messages.some((m: any) => /reads as a missing value/.test(m.message)));
    assert.ok(marked.messages.some((m: any) => /^15 of the data set's 150 rows have no value in 'Species' and were left out/.test(m.message)), JSON.stringify(marked.messages));
  });

  it('a data set without rows is a 400 on dataSourceName', async () => {
    const empty = await s.call('PUT', '/v1/data/nothing', { json: { columns: { id: { role: 'key', dataType: 'string' }, y: { dataType: 'numeric', role: 'target' } } } });
    assert.equal(empty.status, 201, empty.text);
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'nothing', targetColumn: 'y', predictionDomain: 'regression' } });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.json.errorDetails, { dataSourceName: ["Data set 'nothing' holds no rows: upload rows (PUT /v1/data/nothing) before starting a session on it."] });
  });
});
