/**
 * Session requests with values of the wrong JSON type (service-spec.md: the fields are strings, a
 * boolean, objects): each is a 400 naming the field, the type it takes and the value sent, and makes
 * no session. Names given in the body are one line of at most 200 characters, as data set names.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const MODEL = { dataSourceName: 'cls', predictionDomain: 'classification', targetColumn: 'label' };
const FORECAST = { dataSourceName: 'monthly', targetColumn: 'value' };
const IMPACT = { ...FORECAST, eventName: 'launch', startDate: '2019-01-01', endDate: '2019-03-01' };

function monthly(): string {
  const rows = ['month,value'];
  for (let m = 0; m < 48; m++) rows.push(`${2016 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01,${100 + m + 10 * Math.sin(m)}`);
  return rows.join('\n');
}

describe('session requests: types and lengths of their parameters', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const cls = ['x1,x2,label', ...Array.from({ length: 40 }, (_, i) => `${i},${(i * 7) % 11},${i % 2 ? 'yes' : 'no'}`)].join('\n');
    assert.equal((await s.call('PUT', '/v1/data/cls', { body: cls, headers: { 'content-type': 'text/csv' } })).status, 201);
    assert.equal((await s.call('PUT', '/v1/data/monthly', { body: monthly(), headers: { 'content-type': 'text/csv' } })).status, 201);
  });
  after(async () => { await s.close(); });

  async function refused(path: string, body: Record<string, unknown>, field: string, says: RegExp): Promise<void> {
    const r = await s.call('POST', path, { json: body });
    assert.equal(r.status, 400, `${path} ${JSON.stringify(body).slice(0, 200)}: ${r.text}`);
    assert.equal(r.json.statusCode, 400);
    assert.equal(r.json.errorType, 'RequestValidation');
    assert.deepEqual(Object.keys(r.json.errorDetails), [field], r.text);
    assert.equal(r.json.errorDetails[field].length, 1, `one message for ${field}: ${r.text}`);
    assert.match(r.json.errorDetails[field][0], says);
  }

  async function sessionCount(): Promise<number> {
    return (await s.call('GET', '/v1/sessions')).json.totalCount;
  }

  it('a model session refuses each field given the wrong type, naming the field, the type it takes and the value', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ targetColumn: ['label', 'x1'] }, 'targetColumn', /^targetColumn must be text, not a list: got \["label","x1"\]$/],
      [{ targetColumn: true }, 'targetColumn', /^targetColumn must be text, not true or false: got true$/],
      [{ predictionDomain: ['classification'] }, 'predictionDomain', /^predictionDomain must be one of classification, regression, anomalies, not a list: got \["classification"\]$/],
      [{ balance: { on: true } }, 'balance', /^balance must be true or false, not an object: got \{"on":true\}$/],
      [{ extraParameters: { balance: [true] } }, 'extraParameters.balance', /^balance must be true or false, not a list: got \[true\]$/],
      [{ extraParameters: [1] }, 'extraParameters', /^extraParameters must be an object, not a list: got \[1\]$/],
      [{ callbackUrl: ['http://example.com/hook'] }, 'callbackUrl', /^callbackUrl must be text, not a list/],
      [{ name: { text: 'mine' } }, 'name', /^name must be text, not an object: got \{"text":"mine"\}$/],
      [{ columns: ['label'] }, 'columns', /^columns must be an object mapping column names to metadata, not a list: got \["label"\]$/],
      [{ columns: { label: 'target' } }, 'columns.label', /^metadata for column 'label' must be an object .*, not text: got 'target'$/],
      [{ missingValues: { na: 'NA' } }, 'missingValues', /^missingValues must be a list of the texts that mean "no value".*, not an object: got \{"na":"NA"\}$/],
    ];
    for (const [change, field, says] of cases) await refused('/v1/sessions/model', { ...MODEL, ...change }, field, says);
    assert.equal(await sessionCount(), 0, 'no session was made');
  });

  it('dataSourceName given as an object is said to be of the wrong type, not missing', async () => {
    await refused('/v1/sessions/model', { ...MODEL, dataSourceName: { name: 'cls' } }, 'dataSourceName', /^dataSourceName must be text, not an object: got \{"name":"cls"\}$/);
    await refused('/v1/sessions/forecast', { targetColumn: 'value', dataSetName: ['monthly'] }, 'dataSourceName', /^dataSourceName must be text, not a list: got \["monthly"\]$/);
    await refused('/v1/sessions/model', { predictionDomain: 'classification', targetColumn: 'label' }, 'dataSourceName', /^dataSourceName is required$/);
  });

  it('forecast and impact sessions refuse each field given the wrong type', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['forecast', { ...FORECAST, targetColumn: ['value'] }, 'targetColumn', /^targetColumn must be text, not a list: got \["value"\]$/],
      ['forecast', { ...FORECAST, startDate: { year: 2019 } }, 'startDate', /^startDate must be text, not an object/],
      ['forecast', { ...FORECAST, resultInterval: ['month'] }, 'resultInterval', /^resultInterval must be one of hour, day, week, month, quarter, year, not a list: got \["month"\]$/],
      ['forecast', { ...FORECAST, name: ['mine'] }, 'name', /^name must be text, not a list/],
      ['forecast', { ...FORECAST, columns: 'value' }, 'columns', /^columns must be an object mapping column names to metadata, not text: got 'value'$/],
      ['impact', { ...IMPACT, eventName: { name: 'launch' } }, 'eventName', /^eventName must be text, not an object: got \{"name":"launch"\}$/],
      ['impact', { ...IMPACT, endDate: [2019, 3] }, 'endDate', /^endDate must be text, not a list: got \[2019,3\]$/],
    ];
    for (const [kind, body, field, says] of cases) await refused(`/v1/sessions/${kind}`, body, field, says);
    assert.equal(await sessionCount(), 0);
  });

  it('a repeated query parameter still counts by its last value, as the original service read it', async () => {
    const r = await s.call('POST', '/v1/sessions/model?targetColumn=x1&targetColumn=label', { json: { dataSourceName: 'cls', predictionDomain: 'classification' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.targetColumn, 'label');
    assert.equal((await s.call('DELETE', `/v1/sessions/${r.json.sessionId}`)).status, 204);
  });

  it('a session name and an event name are one line of at most 200 characters; a callback URL at most 2,048', async () => {
    const long = 'n'.repeat(201);
    await refused('/v1/sessions/model', { ...MODEL, name: long }, 'name', /^name has at most 200 characters; this one has 201: shorten it$/);
    await refused('/v1/sessions/forecast', { ...FORECAST, name: 'x'.repeat(50_000) }, 'name', /^name has at most 200 characters; this one has 50,000/);
    await refused('/v1/sessions/impact', { ...IMPACT, eventName: long }, 'eventName', /^eventName has at most 200 characters/);
    await refused('/v1/sessions/model', { ...MODEL, name: 'first line\nsecond line' }, 'name', /^name is one line of text: it cannot contain line breaks/);
    await refused('/v1/sessions/model', { ...MODEL, callbackUrl: `https://example.com/${'a'.repeat(2048)}` }, 'callbackUrl', /^a URL has at most 2,048 characters; this one has 2,068$/);
    assert.equal(await sessionCount(), 0);
    const ok = await s.call('POST', '/v1/sessions/model', { json: { ...MODEL, name: 'é/.'.repeat(66) + 'ok' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.name.length, 200);
  });
});
