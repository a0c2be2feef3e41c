import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseAllowedHosts } from '../../src/outbound/allowed-hosts.js';
import { openDownload } from '../../src/outbound/download.js';
import { OutboundFailed, OutboundRefused } from '../../src/outbound/errors.js';
import { postJson } from '../../src/outbound/post-json.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './self-signed-tls.js';

describe('https against a self-signed server on 127.0.0.1', () => {
  let server: Server;
  let port: number;
  let requests = 0;

  before(async () => {
    server = createServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) => {
      requests++;
      res.end('date,value\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const options = (allow: string | undefined) => ({
    allowHosts: parseAllowedHosts(allow),
    maxBytes: 1000,
    timeoutMs: 5_000,
  });

  test('names resolving to loopback are refused over https too', async () => {
    await assert.rejects(
      openDownload(`https://localhost:${port}/data.csv`, options(undefined)),
      (err: unknown) => err instanceof OutboundRefused && /host localhost is loopback/.test(err.message),
    );
    assert.equal(requests, 0);
  });

  test('an allowed host still needs a trusted certificate', async () => {
    await assert.rejects(openDownload(`https://localhost:${port}/data.csv`, options('localhost')), (err: unknown) => {
      assert.ok(err instanceof OutboundFailed, String(err));
      assert.match(err.message, /^GET https:\/\/localhost:\d+\/data\.csv failed: self[- ]signed certificate/);
      return true;
    });
    await assert.rejects(
      postJson(`https://127.0.0.1:${port}/hook`, {}, { allowHosts: parseAllowedHosts('127.0.0.1'), timeoutMs: 5_000 }),
      (err: unknown) => err instanceof OutboundFailed && /self[- ]signed certificate/.test(err.message),
    );
    assert.equal(requests, 0);
  });
});
