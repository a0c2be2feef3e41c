import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseAllowedHosts } from '../../src/outbound/allowed-hosts.js';
import { OutboundFailed, OutboundRefused } from '../../src/outbound/errors.js';
import { postJson } from '../../src/outbound/post-json.js';
import { startLocalServer, type LocalServer } from './local-server.js';

describe('postJson against a server on 127.0.0.1', () => {
  let server: LocalServer;
  const received: { path: string; headers: Record<string, unknown>; body: string }[] = [];

  before(async () => {
    server = await startLocalServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/moved') res.writeHead(307, { location: '/hook' }).end();
      else if (req.url === '/broken') res.writeHead(500).end('boom');
      else if (req.url === '/silent') return;
      else if (req.url === '/chatty') res.writeHead(200).end(Buffer.alloc(1_000_000, 'x'));
      else res.writeHead(204).end();
    });
  });

  after(() => server.close());

  const allow = { allowHosts: parseAllowedHosts('127.0.0.1'), timeoutMs: 5_000 };
  const session = { sessionId: 's-1', status: 'completed' };

  test('posts the JSON body with the caller headers', async () => {
    const result = await postJson(server.url('/hook'), session, {
      ...allow,
      headers: { 'Service-Webhook-Token': 'tok-123' },
    });
    assert.deepEqual(result, { status: 204 });
    const last = received.at(-1)!;
    assert.equal(last.path, '/hook');
    assert.deepEqual(JSON.parse(last.body), session);
    assert.equal(last.headers['content-type'], 'application/json');
    assert.equal(last.headers['service-webhook-token'], 'tok-123');
  });

  test('a non-public callback address is refused unless allow-listed', async () => {
    const before = received.length;
    await assert.rejects(
      postJson(server.url('/hook'), session, { allowHosts: new Set(), timeoutMs: 5_000 }),
      (err: unknown) => err instanceof OutboundRefused && /127\.0\.0\.1 .* loopback/.test(err.message),
    );
    await assert.rejects(
      postJson(server.url('/hook', 'localhost'), session, allow),
      (err: unknown) => err instanceof OutboundRefused && /host localhost is loopback/.test(err.message),
    );
    assert.equal(received.length, before);
  });

  test('redirects are not followed', async () => {
    const before = received.length;
    assert.deepEqual(await postJson(server.url('/moved'), session, allow), { status: 307 });
    assert.equal(received.length, before + 1);
  });

  test('an error status rejects with OutboundFailed carrying it', async () => {
    await assert.rejects(postJson(server.url('/broken'), session, allow), (err: unknown) => {
      assert.ok(err instanceof OutboundFailed);
      assert.equal(err.status, 500);
      assert.match(err.message, /^POST http:\/\/127\.0\.0\.1:\d+\/broken: HTTP 500 Internal Server Error$/);
      return true;
    });
  });

  test('a large reply body is discarded without failing the callback', async () => {
    assert.deepEqual(await postJson(server.url('/chatty'), session, allow), { status: 200 });
  });

  test('a receiver that never answers times out', async () => {
    await assert.rejects(
      postJson(server.url('/silent'), session, { ...allow, timeoutMs: 300 }),
      (err: unknown) => err instanceof OutboundFailed && /timed out after 300 ms$/.test(err.message),
    );
  });
});
