import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createMailer, type MailLog } from '../../src/notify/mailer.js';

interface Received {
  mailFrom: string;
  rcptTo: string[];
  user: string | undefined;
  raw: string;
}

function recordingLog(): MailLog & { entries: { details: object; message: string }[] } {
  const entries: { details: object; message: string }[] = [];
  return { entries, info: (details, message) => entries.push({ details, message }) };
}

const message = {
  to: 'owner@example.test',
  subject: 'Model session s-42 completed',
  text: 'Session s-42 has completed.',
};

describe('createMailer with an SMTP server on 127.0.0.1', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;

  before(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'ann' && auth.password === 's3cret:/') callback(null, { user: auth.username });
        else callback(new Error('invalid credentials'));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@refused.test')) callback(new Error('no such mailbox'));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
      logger: false,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('delivers the message with the sender from the URL', async () => {
    const log = recordingLog();
    const mailer = createMailer(`smtp://127.0.0.1:${port}?from=sibyl%40example.test`, log);
    await mailer.send(message);
    const mail = received.at(-1)!;
    assert.equal(mail.mailFrom, 'sibyl@example.test');
    assert.deepEqual(mail.rcptTo, ['owner@example.test']);
    assert.match(mail.raw, /^Subject: Model session s-42 completed\r$/m);
    assert.match(mail.raw, /^From: sibyl@example\.test\r$/m);
    assert.match(mail.raw, /Session s-42 has completed\./);
    assert.equal(log.entries.length, 0);
  });

  test('authenticates with the credentials in the URL', async () => {
    const mailer = createMailer(`smtp://ann:${encodeURIComponent('s3cret:/')}@127.0.0.1:${port}`, recordingLog());
    await mailer.send(message);
    const mail = received.at(-1)!;
    assert.equal(mail.user, 'ann');
    assert.equal(mail.mailFrom, 'sibyl@localhost');
  });

  test('a refused recipient rejects the send', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${port}`, recordingLog());
    const count = received.length;
    await assert.rejects(mailer.send({ ...message, to: 'nobody@refused.test' }), /no such mailbox/);
    assert.equal(received.length, count);
  });
});

test('without SIBYL_SMTP_URL the message is logged instead of sent', async () => {
  for (const smtpUrl of [undefined, '', '  ']) {
    const log = recordingLog();
    await createMailer(smtpUrl, log).send(message);
    assert.deepEqual(log.entries, [{ details: { mail: message }, message: 'e-mail not sent: SIBYL_SMTP_URL is not set' }]);
  }
});

test('a malformed SIBYL_SMTP_URL fails at creation without echoing it', () => {
  assert.throws(() => createMailer('smtp://user:pw@[bad', recordingLog()), (err: Error) => !err.message.includes('pw'));
  assert.throws(() => createMailer('http://mail.example.test', recordingLog()), /smtp: or smtps:/);
});
