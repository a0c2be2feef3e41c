/**
 * A view's aliases are checked when it is stored: an alias must rename a column the joined data set
 * has, to a name the view does not already have, and no two columns may get the same alias. Each
 * such definition is a 400 naming the alias's place, and nothing is stored; a definition that
 * fits keeps every column it asked for.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('view aliases', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const days = Array.from({ length: 10 }, (_, i) => `2020-01-${String(i + 1).padStart(2, '0')}`);
    const upload = async (name: string, header: string, row: (day: string, i: number) => string) => {
      const r = await s.call('PUT', `/v1/data/${name}?timestampColumn=day`, { body: `${header}\n${days.map(row).join('\n')}\n`, headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, r.text);
    };
    await upload('sales', 'day,sales,promo', (d, i) => `${d},${100 + i},${i % 2}`);
    await upload('weather', 'day,temp,rain', (d, i) => `${d},${i * 1.5},${i % 3}`);
  });
  after(async () => { await s.close(); });

  const put = (name: string, columnOptions: Record<string, { alias: string }>) =>
    s.call('PUT', `/v1/views/${name}`, { json: { dataSetName: 'sales', joins: [{ dataSet: { name: 'weather' }, columnOptions }] } });

  it('refuses an alias already taken, given twice, or of a column the data set lacks, and stores nothing', async () => {
    const taken = await put('taken', { temp: { alias: 'promo' } });
    assert.equal(taken.status, 400, taken.text);
    assert.equal(taken.json.errorType, 'RequestValidation');
    assert.deepEqual(taken.json.errorDetails, { 'joins[0].columnOptions.temp.alias': [
      "the alias 'promo' of column 'temp' of 'weather' is already the name of column 'promo' of 'sales' in the view: choose another alias"] });

    const twice = await put('twice', { temp: { alias: 'w' }, rain: { alias: 'w' } });
    assert.equal(twice.status, 400, twice.text);
    assert.deepEqual(twice.json.errorDetails, { 'joins[0].columnOptions.rain.alias': [
      "the alias 'w' of column 'rain' of 'weather' is also given to its column 'temp': give each column its own alias"] });

    const missing = await put('missing', { Temp: { alias: 'temperature' } });
    assert.equal(missing.status, 400, missing.text);
    assert.deepEqual(missing.json.errorDetails, { 'joins[0].columnOptions.Temp.alias': [
      "'weather' has no column 'Temp' to give the alias 'temperature'. Did you mean 'temp'?"] });

    for (const name of ['taken', 'twice', 'missing']) assert.equal((await s.call('GET', `/v1/views/${name}`)).status, 404, name);
  });

  it('keeps every column of a definition whose aliases fit', async () => {
    const ok = await put('fits', { temp: { alias: 'temperature' }, rain: { alias: 'promo_rain' } });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(Object.keys(ok.json.columns).sort(), ['day', 'promo', 'promo_rain', 'sales', 'temperature']);
    const rows = await s.call('GET', '/v1/views/fits?pageSize=2');
    assert.deepEqual(rows.json.data[1], { day: '2020-01-02', sales: '101', promo: '1', temperature: '1.5', promo_rain: '1' });
  });
});
