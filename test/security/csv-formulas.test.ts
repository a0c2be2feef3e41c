/**
 * CSV downloads hand no spreadsheet formula back (OWASP's CSV injection rule): a cell or column name
 * beginning with =, +, -, @, a tab or a CR comes back with a leading ', while plain numbers (-3.5,
 * -1e-3) stay numbers. Every CSV answer (data sets, views, results) goes through one writer,
 * api/csv-output.ts; the data set download is the one a tenant fills with any text it likes.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('CSV downloads neutralise formulas', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('prefixes formula cells and names with a quote, leaves numbers alone', async () => {
    const record = {
      name: '=HYPERLINK("http://evil","x")', v: "+cmd|'/C calc'!A0", w: '@SUM(1+1)', z: '-2+3',
      tab: '\t=1+1', cr: '\r=1+1', num: '-3.5', exp: '-1e-3', plus: '+2', plain: 'hello', '=cmd()': 'a', '-x': 'b',
    };
    const put = await s.call('PUT', '/v1/data/inj', { json: { data: [record] } });
    assert.equal(put.status, 201, put.text);
    const r = await s.call('GET', '/v1/data/inj', { headers: { accept: 'text/csv' } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/csv/);
    const [head, row] = r.text.split('\r\n');
    const names = head!.split(',');
    assert.ok(names.includes("'=cmd()") && names.includes("'-x"), head);
    assert.ok(!names.some((n) => /^[=+\-@]/.test(n)), head);
    const expected: Record<string, string> = {
      name: `"'=HYPERLINK(""http://evil"",""x"")"`, v: `'+cmd|'/C calc'!A0`, w: `'@SUM(1+1)`, z: `'-2+3`,
      tab: `'\t=1+1`, cr: `"'\r=1+1"`, num: '-3.5', exp: '-1e-3', plus: '+2', plain: 'hello',
    };
    // Each cell as RFC 4180 writes it (quoted when it holds a quote, comma or line break), between separators.
    const fields = `,${row},`;
    for (const [k, v] of Object.entries(expected)) assert.ok(fields.includes(`,${v},`), `${k}: ${JSON.stringify(v)} in ${JSON.stringify(row)}`);
    const json = await s.call('GET', '/v1/data/inj');
    assert.equal(json.json.data[0].name, record.name, 'JSON answers keep the text as stored');
  });
});
