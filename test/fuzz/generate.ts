import { mulberry32 } from '../support/random.js';
/**
 * Malformed requests generated from the route table with a seeded PRNG: the same seed gives the
 * same requests, so a failure can be replayed (SIBYL_FUZZ_SEED). Every request is built to be
 * refused, or to be a read: none of them may change stored data.
 */
export interface FuzzRequest {
  label: string;
  method: string;
  target: Buffer;
  headers: [string, Buffer | string][];
  body: Buffer;
  /** A write that may legitimately succeed without changing anything (none today). */
  mayPass?: boolean;
}

export interface Seeds {
  dataSet: string;
  sessionId: string;
  modelId: string;
  importId: string;
}

type Route = { url: string; methods: string[] };

const b = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Path segments no resource can have (or that name nothing): safe for every method. */
const BAD_SEGMENTS: Buffer[] = [
  b('%00'), b('a%00b'), b('%FF'), b('%C3%28'), b('%E2%82'), b('%'), b('%zz'), b('..%2F..%2Fetc%2Fpasswd'), b('%2e%2e'),
  Buffer.from([0xff, 0xfe, 0x41]), Buffer.from([0xc3, 0x28]), b('x'.repeat(600)), b('%F0%9F%98%80'), b('%E2%80%AE'),
  b('00000000-0000-4000-8000-000000000000'), b('not-a-uuid'), b('12345678901234567890'), b('-1'), b('NaN'),
  b('%EF%BF%BF'), b('%ED%A0%80'), b('a%0Ab'), b('a%0D%0Ab'), b('%20'), b('null'), b('undefined'), b('%7B%7D'),
  Buffer.concat([b('a'), Buffer.from([0x00]), b('b')]), Buffer.concat([b('a'), Buffer.from([0x01]), b('b')]),
];

const QUERY_NAMES = ['page', 'pageSize', 'partialName', 'dataSourceName', 'dataSetName', 'startDate', 'endDate', 'requestedAfter', 'requestedBefore',
  'createdAfter', 'createdBefore', 'sortBy', 'sortOrder', 'cascade', 'type', 'include', 'keys', 'startKey', 'endKey', 'formatDates',
  'predictionInterval', 'resultInterval', 'sessionType', 'modelId', 'status', 'from', 'to', 'includeClassScores'];

const BAD_VALUES: Buffer[] = [
  b('%00'), b('a%00'), b('%FF'), b('%C3%28'), b('2017-13-45'), b('2017-02-30T25:61:00Z'), b('0000-00-00'), b('99999-01-01'), b('NaN'), b('-1'),
  b('1e309'), b('99999999999999999999'), b('-0'), b('0x10'), b(''), b('%'), b('%zz'), b('a'.repeat(5000)), b('[]'), b('{}'), b('true'),
  b('%F0%9F%98%80'), Buffer.from([0xff, 0xfe]), b('1;DROP TABLE sessions'), b("'%20OR%201=1--"), b('%E2%80%AE'), b('Infinity'),
];

const JSON_BROKEN: string[] = [
  '{', '{"a":', '[1,2', '{"a":1}}', 'nul', "{'a':1}", '{"a":1,}', '{"a" 1}', '"unterminated', '{"a":"\\x"}', '{"a":"\\ud800"}',
  '[' , ']', '{}{}', '{"a":01}', '{"a":+1}', '{"a":.5}', '{"a":NaN}', '{"a":Infinity}', '\u00ff\u00fe{}',
];

