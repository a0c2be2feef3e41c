/**
 * The account area's change-password and change-address forms ask for the current password: with
 * a stolen session cookie they were an unlimited password oracle. Wrong guesses are limited per
 * account (10 in 15 minutes) and per client address (30), counted in the database like sign-ins,
 * with a 429 TooManyAttempts and Retry-After; once the window has passed the right password works.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { BrowserSession } from '../support/browser-session.js';

const PASSWORD = 'a perfectly fine passphrase';

describe('guessing the current password in the account area', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  const changePassword = (b: BrowserSession, currentPassword: string) =>
    b.call('POST', '/auth/account/password', { json: { currentPassword, newPassword: 'another fine passphrase' } });
  const changeEmail = (b: BrowserSession, currentPassword: string) =>
    b.call('POST', '/auth/account/email', { json: { currentPassword, email: 'elsewhere@example.org' } });
  /** The limits' window (15 minutes) passes: the recorded attempts are moved before it. */
  const windowPasses = () => s.server.services.db.query(`UPDATE auth_attempts SET at = at - interval '16 minutes'`);

  it('refuses an account\'s 11th guess with a 429 and Retry-After, the right password too, until the window passes', async () => {
    const b = new BrowserSession(s.url);
    assert.equal((await b.signUp('victim@example.org', PASSWORD)).status, 201);
    for (let i = 0; i < 10; i++) {
      const r = await (i % 2 ? changeEmail : changePassword)(b, `guess number ${i}`);
      assert.equal(r.status, 400, `guess ${i}: ${r.text}`);
      assert.ok(r.json.errorDetails.currentPassword, 'says the current password is wrong');
    }
    const limited = await changeEmail(b, 'guess number 10');
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.json.statusCode, 429);
    assert.equal(limited.json.errorType, 'TooManyAttempts');
    assert.ok(Number(limited.headers.get('retry-after')) > 0, 'Retry-After');
    assert.equal((await changePassword(b, PASSWORD)).status, 429, 'the right password waits too');
    await windowPasses();
    assert.equal((await changePassword(b, PASSWORD)).status, 204, 'after the window the right password works');
  });

  it('refuses a client that guesses across accounts past 30 attempts', async () => {
    await windowPasses();
    const sessions: BrowserSession[] = [];
    for (let i = 0; i < 4; i++) {
      const b = new BrowserSession(s.url);
      assert.equal((await b.signUp(`account${i}@example.org`, PASSWORD)).status, 201);
      sessions.push(b);
    }
    for (const b of sessions.slice(0, 3)) {
      for (let i = 0; i < 10; i++) assert.equal((await changePassword(b, `guess number ${i}`)).status, 400);
    }
    const limited = await changePassword(sessions[3]!, PASSWORD);
    assert.equal(limited.status, 429, `a fourth account from the same address: ${limited.text}`);
    assert.equal(limited.json.errorType, 'TooManyAttempts');
  });
});
