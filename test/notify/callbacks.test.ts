import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { startCallbackReceiver } from './callback-receiver.js';
import { outboxRows, requestModelSession, uploadIris } from './session-fixture.js';

const STATUSES = ['requested', 'started', 'completed'];

for (const backend of await backends()) {
  describe(`session status callbacks (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
      await uploadIris(s);
    });
    after(async () => { await s.close(); });

    it('POSTs the session once per status change, in order, with the webhook token', async () => {
      const receiver = await startCallbackReceiver();
      try {
        const session = await requestModelSession(s, { callbackUrl: receiver.url });
        assert.ok(session.webhookToken);
        await eventually(async () => (receiver.received.length >= 3 ? true : undefined), 60000);
        await eventually(async () => ((await outboxRows(s, session.id)).every((r) => r.delivered) ? true : undefined));
        assert.deepEqual(receiver.received.map((r) => r.body.status), STATUSES);
        for (const r of receiver.received) {
          assert.equal(r.token, session.webhookToken);
          assert.equal(r.legacyToken, session.webhookToken);
          assert.equal(r.body.sessionId, session.id);
          assert.equal(r.body.callbackUrl, receiver.url);
        }
        assert.deepEqual(receiver.received.map((r) => r.body.statusHistory.length), [1, 2, 3]);
        const now = await s.call('GET', `/v1/sessions/${session.id}`);
        assert.deepEqual(receiver.received[2]!.body, now.json, 'the last callback is the session as GET shows it');
      } finally {
        await receiver.close();
      }
    });

    it('retries a failing receiver and still delivers every event in order', async () => {
      const receiver = await startCallbackReceiver({ answer: (n) => (n < 2 ? 500 : 200) });
      try {
        const session = await requestModelSession(s, { callbackUrl: receiver.url });
        await eventually(async () => (receiver.accepted().length >= 3 ? true : undefined), 60000);
        assert.deepEqual(receiver.received.map((r) => [r.body.status, r.answered]), [
          ['requested', 500], ['requested', 500], ['requested', 200], ['started', 200], ['completed', 200],
        ]);
        const rows = await eventually(async () => {
          const r = await outboxRows(s, session.id);
          return r.every((x) => x.delivered) ? r : undefined;
        });
        assert.deepEqual(rows.map((r) => r.attempts), [3, 1, 1]);
      } finally {
        await receiver.close();
      }
    });

    it('neither loses events nor holds up sessions while a receiver is down', async () => {
      // A port that nothing listens on until the receiver comes up on it later.
      const probe = await startCallbackReceiver();
      const downUrl = probe.url;
      await probe.close();
      const healthy = await startCallbackReceiver();
      try {
        const waiting = await requestModelSession(s, { callbackUrl: downUrl });
        const other = await requestModelSession(s, { callbackUrl: healthy.url });
        await eventually(async () => (healthy.received.length >= 3 ? true : undefined), 60000);
        assert.deepEqual(healthy.received.map((r) => r.body.status), STATUSES);
        assert.equal(healthy.received.every((r) => r.body.sessionId === other.id), true);
        // The session finishes although nobody takes its callbacks.
        await eventually(async () => ((await s.call('GET', `/v1/sessions/${waiting.id}`)).json.status === 'completed' ? true : undefined), 60000);
        assert.equal((await outboxRows(s, waiting.id)).some((r) => r.delivered), false);

        const back = await startCallbackReceiver({ port: probe.port });
        try {
          await eventually(async () => (back.received.length >= 3 ? true : undefined), 30000);
          assert.deepEqual(back.received.map((r) => r.body.status), STATUSES);
          assert.equal(back.received.every((r) => r.token === waiting.webhookToken), true);
        } finally {
          await back.close();
        }
      } finally {
        await healthy.close();
      }
    });
  });

  describe(`callbacks to a private address without SIBYL_ALLOW_PRIVATE_HOSTS (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '' });
      await uploadIris(s);
    });
    after(async () => { await s.close(); });

    it('are refused when the session is requested (400 naming the address given), and nothing is created', async () => {
      const receiver = await startCallbackReceiver();
      try {
        const r = await s.call('POST', '/v1/sessions/model', {
          json: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: receiver.url },
        });
        assert.equal(r.status, 400);
        assert.equal(r.json.errorType, 'RequestValidation');
        assert.match(r.json.errorDetails.callbackUrl[0], /127\.0\.0\.1/);
        // Says an operator can allow hosts, without naming the setting to an outside caller.
        assert.match(r.json.errorDetails.callbackUrl[0], /non-public.*operator can allow/);
        assert.equal((await s.call('GET', '/v1/sessions')).json.totalCount, 0);
        assert.equal(receiver.received.length, 0);
      } finally {
        await receiver.close();
      }
    });
  });
}
