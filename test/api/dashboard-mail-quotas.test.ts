/**
 * What configuration turns on: e-mail verification and password reset through SIBYL_SMTP_URL, the
 * first account's address from SIBYL_ADMIN_EMAIL, plan quotas (429/413 in the error shape and the
 * usage headers), and the dashboard served at / beside the API.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { backends } from '../support/backends.js';
import { completedSession, eventually, startTestServer, type TestServer } from '../support/server.js';
import { BrowserSession } from '../support/browser-session.js';
import { startSmtpSink, type SmtpSink } from '../notify/smtp-sink.js';
import { webDistDir } from '../../src/api/web-ui.js';

/** The link in a received message, with quoted-printable soft breaks and escapes undone. */
function linkIn(raw: string, path: string): string {
  const text = raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  const m = new RegExp(`https?://[^\\s]+${path}#token=([\\w-]+)`).exec(text);
  assert.ok(m, `a ${path} link in the message`);
  return m[1]!;
}

for (const backend of await backends()) {
  describe(`account e-mail: verification and reset (${backend})`, () => {
    let smtp: SmtpSink;
    let s: TestServer;
    before(async () => {
      smtp = await startSmtpSink();
      s = await startTestServer(backend, { SIBYL_SMTP_URL: smtp.url, SIBYL_PUBLIC_URL: 'https://sibyl.example.org' });
    });
    after(async () => { await s.close(); await smtp.close(); });

    it('mails a verification link on sign-up that confirms the address once', async () => {
      const b = new BrowserSession(s.url);
      const r = await b.signUp('verify-me@example.org');
      assert.equal(r.json.account.emailVerified, false);
      const mail = await eventually(async () => smtp.received.find((m) => m.rcptTo.includes('verify-me@example.org')), 30_000);
      assert.match(mail.raw, /https:\/\/sibyl\.example\.org\/verify#token=/, 'links use SIBYL_PUBLIC_URL, never the request Host');
      const token = linkIn(mail.raw, '/verify');
      assert.equal((await new BrowserSession(s.url).call('POST', '/auth/verify', { json: { token } })).status, 204);
      assert.equal((await b.call('GET', '/auth/session')).json.account.emailVerified, true);
      const again = await new BrowserSession(s.url).call('POST', '/auth/verify', { json: { token } });
      assert.equal(again.status, 400, 'a link works once');
      const [outbox] = await s.server.services.db.query<{ payload: string }>(`SELECT payload FROM outbox WHERE kind = 'mail' AND target = 'verify-me@example.org'`);
      assert.equal(outbox!.payload, '', 'the delivered message (and its link) is not kept');
    });

    it('mails a reset link that sets a new password and signs out every other browser; unknown addresses get the same answer', async () => {
      const old = new BrowserSession(s.url);
      await old.signUp('forgetful@example.org');
      const before = smtp.received.length;
      const unknown = await new BrowserSession(s.url).call('POST', '/auth/forgot', { json: { email: 'nobody@example.org' } });
      const known = await new BrowserSession(s.url).call('POST', '/auth/forgot', { json: { email: 'Forgetful@example.org' } });
      assert.equal(unknown.status, 202);
      assert.equal(known.status, 202);
      const mail = await eventually(async () => smtp.received.slice(before).find((m) => m.rcptTo.includes('forgetful@example.org') && m.raw.includes('/reset#token=')), 30_000);
      const token = linkIn(mail.raw, '/reset');
      const fresh = new BrowserSession(s.url);
      const short = await fresh.call('POST', '/auth/reset', { json: { token, password: 'short' } });
      assert.equal(short.status, 400, 'a too-short password does not use up the link');
      const reset = await fresh.call('POST', '/auth/reset', { json: { token, password: 'remembered this time' } });
      assert.equal(reset.status, 200);
      assert.equal(reset.json.account.emailVerified, true, 'receiving the link proves the address');
      assert.equal((await old.call('GET', '/auth/session')).status, 401, 'the browser signed in before is signed out');
      assert.equal((await fresh.call('GET', '/auth/session')).status, 200);
      assert.equal((await new BrowserSession(s.url).signIn('forgetful@example.org', 'remembered this time')).status, 200);
      assert.ok(!smtp.received.some((m) => m.rcptTo.includes('nobody@example.org')), 'nothing was sent to an address without an account');
    });
  });
}

describe('SIBYL_ADMIN_EMAIL and the first account', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite', { SIBYL_ADMIN_EMAIL: 'Operator@Example.org' }); });
  after(async () => { await s.close(); });

  it('gives the first account the address, the unlimited plan and a set-password link', async () => {
    const first = (await s.server.services.accounts.listAccounts())[0]!;
    assert.equal(first.email, 'operator@example.org');
    assert.ok(first.emailVerifiedAt, 'the operator gave the address: no verification needed');
    assert.equal(first.plan, 'unlimited');
    const link = s.server.adminPasswordLink;
    assert.ok(link);
    const b = new BrowserSession(s.url);
    const set = await b.call('POST', '/auth/reset', { json: { token: /#token=([\w-]+)$/.exec(link)![1], password: 'the operator password' } });
    assert.equal(set.status, 200);
    assert.equal(set.json.account.accountId, first.id);
    assert.equal((await s.call('PUT', '/v1/data/by-key', { body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } })).status, 201);
    assert.equal((await b.call('GET', '/v1/data/by-key')).status, 200, 'the browser sees what the API key uploaded: one account');
  });
});

describe('plan quotas', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite', {
      SIBYL_PLAN_DATASETS: '1', SIBYL_PLAN_SESSIONS_PER_MONTH: '1', SIBYL_PLAN_PREDICTIONS_PER_DAY: '3', SIBYL_PLAN_UPLOAD_BYTES: '4000',
    });
  });
  after(async () => { await s.close(); });

  it('answers 429 in the error shape past each quota, 413 past the upload size, and shows them in the headers', async () => {
    const b = new BrowserSession(s.url);
    await b.signUp('quota@example.org');
    const { apiKey } = (await b.call('POST', '/auth/keys', { json: {} })).json;
    const api = (method: string, path: string, opts: { json?: unknown; body?: string; headers?: Record<string, string> } = {}) => s.call(method, path, { ...opts, headers: { 'api-key': apiKey, ...opts.headers } });
    const rows = ['x,y', ...Array.from({ length: 60 }, (_, i) => `${i},${2 * i + (i % 3)}`)].join('\n');
    const first = await api('PUT', '/v1/data/line', { body: rows, headers: { 'content-type': 'text/csv' } });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('nexosis-account-datasetcount-allotted'), '1');
    assert.equal(first.headers.get('nexosis-account-datasetsize-allotted'), '4000');
    const second = await api('PUT', '/v1/data/other', { body: 'x,y\n1,2\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(second.status, 429);
    assert.equal(second.json.errorType, 'QuotaExceeded');
    assert.equal(second.json.errorDetails.quota, 'dataSets');
    const big = await api('PUT', '/v1/data/line', { body: `x,y\n${'1,2\n'.repeat(2000)}`, headers: { 'content-type': 'text/csv' } });
    assert.equal(big.status, 413);
    assert.equal(big.json.errorDetails.limitBytes, 4000);
    assert.equal((await api('GET', '/v1/data/line')).json.totalCount, 60, 'the refused upload changed nothing');

    const session = await api('POST', '/v1/sessions/model', { json: { dataSourceName: 'line', predictionDomain: 'regression', targetColumn: 'y' } });
    assert.equal(session.status, 200);
    const more = await api('POST', '/v1/sessions/model', { json: { dataSourceName: 'line', predictionDomain: 'regression', targetColumn: 'y' } });
    assert.equal(more.status, 429);
    assert.equal(more.json.errorDetails.quota, 'sessionsPerMonth');
    assert.equal(more.headers.get('nexosis-account-sessioncount-current'), '1');
    assert.equal((await api('DELETE', `/v1/sessions/${session.json.sessionId}`)).status, 204);
    const afterDelete = await api('POST', '/v1/sessions/model', { json: { dataSourceName: 'line', predictionDomain: 'regression', targetColumn: 'y' } });
    assert.equal(afterDelete.status, 429, 'deleting a session does not give its start back');

    const again = await api('POST', '/v1/sessions/model', { json: { dataSourceName: 'line', predictionDomain: 'regression', targetColumn: 'y' }, headers: { 'api-key': s.key } });
    assert.equal(again.status, 404, 'the first account (unlimited plan) cannot see the data set either');
    await api('DELETE', '/v1/data/line');
    // A model to predict with: the unlimited first account trains it, the community account cannot.
    assert.equal((await s.call('PUT', '/v1/data/line', { body: rows, headers: { 'content-type': 'text/csv' } })).status, 201);
    const own = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'line', predictionDomain: 'regression', targetColumn: 'y' } });
    const done = await completedSession(s, own.json.sessionId);
    const predict = (key: string, n: number) => s.call('POST', `/v1/models/${done.modelId}/predict`, { json: { data: Array.from({ length: n }, (_, i) => ({ x: i })) }, headers: { 'api-key': key } });
    assert.equal((await predict(s.key, 5)).status, 200, 'the unlimited plan is not held to 3 a day');
    assert.equal((await predict(apiKey, 2)).status, 404, "another account's model is not found");
  });

  it('holds predictions to the plan per day', async () => {
    const b = new BrowserSession(s.url);
    await b.signUp('predictor@example.org');
    const { apiKey } = (await b.call('POST', '/auth/keys', { json: {} })).json;
    const rows = ['x,y', ...Array.from({ length: 40 }, (_, i) => `${i},${3 * i}`)].join('\n');
    assert.equal((await s.call('PUT', '/v1/data/mine', { body: rows, headers: { 'content-type': 'text/csv', 'api-key': apiKey } })).status, 201);
    const started = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'mine', predictionDomain: 'regression', targetColumn: 'y' }, headers: { 'api-key': apiKey } });
    const done = await completedSession({ ...s, call: (m, p, o = {}) => s.call(m, p, { ...o, headers: { 'api-key': apiKey, ...o.headers } }) }, started.json.sessionId);
    const predict = (n: number) => s.call('POST', `/v1/models/${done.modelId}/predict`, { json: { data: Array.from({ length: n }, (_, i) => ({ x: i })) }, headers: { 'api-key': apiKey } });
    assert.equal((await predict(2)).status, 200);
    const over = await predict(2);
    assert.equal(over.status, 429);
    assert.equal(over.json.errorType, 'QuotaExceeded');
    assert.equal(over.json.errorDetails.quota, 'predictionsPerDay');
    assert.equal((await predict(1)).status, 200, 'what is left of the day can still be used');
    assert.equal((await b.call('GET', '/auth/account')).json.usage.predictionsToday, 3);
  });
});

