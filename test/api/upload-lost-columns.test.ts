/**
 * No column of an upload vanishes without a word. A column named `__proto__` was dropped (rows and
 * column maps are plain objects, where that name sets the prototype): it is refused with a 400
 * naming it, in CSV and JSON alike, while `constructor`, `prototype`, `toString` are kept like any
 * name. A JSON number beyond ±1.8e308 (JSON.parse gives ±Infinity, stored as null) is kept as its
 * text, as a CSV cell `1e400` always was.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('uploads keep every column or say why not', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  const csv = (name: string, body: string) => s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });

  it('refuses a CSV column named __proto__, naming it, and creates nothing', async () => {
    const r = await csv('proto', '__proto__,constructor,a\n1,2,3\n5,6,7\n');
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorType, 'RequestValidation');
    assert.match(JSON.stringify(r.json.errorDetails), /__proto__/);
    assert.equal((await s.call('GET', '/v1/data/proto')).status, 404);
  });

  it('refuses a JSON column named __proto__, naming the record', async () => {
    const r = await s.call('PUT', '/v1/data/protojson', { body: '{"data":[{"__proto__":1,"a":1}]}', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400, r.text);
    assert.match(r.json.message, /__proto__.*data\[0\]/);
  });

  it('keeps columns named like the other properties of JavaScript objects', async () => {
    const r = await csv('names', 'constructor,prototype,toString,hasOwnProperty,valueOf\n1,2,3,4,5\n6,7,8,9,10\n');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.columnCount, 5);
    const data = await s.call('GET', '/v1/data/names');
    assert.deepEqual(data.json.data[0], { constructor: '1', prototype: '2', toString: '3', hasOwnProperty: '4', valueOf: '5' });
  });

  it('keeps JSON numbers too large for a double as their text, like CSV cells', async () => {
    const r = await s.call('PUT', '/v1/data/huge', { body: '{"data":[{"a":1e400,"b":-1e400,"c":2.5,"d":"1e400 in a string"},{"a":1,"b":2,"c":3,"d":"x"}]}', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(Object.keys(r.json.columns).sort(), ['a', 'b', 'c', 'd']);
    const data = await s.call('GET', '/v1/data/huge');
    assert.deepEqual(data.json.data[0], { a: '1e400', b: '-1e400', c: '2.5', d: '1e400 in a string' });
    const fromCsv = await csv('hugecsv', 'a,b,c,d\n1e400,-1e400,2.5,1e400 in a string\n1,2,3,x\n');
    assert.equal(fromCsv.status, 201, fromCsv.text);
    assert.deepEqual(r.json.columns, fromCsv.json.columns, 'the same columns, of the same types, as from CSV');
  });
});