/** Well-formed JSON whose values have the wrong types for every endpoint that takes a body. */
const WRONG_TYPES: unknown[] = [
  { dataSourceName: 5, targetColumn: [], predictionDomain: {} },
  { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'nonsense' },
  { dataSourceName: 'iris', predictionDomain: 'classification', targetColumn: { a: 1 } },
  { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: 5 },
  { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: 'http://127.0.0.1/hook' },
  { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: 'http://169.254.169.254/latest' },
  { dataSourceName: 'iris', targetColumn: 'Species', startDate: '2017-13-45', endDate: 'yesterday', resultInterval: 'fortnight' },
  { dataSourceName: 'iris', targetColumn: 'Species', startDate: '2017-01-01', endDate: '2016-01-01', resultInterval: 'day' },
  { data: 7 }, { data: [1, 2, 3] }, { data: [{ a: { b: { c: 1 } } }] }, { data: 'x'.repeat(10) },
  { dataSetName: 5, url: 5 }, { dataSetName: 'x', url: 'file:///etc/passwd' }, { dataSetName: 'x', url: 'http://[::ffff:127.0.0.1]/a.csv' },
  { dataSetName: 'x', url: 'http://2130706433/a.csv' }, { dataSetName: 'x', url: 'http://0177.0.0.1/a.csv' }, { dataSetName: 'x', url: 'gopher://x' },
  { dataSetName: '', url: '' }, { email: 5, password: [] }, { email: 'a@b.c' }, { password: 'x' }, { token: {} }, { label: { a: 1 } },
  { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', extraParameters: 'x' },
  { columns: 5 }, { columns: { Species: { dataType: 'spaceship' } } }, { columns: { Species: 5 } },
  { dataSourceName: 'a\u0000b', targetColumn: 'Species', predictionDomain: 'classification' },
  { dataSetName: 'a\u0000b', url: 'http://example.org/a.csv' },
  { dataSourceName: 'iris', eventName: 7, targetColumn: 'Sepal.Length' },
  { data: [{ 'Sepal.Length': '\u0000' }] },
  { '\u0000': 1 },
];

const CSV_BAD: Buffer[] = [
  b('a,b\n1,"unterminated\n'), b('a,b\n1,2\x00\n'), b('a\x00,b\n1,2\n'), b('"a,b\n1,2'), Buffer.from([0xff, 0xfe, 0x00, 0x61, 0x00]),
  b('a,b\n1,2\n3,4,"x\n'), b('\x00\x00\x00\x00'),
];

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-16', 'text/csv', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/xml', 'text/plain', '', 'application/json; charset=\u00ff', '*/*', 'application/octet-stream'];

