import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const names = (n: number, prefix = 'c') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const csv = (columns: string[]) => `${columns.join(',')}\n${columns.map((_, i) => i).join(',')}\n`;

/** Column limits (probe-sec finding 2): refused with a 400 naming the limit, before the rows are worked on. */
describe('column limits', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite', { SIBYL_MAX_COLUMNS: '50' }); });
  after(async () => { await s.close(); });

  const putCsv = (name: string, body: string) => s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });

  it('a CSV with more columns than the limit is refused, however wide', async () => {
    const at = await putCsv('fifty', csv(names(50)));
    assert.equal(at.status, 201, at.text);
    for (const width of [51, 100_000]) {
      const r = await putCsv('wide', csv(names(width)));
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.equal(r.json.errorType, 'TooManyColumns');
      assert.match(r.json.message, /more than 50 columns/);
      assert.ok(Array.isArray(r.json.errorDetails.columns));
    }
    // A headerless file is as wide as its first row.
    const headerless = await putCsv('wide', `${names(60).map((_, i) => i).join(',')}\n`);
    assert.equal(headerless.json.errorType, 'TooManyColumns');
    assert.equal((await s.call('GET', '/v1/data/wide')).status, 404, 'nothing was made');
  });

  it('JSON records and declared columns count the same', async () => {
    const record = Object.fromEntries(names(51).map((n, i) => [n, i]));
    const r = await s.call('PUT', '/v1/data/wide-json', { json: { data: [{ a: 1 }, record] } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorType, 'TooManyColumns');
    const declared = Object.fromEntries(names(51).map((n) => [n, { dataType: 'numeric' }]));
    const d = await s.call('PUT', '/v1/data/wide-json', { json: { columns: declared } });
    assert.equal(d.status, 400, d.text);
    assert.equal(d.json.errorType, 'TooManyColumns');
  });

  it('columns added by later uploads count with the stored ones', async () => {
    assert.equal((await putCsv('grows', csv(names(30, 'a')))).status, 201);
    const r = await putCsv('grows', csv(names(30, 'b')));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorType, 'TooManyColumns');
    assert.equal((await s.call('GET', '/v1/data/grows')).json.columnCount, 30);
  });

  it('a column name longer than 1,000 characters is refused, in CSV and JSON', async () => {
    const long = 'n'.repeat(1001);
    const r = await putCsv('long-name', csv(['a', long]));
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.equal(r.json.errorType, 'ColumnNameTooLong');
    assert.match(r.json.message, /longer than 1000 characters/);
    const j = await s.call('PUT', '/v1/data/long-name', { json: { data: [{ a: 1, [long]: 2 }] } });
    assert.equal(j.json.errorType, 'ColumnNameTooLong');
    assert.equal((await putCsv('long-name', csv(['a', 'n'.repeat(1000)]))).status, 201, 'a name of 1,000 characters is fine');
  });

  it('a JSON record with a blank key is refused, as a CSV header\'s blank name is named by its position; nothing is stored', async () => {
    for (const blank of ['', '  ']) {
      const j = await s.call('PUT', '/v1/data/blank-key', { json: { data: [{ a: 1, [blank]: 2 }] } });
      assert.equal(j.status, 400, j.text);
      assert.equal(j.json.errorType, 'RequestValidation');
      assert.equal(j.json.message, 'A column has no name');
      assert.deepEqual(j.json.errorDetails.columns, [`a column is named ${JSON.stringify(blank)}: give every column a name (a JSON record's keys are its column names)`]);
      assert.equal((await s.call('GET', '/v1/data/blank-key')).status, 404);
    }
    const declared = await s.call('PUT', '/v1/data/blank-key', { json: { data: [{ a: 1 }], columns: { '': { dataType: 'numeric' } } } });
    assert.equal(declared.status, 400, declared.text);
    const r = await putCsv('blank-header', 'a,,b\n1,2,3\n');
    assert.equal(r.status, 201, r.text);
    assert.equal(Object.keys(r.json.columns).length, 3, 'a CSV header\'s blank name is still named by its position');
  });

  it('the data set list describes at most four data sets\' worth of the widest columns per page', async () => {
    for (const n of ['list1', 'list2', 'list3', 'list4', 'list5']) assert.equal((await putCsv(n, csv(names(50)))).status, 201);
    const list = await s.call('GET', '/v1/data?partialName=list&pageSize=10');
    assert.equal(list.status, 200);
    const described = list.json.items.filter((d: any) => Object.keys(d.columns).length === 50);
    const omitted = list.json.items.filter((d: any) => Object.keys(d.columns).length === 0);
    assert.equal(described.length, 4);
    assert.equal(omitted.length, 1);
    assert.equal(omitted[0].columnCount, 50, 'the count is still given');
    assert.match(omitted[0].messages[0].message, /left out of this list/);
    const own = await s.call('GET', `/v1/data/${omitted[0].dataSetName}`);
    assert.equal(Object.keys(own.json.columns).length, 50);
  });
});
