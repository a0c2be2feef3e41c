/**
 * Slow clients (slowloris): a request whose body trickles in is cut off once it stays silent longer
 * than SIBYL_IDLE_TIMEOUT_MS, an answer sent before the body arrived closes the connection, and an
 * idle keep-alive connection is closed; but a request that has fully arrived is never cut off while
 * the server works on it, however much longer than the idle limit that takes.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawRequest, requestHead, trickledRequest } from '../support/raw-http.js';

const IDLE_MS = 300;

describe('slow requests: the whole-request limit', () => {
  let s: TestServer;
  // The whole-request limit is low too: neither limit may cut a request that has arrived.
  before(async () => { s = await startTestServer('pglite', { SIBYL_IDLE_TIMEOUT_MS: String(IDLE_MS), SIBYL_REQUEST_TIMEOUT_MS: '1000' }); });
  after(async () => { await s.close(); });

  it('answers a request whose processing takes far longer than the idle limit', async () => {
    const records = Array.from({ length: 200_000 }, (_, i) => ({ day: i, amount: (i * 7919) % 1000, region: `r${i % 37}`, flag: i % 3 === 0 }));
    const body = JSON.stringify({ data: records });
    const started = Date.now();
    const r = await rawRequest(s.url, requestHead('PUT', '/v1/data/big', [['api-key', s.key], ['Content-Type', 'application/json']], Buffer.byteLength(body)), body, 120_000);
    const tookMs = Date.now() - started;
    assert.equal(r.status, 201, r.body.toString().slice(0, 300));
    assert.ok(tookMs > 2 * IDLE_MS, `the upload took ${tookMs} ms: it must take over twice the idle limit to show anything`);
    const listed = await s.call('GET', '/v1/data/big');
    assert.equal(listed.status, 200);
  });

  it('cuts off a body trickled faster than the idle limit once the whole-request limit passes', async () => {
    const body = 'a,b\n1,2\n3,4\n5,6\n7,8\n'.repeat(10);
    const head = requestHead('PUT', '/v1/data/trickled', [['api-key', s.key], ['Content-Type', 'text/csv']], body.length);
    const outcome = await trickledRequest(s.url, head, body, IDLE_MS / 3, 10_000);
    assert.equal(outcome.response?.status, 408);
    // The 1,000 ms limit, checked every 250 ms.
    assert.ok(outcome.closedAfterMs >= 900 && outcome.closedAfterMs < 2500, `closed after ${outcome.closedAfterMs} ms`);
    assert.equal((await s.call('GET', '/v1/data/trickled')).status, 404, 'nothing was stored');
  });
});

describe('slow requests: the idle limit', () => {
  let s: TestServer;
  // The default whole-request limit (1 h): a streamed upload is still arriving while it is ingested.
  before(async () => { s = await startTestServer('pglite', { SIBYL_IDLE_TIMEOUT_MS: String(IDLE_MS) }); });
  after(async () => { await s.close(); });

  it('does not cut off a large CSV upload while the server holds its body back to ingest it', async () => {
    const lines = ['day,amount,region,note'];
    for (let i = 0; i < 300_000; i++) lines.push(`${i},${(i * 7919) % 1000},r${i % 37},note number ${i}`);
    const body = lines.join('\n') + '\n';
    const started = Date.now();
    const r = await rawRequest(s.url, requestHead('PUT', '/v1/data/bigcsv', [['api-key', s.key], ['Content-Type', 'text/csv']], Buffer.byteLength(body)), body, 120_000);
    const tookMs = Date.now() - started;
    assert.equal(r.status, 201, r.body.toString().slice(0, 300));
    assert.equal(JSON.parse(r.body.toString()).rowCount ?? 300_000, 300_000);
    assert.ok(tookMs > 2 * IDLE_MS, `the upload took ${tookMs} ms: it must take over twice the idle limit to show anything`);
  });

  it('cuts off a body trickled slower than the idle limit, with a 408', async () => {
    const body = 'a,b\n1,2\n3,4\n5,6\n7,8\n';
    const head = requestHead('PUT', '/v1/data/trickled', [['api-key', s.key], ['Content-Type', 'text/csv']], body.length);
    const outcome = await trickledRequest(s.url, head, body, 2 * IDLE_MS, 10_000);
    assert.ok(outcome.bytesSent < body.length, `the whole body (${body.length} bytes) was taken`);
    // One silence of 2 × the limit, plus the time it takes to notice it.
    assert.ok(outcome.closedAfterMs < 6 * IDLE_MS, `closed only after ${outcome.closedAfterMs} ms`);
    assert.equal(outcome.response?.status, 408, 'a 408 in the error shape');
    assert.equal(JSON.parse(outcome.response!.body.toString()).errorType, 'RequestTimeout');
    assert.equal((await s.call('GET', '/v1/data/trickled')).status, 404, 'nothing was stored');
  });

  it('closes the connection after answering a request whose body has not arrived yet', async () => {
    const body = 'a,b\n1,2\n3,4\n5,6\n7,8\n'.repeat(20);
    // Faster than the idle limit: only the early answer can end it.
    const head = requestHead('PUT', '/v1/data/unauthorised', [['Content-Type', 'text/csv']], body.length, 'keep-alive');
    const outcome = await trickledRequest(s.url, head, body, IDLE_MS / 3, 10_000);
    assert.equal(outcome.response?.status, 401);
    assert.equal(outcome.response?.headers.connection, 'close');
    // Before the whole-request limit (1,000 ms) could end it.
    assert.ok(outcome.closedAfterMs < 900, `the connection stayed open ${outcome.closedAfterMs} ms (${outcome.bytesSent} body bytes) after the 401`);
  });

  it('closes a keep-alive connection idle between requests after the idle limit', async () => {
    const { hostname, port } = new URL(s.url);
    const socket = connect({ host: hostname, port: Number(port) });
    const answered = new Promise<number>((resolve) => socket.once('data', () => resolve(Date.now())));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.on('error', () => {});
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const idleFrom = await answered;
    const closedAfterMs = await Promise.race([closed.then((t) => t - idleFrom), new Promise<number>((r) => setTimeout(() => r(Infinity), 10_000))]);
    socket.destroy();
    // Node adds a second to the keep-alive timeout (for clients whose own timeout is the same).
    assert.ok(closedAfterMs >= IDLE_MS * 0.8 && closedAfterMs < IDLE_MS + 1000 + 1500, `an idle keep-alive connection closed after ${closedAfterMs} ms`);
  });
});
