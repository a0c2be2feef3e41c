/**
 * Background work leaves a trace: one log line when a session or an import is claimed, completes or
 * fails, and when a status callback fails (attempt, next try) — with ids, never a password or a body.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { capturedLog, eventually, finishedSession, startTestServer, type TestServer } from '../support/server.js';
import { requestModelSession, uploadIris } from '../notify/session-fixture.js';

describe('log of background work', () => {
  const captured = capturedLog();
  let s: TestServer;
  let receiver: Server;
  let files: string;
  before(async () => {
    // Answers every callback with 500, and every file with 401.
    receiver = createServer((req, res) => { req.resume(); res.statusCode = req.method === 'POST' ? 500 : 401; res.end('no'); });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    files = `127.0.0.1:${(receiver.address() as { port: number }).port}`;
    s = await startTestServer('pglite', { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { log: captured.log });
  });
  after(async () => { await s.close(); receiver.close(); });

  const lineAbout = (field: string, id: string, msg: RegExp) => eventually(async () => captured.lines().find((l) => l[field] === id && msg.test(String(l.msg))));

  it('an import: started, then failed with its reason, without the password of its URL', async () => {
    const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: 'locked', url: `http://bob:Pa55wordInUrl@${files}/x.csv` } });
    assert.equal(r.status, 200, r.text);
    const id = r.json.importId;
    const started = await lineAbout('importId', id, /^import started$/);
    assert.equal(started.level, 30);
    const failed = await lineAbout('importId', id, /^import failed$/);
    assert.equal(failed.level, 40);
    assert.match(String(failed.reason), /HTTP 401/);
    assert.equal(failed.dataSetName, 'locked');
    assert.doesNotMatch(captured.text(), /Pa55wordInUrl/);
  });

  it('a session: claimed, completed; its failing callback: each failed attempt with the host and the next try', async () => {
    await uploadIris(s);
    const { id } = await requestModelSession(s, { callbackUrl: `http://${files}/hook?token=callbacksecret` });
    assert.equal((await finishedSession(s, id)).status, 'completed');
    assert.equal((await lineAbout('sessionId', id, /^session claimed$/)).level, 30);
    const completed = await lineAbout('sessionId', id, /^session completed$/);
    assert.equal(typeof completed.seconds, 'number');
    const retry = await lineAbout('sessionId', id, /^notification delivery failed; it is tried again$/);
    assert.equal(retry.level, 40);
    assert.equal(retry.to, files);
    assert.equal(retry.attempt, 1);
    assert.ok(Date.parse(String(retry.nextAttemptAt)) > Number(retry.time), "the next attempt is later");
    assert.match(String(retry.reason), /HTTP 500/);
    assert.doesNotMatch(captured.text(), /callbacksecret/, 'the callback URL\'s query is not logged');
    // One line per outcome: no line per poll or per row.
    assert.ok(captured.lines().filter((l) => l.sessionId === id).length < 12, captured.text());
  });
});
