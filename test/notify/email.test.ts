import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { outboxRows, requestModelSession, uploadIris } from './session-fixture.js';

/** Headers unfolded (long lines arrive folded, RFC 5322 §2.2.3) and quoted-printable soft breaks joined. */
function readable(raw: string): string {
  return raw.replace(/\r\n(?=[ \t])/g, '').replace(/=\r\n/g, '').replace(/\r\n/g, '\n');
}

for (const backend of await backends()) {
  describe(`e-mail when a model session ends (${backend})`, () => {
    let smtp: SmtpSink;
    let s: TestServer;
    before(async () => {
      smtp = await startSmtpSink();
      s = await startTestServer(backend, { SIBYL_SMTP_URL: smtp.url });
    });
    after(async () => {
      await s.close();
      await smtp.close();
    });

    it('sends the account holder one message with the session, data set, domain and F1 score', async () => {
      const account = await s.server.services.accounts.createAccount('holder@example.test');
      const { key } = await s.server.services.accounts.createKey(account.id);
      await uploadIris(s, key);
      const session = await requestModelSession(s, { key });
      const mail = await eventually(async () => smtp.received.find((m) => m.raw.includes(session.id)), 60000);
      assert.deepEqual(mail.rcptTo, ['holder@example.test']);
      const text = readable(mail.raw);
      assert.equal(/^Subject: (.*)$/m.exec(text)?.[1], `Sibyl: classification session ${session.id} on iris completed`);
      assert.match(text, /^Data set: iris$/m);
      const results = await s.call('GET', `/v1/sessions/${session.id}/results`, { headers: { 'api-key': key } });
      const f1 = results.json.metrics.macroAverageF1Score as number;
      assert.equal(typeof f1, 'number');
      const mailed = Number(/^macroAverageF1Score: (\S+)$/m.exec(text)?.[1]);
      assert.ok(Math.abs(mailed - f1) < 1e-5, `mailed ${mailed}, results ${f1}`);
      await eventually(async () => ((await outboxRows(s, session.id)).every((r) => r.delivered) ? true : undefined));
      assert.equal(smtp.received.filter((m) => m.raw.includes(session.id)).length, 1);
    });

    it('sends nothing for an account without an e-mail address', async () => {
      await uploadIris(s);
      const session = await requestModelSession(s);
      await eventually(async () => ((await s.call('GET', `/v1/sessions/${session.id}`)).json.status === 'completed' ? true : undefined), 60000);
      assert.deepEqual(await outboxRows(s, session.id), []);
    });
  });

  describe(`e-mail without SIBYL_SMTP_URL (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend, { SIBYL_SMTP_URL: '' }); });
    after(async () => { await s.close(); });

    it('is logged and counted as delivered', async () => {
      const account = await s.server.services.accounts.createAccount('nomail@example.test');
      const { key } = await s.server.services.accounts.createKey(account.id);
      await uploadIris(s, key);
      const session = await requestModelSession(s, { key });
      const rows = await eventually(async () => {
        const r = await outboxRows(s, session.id);
        return r.length === 1 && r[0]!.delivered ? r : undefined;
      }, 60000);
      assert.equal(rows[0]!.kind, 'email');
      assert.equal(rows[0]!.attempts, 1);
    });
  });
}
