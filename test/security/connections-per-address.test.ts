/**
 * One client address may hold at most SIBYL_MAX_CONNECTIONS_PER_ADDRESS connections open at once:
 * a connection over the cap is answered 429 in the error shape and closed, never handed to the
 * HTTP parser (its request is not served), while the connections within the cap keep working; a
 * closed one frees its place.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawRequest, requestHead } from '../support/raw-http.js';

const MAX = 3;

function openIdle(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** A keep-alive request on an open connection; resolves with the status line's code. */
function askOn(socket: Socket, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (c: Buffer) => {
      seen += c.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(seen);
      if (m && seen.includes('\r\n\r\n')) { socket.off('data', onData); resolve(Number(m[1])); }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed without an answer: ${seen}`)));
    socket.write(requestHead('GET', '/v1/data', [['api-key', key]], 0, 'keep-alive'));
  });
}

describe('connections per client address', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite', { SIBYL_MAX_CONNECTIONS_PER_ADDRESS: String(MAX) }); });
  after(async () => { await s.close(); });

  it('refuses a connection over the cap with a 429 that says what to do, and serves the others', async () => {
    const held = await Promise.all(Array.from({ length: MAX }, () => openIdle(s.url)));
    try {
      const over = await rawRequest(s.url, requestHead('PUT', '/v1/data/refused', [['api-key', s.key], ['Content-Type', 'text/csv']], 8), 'a,b\n1,2\n', 10_000);
      assert.equal(over.status, 429);
      assert.equal(over.headers.connection, 'close');
      assert.equal(over.headers['x-content-type-options'], 'nosniff', 'nosniff, as on every other answer');
      const body = JSON.parse(over.body.toString());
      assert.deepEqual(Object.keys(body).sort(), ['errorDetails', 'errorType', 'message', 'statusCode']);
      assert.equal(body.statusCode, 429);
      assert.equal(body.errorType, 'TooManyConnections');
      assert.match(body.message, /already holds 3 open connections.*keep-alive.*retry/);

      for (const socket of held) assert.equal(await askOn(socket, s.key), 200, 'the connections within the cap are served');

      held.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const freed = await rawRequest(s.url, requestHead('GET', '/v1/data/refused', [['api-key', s.key]], 0), '', 10_000);
      assert.equal(freed.status, 404, 'a closed connection frees its place; the refused upload stored nothing');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