describe('the dashboard at /', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('serves the app for its own paths with a strict content security policy, and leaves the API as it was', { skip: existsSync(`${webDistDir()}/index.html`) ? false : 'web/dist is not built (npm run build:web)' }, async () => {
    for (const path of ['/', '/signin', '/data/sales', '/sessions/new', '/sessions/0b7f5c43-1111-4a4a-9a9a-000000000000', '/models/x', '/account', '/reset']) {
      const r = await fetch(s.url + path);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(r.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
      const html = await r.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert.ok(script, 'the page loads its script from /assets');
      const js = await fetch(s.url + script);
      assert.equal(js.status, 200);
      assert.match(js.headers.get('cache-control') ?? '', /immutable/);
    }
    const api = await fetch(`${s.url}/v1/nothing-here`, { headers: { 'api-key': s.key } });
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { errorType: string }).errorType, 'NotFound');
    assert.equal((await fetch(`${s.url}/assets/missing.js`)).status, 404);
    assert.equal((await fetch(`${s.url}/assets/..%2f..%2fpackage.json`)).status, 404, 'no way out of web/dist');
    assert.equal((await fetch(`${s.url}/not-a-page`)).status, 404);
  });

  it('answers a browser asking for a page it does not have with the dashboard (its "Page not found") and a 404; API clients keep the JSON 404', { skip: existsSync(`${webDistDir()}/index.html`) ? false : 'web/dist is not built (npm run build:web)' }, async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/whatever', '/data/sales/extra', '/whatever?x=1']) {
      const page = await fetch(s.url + path, { headers: browser });
      assert.equal(page.status, 404, path);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/, path);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.match(await page.text(), /src="\/assets\/[^"]+\.js"/, 'the app, which shows its own not-found page');
    }
    const json = async (path: string, init: RequestInit) => {
      const r = await fetch(s.url + path, init);
      return [r.status, ((await r.json()) as { errorType: string }).errorType];
    };
    assert.deepEqual(await json('/whatever', {}), [404, 'NotFound'], 'no Accept: an API client');
    assert.deepEqual(await json('/whatever', { headers: { accept: 'application/json' } }), [404, 'NotFound']);
    assert.deepEqual(await json('/whatever', { method: 'POST', headers: browser }), [404, 'NotFound'], 'only pages are opened with GET');
    assert.deepEqual(await json('/v1/nothing-here', { headers: { ...browser, 'api-key': s.key } }), [404, 'NotFound']);
    assert.deepEqual(await json('/auth/nothing-here', { headers: browser }), [404, 'NotFound']);
    assert.deepEqual(await json('/assets/missing.js', { headers: browser }), [404, 'NotFound']);
  });
});