export function malformedRequests(seed: number, count: number, routes: Route[], seeds: Seeds, key: string): FuzzRequest[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  // The API surface: /v1, the account area and the operations endpoints (the web pages are static).
  const api = routes.filter((r) => /^\/(v1|auth|health|ready|metrics)/.test(r.url) && !r.url.includes('openapi'));
  const out: FuzzRequest[] = [];

  const validFor = (url: string, param: string): Buffer | undefined => {
    if (url.startsWith('/v1/data/')) return b(seeds.dataSet);
    if (url.startsWith('/v1/sessions/')) return b(seeds.sessionId);
    if (url.startsWith('/v1/model')) return b(seeds.modelId);
    if (url.startsWith('/v1/imports/')) return b(seeds.importId);
    return param ? undefined : undefined;
  };

  for (let i = 0; out.length < count; i++) {
    const route = pick(api);
    const methods = route.methods.filter((m) => m !== 'HEAD');
    let method = methods.length ? pick(methods) : 'GET';
    if (rnd() < 0.08) method = pick(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    const reads = method === 'GET' || method === 'HEAD';
    // Writes never aim at an existing resource unless their body is broken beyond use.
    const kind = pick(['path', 'query', 'header', 'body', 'body', 'oversized'] as const);
    const labelParts: string[] = [method, route.url, kind];

    const segments = route.url.split('/').map((seg) => {
      if (!seg.startsWith(':') && seg !== '*') return b(seg);
      const valid = validFor(route.url, seg);
      if (kind !== 'path' && valid && (reads || (kind === 'body' && method !== 'DELETE'))) return valid;
      return pick(BAD_SEGMENTS);
    });
    let target = Buffer.concat(segments.flatMap((s, j) => (j === 0 ? [s] : [b('/'), s])));
    const query: Buffer[] = [];
    if (kind === 'query' || rnd() < 0.2) {
      const n = 1 + Math.floor(rnd() * 3);
      for (let q = 0; q < n; q++) query.push(Buffer.concat([b(pick(QUERY_NAMES)), b('='), pick(BAD_VALUES)]));
      // A query only a NUL or broken encoding makes invalid: so a write is refused, not carried out.
      if (!reads) query.push(b(`${pick(QUERY_NAMES)}=%00`));
    }
    if (query.length) target = Buffer.concat([target, b('?'), ...query.flatMap((q, j) => (j ? [b('&'), q] : [q]))]);
    if (kind === 'oversized') target = Buffer.concat([target, b(query.length ? '&' : '?'), b('pad='), b('x'.repeat(20000 + Math.floor(rnd() * 60000)))]);

    const headers: [string, Buffer | string][] = [];
    const keyChoice = rnd();
    if (keyChoice < 0.8) headers.push(['api-key', key]);
    else if (keyChoice < 0.85) headers.push(['api-key', Buffer.concat([b('sk_'), Buffer.from([0xff, 0x00, 0x01])])]);
    else if (keyChoice < 0.9) headers.push(['authorization', `Bearer ${'x'.repeat(200)}`]);
    else if (keyChoice < 0.95) headers.push(['api-key', `${key}\u00ff`]);
    if (kind === 'header') {
      const h = pick(['nul', 'utf8', 'huge', 'many', 'ctype', 'accept', 'te', 'dup'] as const);
      labelParts.push(h);
      if (h === 'nul') headers.push(['x-note', Buffer.from([0x61, 0x00, 0x62])]);
      if (h === 'utf8') headers.push(['x-note', Buffer.from([0xc3, 0x28, 0xff])]);
      if (h === 'huge') headers.push(['x-huge', 'h'.repeat(20000 + Math.floor(rnd() * 40000))]);
      if (h === 'many') for (let k = 0; k < 3000; k++) headers.push([`x-h${k}`, 'v']);
      if (h === 'ctype') headers.push(['content-type', pick(CONTENT_TYPES)]);
      if (h === 'accept') headers.push(['accept', pick(['text/csv', 'application/xml', '\u00ff/\u00ff', '*/*;q=abc'])]);
      if (h === 'te') headers.push(['x-request-id', Buffer.from([0xc3, 0x28])]);
      if (h === 'dup') { headers.push(['content-type', 'application/json']); headers.push(['content-type', 'text/csv']); }
    }

    let body: Buffer = Buffer.alloc(0);
    const takesBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
    if (kind === 'body' || (takesBody && rnd() < 0.5)) {
      const form = pick(['broken', 'wrong', 'deep', 'huge', 'csv', 'utf8', 'nul'] as const);
      labelParts.push(form);
      let ctype = 'application/json';
      if (form === 'broken') body = utf8(pick(JSON_BROKEN));
      if (form === 'wrong') body = utf8(JSON.stringify(pick(WRONG_TYPES)));
      if (form === 'deep') { const d = 1000 + Math.floor(rnd() * 200000); body = b('['.repeat(d) + ']'.repeat(rnd() < 0.5 ? d : d - 1)); }
      if (form === 'huge') body = utf8(JSON.stringify({ dataSourceName: 'x'.repeat(1_000_000 + Math.floor(rnd() * 1_000_000)), targetColumn: 'y' }));
      if (form === 'csv') { body = pick(CSV_BAD); ctype = 'text/csv'; }
      if (form === 'utf8') body = Buffer.concat([b('{"dataSourceName":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), b('"}')]);
      if (form === 'nul') body = Buffer.concat([b('{"dataSourceName":"a'), Buffer.from([0x00]), b('"}')]);
      if (!headers.some(([k]) => k === 'content-type')) headers.push(['content-type', ctype]);
    }
    // A write with a well-formed body and no defect elsewhere would be a real request: spoil its path or query.
    if (takesBody && !reads && kind !== 'path' && kind !== 'oversized' && query.length === 0 && !(kind === 'body' || body.length)) {
      target = Buffer.concat([target, b('?x=%00')]);
    }
    // Lenient by contract (compat-notes §2.2): a JSON PUT to an existing data set without records only
    // updates metadata it names, and predict reads CSV leniently; neither changes stored rows (the
    // snapshot at the end checks that).
    const mayPass = (method === 'PUT' && route.url === '/v1/data/:name') || route.url.endsWith('/predict');
    out.push({ label: `${labelParts.join(' ')} (${i})`, method, target, headers, body, mayPass });
  }
  return out;
}
