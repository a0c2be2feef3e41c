/**
 * Dashboard accounts over HTTP on a real server, on both stores: sign-up and sign-in, the cookie
 * and its CSRF token on /v1, account isolation, API keys, sign-out, attempt limits, closed sign-up.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { BrowserSession } from '../support/browser-session.js';

function assertErrorShape(body: any, status: number, errorType: string): void {
  assert.equal(body?.statusCode, status);
  assert.equal(body.errorType, errorType);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.errorDetails, 'object');
}

const CSV = 'x,y\n1,2\n3,4\n';

for (const backend of await backends()) {
  describe(`dashboard accounts (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('signs up with an HttpOnly SameSite cookie, a CSRF token and a scrypt hash (never the password)', async () => {
      const b = new BrowserSession(s.url);
      const r = await b.signUp('Ada@Example.org');
      assert.equal(r.status, 201);
      assert.equal(r.json.account.email, 'ada@example.org', 'addresses are kept in lower case');
      assert.equal(r.json.account.plan, 'community');
      assert.match(r.json.csrfToken, /^[\w-]{40,}$/);
      assert.match(b.setCookie ?? '', /^sibyl_session=[\w-]{40,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
      const [row] = await s.server.services.db.query<{ password_hash: string }>(`SELECT password_hash FROM accounts WHERE email = 'ada@example.org'`);
      assert.match(row!.password_hash, /^\$scrypt\$ln=15,r=8,p=3\$[\w-]{22}\$[\w-]{43}$/);
      const sessions = await s.server.services.db.query<{ token_hash: string }>('SELECT token_hash FROM web_sessions');
      assert.ok(sessions.every((x) => !b.cookie.includes(x.token_hash)), 'only the hash of the cookie token is stored');
      const me = await b.call('GET', '/auth/session');
      assert.equal(me.status, 200);
      assert.equal(me.json.account.email, 'ada@example.org');
    });

    it('refuses a taken address (any case), a short password and a malformed address, in the error shape', async () => {
      const b = new BrowserSession(s.url);
      const taken = await b.signUp('ADA@example.org');
      assert.equal(taken.status, 409);
      assertErrorShape(taken.json, 409, 'Conflict');
      const short = await b.signUp('bob@example.org', 'short');
      assert.equal(short.status, 400);
      assertErrorShape(short.json, 400, 'RequestValidation');
      assert.match(short.json.errorDetails.password[0], /at least 10 characters/);
      const bad = await b.signUp('not-an-address', 'long enough password');
      assert.equal(bad.status, 400);
      assert.ok(bad.json.errorDetails.email);
      const form = await b.call('POST', '/auth/signup', { body: 'email=x@example.org&password=long+enough+password', headers: { 'content-type': 'text/plain' } });
      assert.equal(form.status, 400, 'a non-JSON body (what a cross-site form can send) is refused');
      assert.equal(b.cookie, '', 'no session was started by any of them');
    });

    it('signs in with the right password only, saying the same for an unknown address', async () => {
      const b = new BrowserSession(s.url);
      const wrong = await b.signIn('ada@example.org', 'not the password at all');
      const unknown = await b.signIn('nobody@example.org', 'not the password at all');
      for (const r of [wrong, unknown]) {
        assert.equal(r.status, 401);
        assertErrorShape(r.json, 401, 'InvalidCredentials');
      }
      assert.equal(wrong.json.message, unknown.json.message);
      const ok = await b.signIn('ADA@example.org');
      assert.equal(ok.status, 200);
      assert.ok(b.cookie);
    });

    it('authenticates /v1 with the cookie, but changes state only with the CSRF token and from this site', async () => {
      const b = new BrowserSession(s.url);
      await b.signIn('ada@example.org');
      assert.equal((await b.call('GET', '/v1/data')).status, 200);
      const noToken = await b.call('PUT', '/v1/data/mine', { body: CSV, headers: { 'content-type': 'text/csv' }, csrf: false });
      assert.equal(noToken.status, 403);
      assertErrorShape(noToken.json, 403, 'CsrfTokenMissing');
      const wrongToken = await b.call('PUT', '/v1/data/mine', { body: CSV, headers: { 'content-type': 'text/csv', 'x-csrf-token': 'x'.repeat(43) } });
      assert.equal(wrongToken.status, 403);
      const crossSite = await b.call('PUT', '/v1/data/mine', { body: CSV, headers: { 'content-type': 'text/csv', origin: 'https://evil.example' } });
      assert.equal(crossSite.status, 403);
      assertErrorShape(crossSite.json, 403, 'CrossSiteRequest');
      assert.equal((await b.call('GET', '/v1/data/mine')).status, 404, 'none of the refused uploads created anything');
      const ok = await b.call('PUT', '/v1/data/mine', { body: CSV, headers: { 'content-type': 'text/csv', origin: s.url } });
      assert.equal(ok.status, 201);
      assert.equal(ok.headers.get('nexosis-account-datasetcount-current'), '1', 'quota headers on cookie answers too');
      const login = await new BrowserSession(s.url).call('POST', '/auth/signin', { json: { email: 'ada@example.org', password: 'a perfectly fine passphrase' }, headers: { origin: 'https://evil.example' } });
      assert.equal(login.status, 403, 'no sign-in from another site');
    });

    it('keeps accounts apart: data, sessions, keys', async () => {
      const ada = new BrowserSession(s.url);
      await ada.signIn('ada@example.org');
      const eve = new BrowserSession(s.url);
      assert.equal((await eve.signUp('eve@example.org')).status, 201);
      assert.equal((await eve.call('GET', '/v1/data/mine')).status, 404);
      assert.equal((await eve.call('DELETE', '/v1/data/mine')).status, 404);
      assert.equal((await eve.call('GET', '/v1/data')).json.totalCount, 0);
      const adaKey = await ada.call('POST', '/auth/keys', { json: { label: 'ada laptop' } });
      assert.equal(adaKey.status, 201);
      const eveKeys = await eve.call('GET', '/auth/keys');
      assert.deepEqual(eveKeys.json.items, []);
      const steal = await eve.call('DELETE', `/auth/keys/${adaKey.json.keyId}`);
      assert.equal(steal.status, 404);
      assertErrorShape(steal.json, 404, 'NotFound');
      assert.equal((await s.call('GET', '/v1/data/mine', { headers: { 'api-key': adaKey.json.apiKey } })).status, 200, "Ada's key still works");
      assert.equal((await s.call('GET', '/v1/data/mine')).status, 404, 'the first account does not see it either');
      const sessions = await eve.call('GET', '/v1/sessions');
      assert.equal(sessions.json.totalCount, 0);
    });

    it('creates keys shown once, lists them by prefix and label, and revokes them', async () => {
      const b = new BrowserSession(s.url);
      await b.signUp('keys@example.org');
      const created = await b.call('POST', '/auth/keys', { json: { label: 'nightly job' } });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('cache-control'), 'no-store');
      const { apiKey, keyId, prefix } = created.json;
      assert.ok(apiKey.startsWith(prefix), 'the prefix is the start of the key');
      const list = await b.call('GET', '/auth/keys');
      assert.equal(list.json.items.length, 1);
      assert.deepEqual(Object.keys(list.json.items[0]).sort(), ['createdDate', 'keyId', 'label', 'prefix', 'revokedDate']);
      assert.ok(!list.text.includes(apiKey), 'the key itself is never listed');
      assert.equal(list.json.items[0].label, 'nightly job');
      assert.equal((await s.call('GET', '/v1/data', { headers: { 'api-key': apiKey } })).status, 200);
      assert.equal((await b.call('DELETE', `/auth/keys/${keyId}`, { csrf: false })).status, 403, 'revoking needs the CSRF token');
      assert.equal((await b.call('DELETE', `/auth/keys/${keyId}`)).status, 204);
      assert.equal((await s.call('GET', '/v1/data', { headers: { 'api-key': apiKey } })).status, 401);
      assert.ok((await b.call('GET', '/auth/keys')).json.items[0].revokedDate);
      assert.equal((await b.call('DELETE', `/auth/keys/${keyId}`)).status, 404, 'a revoked key cannot be revoked again');
      assert.equal((await s.call('GET', '/auth/keys')).status, 401, 'an api-key does not open the account area');
    });

    it('signs out: the cookie is cleared and its session ends on the server', async () => {
      const b = new BrowserSession(s.url);
      await b.signIn('keys@example.org');
      const cookie = b.cookie;
      assert.equal((await b.call('POST', '/auth/signout')).status, 204);
      assert.match(b.setCookie ?? '', /sibyl_session=;.*Expires=Thu, 01 Jan 1970/);
      const replay = await fetch(`${s.url}/v1/data`, { headers: { cookie } });
      assert.equal(replay.status, 401, 'the old cookie no longer works');
    });

    it('limits sign-in attempts per address with a 429 and Retry-After, even for the right password', async () => {
      const b = new BrowserSession(s.url);
      await b.signUp('target@example.org');
      const attacker = new BrowserSession(s.url);
      for (let i = 0; i < 10; i++) assert.equal((await attacker.signIn('target@example.org', `guess number ${i}!`)).status, 401);
      const limited = await attacker.signIn('target@example.org', 'guess number 11!');
      assert.equal(limited.status, 429);
      assertErrorShape(limited.json, 429, 'TooManyAttempts');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal((await attacker.signIn('target@example.org')).status, 429, 'the right password waits too');
      assert.equal((await b.call('GET', '/auth/session')).status, 200, 'a browser already signed in stays signed in');
    });

    it('changes password (signing out other browsers) and settings', async () => {
      const one = new BrowserSession(s.url);
      await one.signUp('changer@example.org');
      const two = new BrowserSession(s.url);
      await two.signIn('changer@example.org');
      const wrong = await one.call('POST', '/auth/account/password', { json: { currentPassword: 'wrong password', newPassword: 'another fine passphrase' } });
      assert.equal(wrong.status, 400);
      assert.ok(wrong.json.errorDetails.currentPassword);
      assert.equal((await one.call('POST', '/auth/account/password', { json: { currentPassword: 'a perfectly fine passphrase', newPassword: 'another fine passphrase' } })).status, 204);
      assert.equal((await one.call('GET', '/auth/session')).status, 200, 'this browser stays signed in');
      assert.equal((await two.call('GET', '/auth/session')).status, 401, 'the other one is signed out');
      assert.equal((await new BrowserSession(s.url).signIn('changer@example.org', 'another fine passphrase')).status, 200);
      const off = await one.call('PATCH', '/auth/account', { json: { notifySessionEmail: false } });
      assert.equal(off.json.settings.notifySessionEmail, false);
      const account = await one.call('GET', '/auth/account');
      assert.deepEqual(account.json.usage, { dataSets: 0, sessionsThisMonth: 0, predictionsToday: 0 });
      assert.equal(account.json.plan.name, 'community');
    });
  });
}

describe('closed sign-up', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite', { SIBYL_SIGNUP: 'closed' }); });
  after(async () => { await s.close(); });

  it('refuses sign-up with 403 and says so in /auth/config; operator-made accounts still sign in', async () => {
    const b = new BrowserSession(s.url);
    const r = await b.signUp('new@example.org');
    assert.equal(r.status, 403);
    assertErrorShape(r.json, 403, 'SignUpClosed');
    assert.deepEqual((await b.call('GET', '/auth/config')).json, { signupOpen: false, mailEnabled: false });
    const account = await s.server.services.accounts.createAccount('invited@example.org');
    const link = await s.server.services.auth.operatorPasswordLink(account.id);
    const token = /#token=([\w-]+)$/.exec(link)![1];
    const set = await b.call('POST', '/auth/reset', { json: { token, password: 'chosen by the invitee' } });
    assert.equal(set.status, 200);
    assert.equal(set.json.account.email, 'invited@example.org');
    assert.equal((await new BrowserSession(s.url).signIn('invited@example.org', 'chosen by the invitee')).status, 200);
  });
});
