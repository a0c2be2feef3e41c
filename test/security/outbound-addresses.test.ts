/**
 * The outbound guard end to end: a URL import (and a session's status callback) aimed at loopback,
 * private, link-local or cloud-metadata addresses is refused with a 400 in the error shape whatever
 * spelling the address takes (decimal, octal, hex, short IPv4 forms, IPv4-mapped IPv6, a name that
 * resolves there), and no import is recorded.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const REFUSED = [
  'http://127.0.0.1/data.csv',
  'http://2130706433/data.csv', // 127.0.0.1 as one decimal number
  'http://0177.0.0.1/data.csv', // octal first byte
  'http://0x7f.0.0.1/data.csv', // hex first byte
  'http://0x7f000001/data.csv', // one hex number
  'http://127.1/data.csv', // short form
  'http://[::1]/data.csv',
  'http://[::ffff:127.0.0.1]/data.csv', // IPv4-mapped IPv6
  'http://[::ffff:a9fe:a9fe]/data.csv', // 169.254.169.254, IPv4-mapped in hex
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://10.0.0.8/data.csv',
  'http://172.16.5.4/data.csv',
  'http://192.168.1.20/data.csv',
  'http://[fc00::1]/data.csv', // unique local
  'http://[fe80::1]/data.csv', // link-local
  'http://0.0.0.0/data.csv',
  'http://localhost/data.csv', // a name that resolves to loopback
];

describe('outbound guard over HTTP: every spelling of a non-public address is refused', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('URL imports', async () => {
    for (const url of REFUSED) {
      const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: 'guarded', url } });
      assert.equal(r.status, 400, `${url}: ${r.text}`);
      assert.equal(r.json.statusCode, 400);
      assert.equal(typeof r.json.message, 'string');
      assert.equal(typeof r.json.errorType, 'string');
    }
    const listed = await s.call('GET', '/v1/imports');
    assert.equal(listed.json.items.length, 0, 'no refused import was recorded');
  });

  it('status callbacks of sessions', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ x: String(i), y: String(2 * i + (i % 3)) }));
    assert.equal((await s.call('PUT', '/v1/data/guard-data', { json: { data: rows } })).status, 201);
    for (const url of REFUSED) {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'guard-data', targetColumn: 'y', predictionDomain: 'regression', callbackUrl: url } });
      assert.equal(r.status, 400, `${url}: ${r.text}`);
    }
    const sessions = await s.call('GET', '/v1/sessions');
    assert.equal(sessions.json.items.length, 0, 'no session was created with a refused callback');
  });
});
