import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSibyl, type SibylProcess } from '../scaleout/sibyl-process.js';
import { BrowserSession } from '../support/browser-session.js';
import { fixturePath } from '../support/fixtures.js';

/**
 * Tenants, generated from the route table: account B aims every route that takes an id, with
 * every method, at each kind of account A's ids (data set, session, model, import, API key), and
 * every listing and filter at A's names. Another account's resource is a 404 (never 401/403,
 * which would confirm it exists), nothing of A's shows up or changes, and no key is ever logged
 * or shown again after it was created. Runs the real `sibyl serve` so its log can be read.
 */
type IdKind = 'dataSet' | 'session' | 'model' | 'import' | 'key';

/** Which kind of id a route's parameter holds, by its path; a route not listed here is aimed at with every kind. */
function kindOf(url: string): IdKind | undefined {
  if (url.startsWith('/v1/data/')) return 'dataSet';
  if (url.startsWith('/v1/sessions/')) return 'session';
  if (url.startsWith('/v1/models/') || url.startsWith('/v1/model/')) return 'model';
  if (url.startsWith('/v1/imports/')) return 'import';
  if (url.startsWith('/auth/keys/')) return 'key';
  return undefined;
}

/** Routes that create in the caller's own namespace when given a name another account also uses. */
const OWN_NAMESPACE = [/^PUT \/v1\/data\/:name$/, /^POST \/v1\/imports\//];

describe('tenant isolation across every route, and keys kept secret', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-security-'));
  let server: SibylProcess;
  let routes: { url: string; methods: string[] }[];
  const a = { key: '', ids: {} as Record<IdKind, string>, browser: undefined as unknown as BrowserSession };
  const b = { key: '', browser: undefined as unknown as BrowserSession };
  const PASSWORD = 'correct horse battery staple 42';
  const answers: string[] = [];

  const as = (key: string) => async (method: string, path: string, json?: unknown) => {
    const headers: Record<string, string> = { 'api-key': key };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(server.url + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    answers.push(text);
    let body: any;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    return { status: res.status, json: body, text };
  };

  before(async () => {
    server = await startSibyl('serve', { SIBYL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SIBYL_LOG_LEVEL: 'trace', SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, 120_000);
    for (const [who, email] of [[a, 'a@example.org'], [b, 'b@example.org']] as const) {
      who.browser = new BrowserSession(server.url);
      assert.equal((await who.browser.signUp(email, PASSWORD)).status, 201);
      const k = await who.browser.call('POST', '/auth/keys', { json: { label: 'test' } });
      assert.equal(k.status, 201, k.text);
      who.key = k.json.apiKey;
      if (who === a) a.ids.key = k.json.keyId;
    }
    const callA = as(a.key);
    const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
    const put = await fetch(`${server.url}/v1/data/a-secret-data`, { method: 'PUT', headers: { 'api-key': a.key, 'content-type': 'text/csv' }, body: csv });
    assert.equal(put.status, 201);
    a.ids.dataSet = 'a-secret-data';
    const s = await callA('POST', '/v1/sessions/model', { dataSourceName: 'a-secret-data', targetColumn: 'Species', predictionDomain: 'classification' });
    assert.equal(s.status, 200, s.text);
    a.ids.session = s.json.sessionId;
    for (let i = 0; ; i++) {
      const r = await callA('GET', `/v1/sessions/${a.ids.session}`);
      if (r.json.status === 'completed') { a.ids.model = r.json.modelId; break; }
      assert.ok(i < 600 && r.json.status !== 'failed', r.text);
      await new Promise((done) => setTimeout(done, 200));
    }
    const imp = await callA('POST', '/v1/imports/url', { dataSetName: 'a-import', url: 'http://127.0.0.1:9/nothing.csv' });
    assert.equal(imp.status, 200, imp.text);
    a.ids.import = imp.json.importId;
    const spec = await fetch(`${server.url}/v1/openapi.json`).then((r) => r.json()) as { paths: Record<string, Record<string, unknown>> };
    // The OpenAPI document lists the API routes; /auth routes are hidden from it, so they are added by what the app registers.
    routes = Object.entries(spec.paths).map(([p, ops]) => ({ url: p.replace(/\{(\w+)\}/g, ':$1'), methods: Object.keys(ops).map((m) => m.toUpperCase()) }));
    routes.push({ url: '/auth/keys/:id', methods: ['DELETE'] }, { url: '/auth/keys', methods: ['GET'] }, { url: '/auth/account', methods: ['GET'] });
  });

  after(async () => {
    await server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 404 to every route × every id kind of another account, and changes nothing of it', async () => {
    const callB = as(b.key);
    // Routes that create in B's own namespace go last, so B's own same-named data set cannot mask a leak.
    const withParams = routes.filter((r) => /:\w+/.test(r.url) && /^\/(v1|auth)\//.test(r.url));
    const own = (label: string) => OWN_NAMESPACE.some((re) => re.test(label));
    const pairs = withParams.flatMap((route) => route.methods.map((method) => ({ route, method })))
      .sort((x, y) => Number(own(`${x.method} ${x.route.url}`)) - Number(own(`${y.method} ${y.route.url}`)));
    assert.ok(withParams.length >= 10, `routes with an id: ${withParams.map((r) => r.url).join(', ')}`);
    const problems: string[] = [];
    let checked = 0;
    // Listings, filters and work on A's names from B (before B has any same-named data set of its own).
    const leaks = (text: string) => Object.values(a.ids).filter((id) => text.includes(id));
    for (const path of ['/v1/data', '/v1/sessions', '/v1/models', '/v1/imports', `/v1/sessions?dataSourceName=${a.ids.dataSet}`, `/v1/models?dataSourceName=${a.ids.dataSet}`,
      `/v1/sessions?modelId=${a.ids.model}`, `/v1/data?partialName=a-secret`, `/v1/imports?dataSetName=a-import`,
      '/v1/messages', `/v1/messages?relatedId=${a.ids.session}`, `/v1/messages?relatedId=${a.ids.import}`]) {
      const r = await callB('GET', path);
      checked++;
      // The items only: paging links echo the query that was asked.
      const items = JSON.stringify(r.json?.items ?? null);
      if (r.status !== 200 || !Array.isArray(r.json?.items) || leaks(items).length) problems.push(`GET ${path}: ${r.status}, shows ${leaks(items).join(', ')}`);
    }
    for (const path of [`/v1/sessions?dataSourceName=${a.ids.dataSet}`, `/v1/models?dataSourceName=${a.ids.dataSet}`]) {
      const r = await callB('DELETE', path);
      checked++;
      if (r.status >= 500) problems.push(`DELETE ${path}: ${r.status}`);
    }
    for (const kind of ['model', 'forecast', 'impact']) {
      const r = await callB('POST', `/v1/sessions/${kind}`, { dataSourceName: a.ids.dataSet, targetColumn: 'Species', predictionDomain: 'classification', startDate: '2017-01-01', endDate: '2017-02-01', eventName: 'e' });
      checked++;
      if (r.status !== 404) problems.push(`POST /v1/sessions/${kind} on A's data set: ${r.status} ${r.text.slice(0, 120)}`);
    }
    for (const { route, method } of pairs) {
      {
        for (const kind of Object.keys(a.ids) as IdKind[]) {
          const path = route.url.replace(/:\w+/g, encodeURIComponent(a.ids[kind]));
          const label = `${method} ${route.url}`;
          const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? bodyFor(route.url, a.ids) : undefined;
          const r = route.url.startsWith('/auth/')
            ? await b.browser.call(method, path, body === undefined ? {} : { json: body })
            : await callB(method, path, body);
          checked++;
          if (OWN_NAMESPACE.some((re) => re.test(label))) continue;
          const expected = kindOf(route.url);
          if (expected === kind || expected === undefined) {
            if (r.status !== 404) problems.push(`${label} with A's ${kind}: ${r.status} ${r.text.slice(0, 120)}`);
          } else if (r.status < 400 || r.status === 401 || r.status === 403) {
            problems.push(`${label} with A's ${kind} (a ${expected} route): ${r.status} ${r.text.slice(0, 120)}`);
          }
        }
      }
    }
    const keys = await b.browser.call('GET', '/auth/keys');
    if (keys.text.includes(a.ids.key)) problems.push('B\'s key list shows A\'s key');
    console.log(`# ${checked} cross-account requests over ${withParams.length} routes with ids`);
    assert.deepEqual(problems, []);

    // A still has everything, unchanged.
    const callA = as(a.key);
    assert.equal((await callA('GET', `/v1/data/${a.ids.dataSet}?pageSize=1000`)).json.data.length, 150);
    assert.equal((await callA('GET', `/v1/sessions/${a.ids.session}`)).json.status, 'completed');
    assert.equal((await callA('GET', `/v1/models/${a.ids.model}`)).status, 200);
    assert.equal((await callA('GET', `/v1/imports/${a.ids.import}`)).status, 200);
    const predict = await callA('POST', `/v1/models/${a.ids.model}/predict`, { data: [{ 'Sepal.Length': '5.1', 'Sepal.Width': '3.5', 'Petal.Length': '1.4', 'Petal.Width': '0.2' }] });
    assert.equal(predict.status, 200, 'A\'s key still works and A\'s model still predicts');
  });

  it('never logs a key or password, nor shows a key after it was created', async () => {
    // A key sent the ways a client might: header, bearer, and (wrongly) in the query string.
    await fetch(`${server.url}/v1/data?api-key=${encodeURIComponent(a.key)}`);
    await fetch(`${server.url}/v1/data`, { headers: { authorization: `Bearer ${b.key}` } });
    await fetch(`${server.url}/v1/data`, { headers: { 'api-key': `${a.key}x` } });
    const listed = await a.browser.call('GET', '/auth/keys');
    assert.equal(listed.status, 200);
    assert.ok(listed.json.items.length >= 1 && listed.json.items.every((k: Record<string, unknown>) => !('apiKey' in k)), listed.text);
    const account = await a.browser.call('GET', '/auth/account');
    for (const text of [listed.text, account.text, ...answers]) {
      for (const secret of [a.key, b.key]) assert.ok(!text.includes(secret), `an answer after creation shows a key: ${text.slice(0, 200)}`);
    }
    await new Promise((r) => setTimeout(r, 300)); // the log is written asynchronously
    const log = server.output();
    assert.ok(log.includes('"requestId"'), 'the log has request ids');
    for (const secret of [a.key, b.key, a.key.slice(3), PASSWORD, a.browser.cookie.split('=')[1]!]) {
      assert.ok(!log.includes(secret), `the log shows a secret (${secret.slice(0, 6)}…)`);
    }
  });
});

function bodyFor(url: string, ids: Record<IdKind, string>): unknown {
  if (url.endsWith('/predict')) return { data: [{ 'Sepal.Length': '5.1', 'Sepal.Width': '3.5', 'Petal.Length': '1.4', 'Petal.Width': '0.2' }] };
  if (url.startsWith('/v1/data/')) return { data: [{ a: '1' }] };
  return { dataSourceName: ids.dataSet, dataSetName: ids.dataSet, modelId: ids.model, sessionId: ids.session };
}
