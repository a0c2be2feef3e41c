import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { startCallbackReceiver } from './callback-receiver.js';
import { requestModelSession, uploadIris } from './session-fixture.js';
import { CALLBACK_TIMEOUT_MS } from '../../src/notify/deliverer.js';

describe('a callback receiver slower than the callback timeout', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite', { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    await uploadIris(s);
  });
  after(async () => { await s.close(); });

  it('holds up neither its session nor other receivers, and gets every event after the timeout', async () => {
    // The first request is answered only after the deliverer has given up on it.
    const slow = await startCallbackReceiver({ holdMs: (n) => (n === 0 ? CALLBACK_TIMEOUT_MS + 5000 : 0) });
    const healthy = await startCallbackReceiver();
    try {
      const held = await requestModelSession(s, { callbackUrl: slow.url });
      const other = await requestModelSession(s, { callbackUrl: healthy.url });
      await eventually(async () => (healthy.received.length >= 3 ? true : undefined), 30000);
      assert.deepEqual(healthy.received.map((r) => [r.body.sessionId, r.body.status]), [
        [other.id, 'requested'], [other.id, 'started'], [other.id, 'completed'],
      ]);
      const meanwhile = await s.call('GET', `/v1/sessions/${held.id}`);
      assert.equal(meanwhile.json.status, 'completed');
      assert.equal(slow.received.length, 1, 'all of that while the first callback was still hanging');

      await eventually(async () => (slow.received.length >= 4 ? true : undefined), 30000);
      assert.deepEqual(slow.received.map((r) => r.body.status), ['requested', 'requested', 'started', 'completed']);
    } finally {
      await slow.close();
      await healthy.close();
    }
  });
});
