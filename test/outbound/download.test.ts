import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseAllowedHosts } from '../../src/outbound/allowed-hosts.js';
import { openDownload, type DownloadOptions } from '../../src/outbound/download.js';
import { OutboundFailed, OutboundRefused } from '../../src/outbound/errors.js';
import { startLocalServer, type LocalServer } from './local-server.js';

const CSV = 'date,value\n2024-01-01,1\n2024-01-02,2\n';

function options(allow: string | undefined, extra: Partial<DownloadOptions> = {}): DownloadOptions {
  return { allowHosts: parseAllowedHosts(allow), maxBytes: 1_000_000, timeoutMs: 5_000, ...extra };
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function refusedFor(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof OutboundRefused, String(err));
    assert.match(err.message, pattern);
    return true;
  };
}

function failedWith(pattern: RegExp, status?: number) {
  return (err: unknown) => {
    assert.ok(err instanceof OutboundFailed, String(err));
    assert.match(err.message, pattern);
    assert.equal(err.status, status);
    return true;
  };
}

describe('openDownload against a server on 127.0.0.1', () => {
  let server: LocalServer;
  let other: LocalServer; // a second origin, for redirects that change host and port

  before(async () => {
    server = await startLocalServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/data.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
      } else if (path === '/encoded.csv') {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip' }).end(gzipSync(CSV));
      } else if (path === '/file.csv.gz') {
        res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(CSV));
      } else if (path === '/encoded-file.csv.gz') {
        // What a server with "AddEncoding gzip .gz" sends: the .gz file labelled as transport-encoded.
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(gzipSync(CSV)));
      } else if (path === '/corrupt.csv.gz') {
        res.writeHead(200).end(Buffer.concat([gzipSync(CSV).subarray(0, 12), Buffer.from('garbage')]));
      } else if (path === '/brotli') {
        res.writeHead(200, { 'content-encoding': 'br' }).end('x');
      } else if (path.startsWith('/bytes/')) {
        res.writeHead(200).end(Buffer.alloc(Number(path.slice('/bytes/'.length)), 'a'));
      } else if (path === '/zeros.gz') {
        res.writeHead(200).end(gzipSync(Buffer.alloc(1_000_000)));
      } else if (path === '/silent') {
        // never answers
      } else if (path === '/stalls') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('date,value\n');
      } else if (path.startsWith('/redirect?to=')) {
        res.writeHead(302, { location: decodeURIComponent(path.slice('/redirect?to='.length)) }).end();
      } else if (path.startsWith('/loop/')) {
        res.writeHead(301, { location: `/loop/${Number(path.slice('/loop/'.length)) + 1}` }).end();
      } else if (path === '/echo-auth') {
        res.writeHead(200).end(req.headers.authorization ?? 'none');
      } else {
        res.writeHead(404).end('not here');
      }
    });
    other = await startLocalServer((req, res) => {
      res.writeHead(200).end(req.headers.authorization ?? 'none');
    });
  });

  after(async () => {
    await server.close();
    await other.close();
  });

  test('a loopback IP is refused without the allow-list, before any request is sent', async () => {
    const before = server.requests.length;
    await assert.rejects(
      openDownload(server.url('/data.csv'), options(undefined)),
      refusedFor(/^address 127\.0\.0\.1 of host 127\.0\.0\.1 is loopback; allowed only when the host is listed in SIBYL_ALLOW_PRIVATE_HOSTS$/),
    );
    assert.equal(server.requests.length, before);
  });

  test('a loopback IP listed in the allow-list is fetched', async () => {
    const download = await openDownload(server.url('/data.csv'), options('127.0.0.1'));
    assert.equal(await readText(download.stream), CSV);
    assert.equal(download.contentType, 'text/csv');
    assert.equal(download.finalUrl, server.url('/data.csv'));
  });

  test('a name resolving to loopback is refused after resolution unless the name is allowed', async () => {
    const before = server.requests.length;
    await assert.rejects(
      openDownload(server.url('/data.csv', 'localhost'), options('127.0.0.1')),
      refusedFor(/^address 127\.0\.0\.1 of host localhost is loopback/),
    );
    assert.equal(server.requests.length, before);
    const download = await openDownload(server.url('/data.csv', 'LocalHost'), options('LOCALHOST'));
    assert.equal(await readText(download.stream), CSV);
  });

  test('IPv6 and unspecified literals are refused without connecting', async () => {
    await assert.rejects(openDownload(`http://[::1]:${server.port}/`, options(undefined)), refusedFor(/::1 .* loopback/));
    await assert.rejects(
      openDownload(`http://[::ffff:127.0.0.1]:${server.port}/`, options(undefined)),
      refusedFor(/::ffff:7f00:1 .* loopback/),
    );
    await assert.rejects(openDownload(`http://0.0.0.0:${server.port}/`, options(undefined)), refusedFor(/unspecified/));
  });

  test('schemes other than http and https, and malformed URLs, are refused', async () => {
    await assert.rejects(openDownload('file:///etc/passwd', options(undefined)), refusedFor(/scheme file: .*not allowed/));
    await assert.rejects(openDownload('ftp://127.0.0.1/x.csv', options('127.0.0.1')), refusedFor(/scheme ftp:/));
    await assert.rejects(openDownload('not a url', options(undefined)), refusedFor(/not a valid absolute URL/));
  });

  test('redirects are followed and the final URL reported', async () => {
    const target = other.url('/anything');
    const download = await openDownload(server.url(`/redirect?to=${encodeURIComponent(target)}`), options('127.0.0.1'));
    assert.equal(await readText(download.stream), 'none');
    assert.equal(download.finalUrl, target);
  });

  test('a redirect from an allowed host to a refused address is refused', async () => {
    const before = other.requests.length;
    const toName = server.url(`/redirect?to=${encodeURIComponent(other.url('/', 'localhost'))}`);
    await assert.rejects(openDownload(toName, options('127.0.0.1')), refusedFor(/of host localhost is loopback/));
    const toFile = server.url(`/redirect?to=${encodeURIComponent('file:///etc/passwd')}`);
    await assert.rejects(openDownload(toFile, options('127.0.0.1')), refusedFor(/scheme file:/));
    assert.equal(other.requests.length, before);
  });

  test('more redirects than maxRedirects fail', async () => {
    await assert.rejects(
      openDownload(server.url('/loop/0'), options('127.0.0.1', { maxRedirects: 3 })),
      failedWith(/more than 3 redirects/),
    );
    assert.equal(server.requests.at(-1)?.url, '/loop/3');
    await assert.rejects(openDownload(server.url('/loop/0'), options('127.0.0.1')), failedWith(/more than 5 redirects/));
  });

  test('basic auth goes to the original origin only, not to a redirect target elsewhere', async () => {
    const auth = { basicAuth: { user: 'ann', password: 's3cret' } };
    const expected = `Basic ${Buffer.from('ann:s3cret').toString('base64')}`;
    const direct = await openDownload(server.url('/echo-auth'), options('127.0.0.1', auth));
    assert.equal(await readText(direct.stream), expected);
    const sameOrigin = await openDownload(
      server.url(`/redirect?to=${encodeURIComponent('/echo-auth')}`),
      options('127.0.0.1', auth),
    );
    assert.equal(await readText(sameOrigin.stream), expected);
    const elsewhere = await openDownload(
      server.url(`/redirect?to=${encodeURIComponent(other.url('/'))}`),
      options('127.0.0.1', { ...auth, headers: { Authorization: 'Bearer t', 'X-Trace': '1' } }),
    );
    assert.equal(await readText(elsewhere.stream), 'none');
    assert.equal(other.requests.at(-1)?.headers['x-trace'], '1');
  });

  test('gzip bodies are decompressed: transport-encoded, .gz files, and both at once', async () => {
    for (const path of ['/encoded.csv', '/file.csv.gz', '/encoded-file.csv.gz']) {
      const download = await openDownload(server.url(path), options('127.0.0.1'));
      assert.equal(await readText(download.stream), CSV, path);
    }
  });

  test('corrupt gzip and unsupported encodings fail with OutboundFailed', async () => {
    const corrupt = await openDownload(server.url('/corrupt.csv.gz'), options('127.0.0.1'));
    await assert.rejects(readText(corrupt.stream), failedWith(/not valid gzip data/));
    await assert.rejects(openDownload(server.url('/brotli'), options('127.0.0.1')), failedWith(/unsupported Content-Encoding "br"/));
  });

  test('the size limit counts decompressed bytes', async () => {
    const exact = await openDownload(server.url('/bytes/1000'), options('127.0.0.1', { maxBytes: 1000 }));
    assert.equal((await readText(exact.stream)).length, 1000);
    const over = await openDownload(server.url('/bytes/1001'), options('127.0.0.1', { maxBytes: 1000 }));
    await assert.rejects(readText(over.stream), failedWith(/body exceeds the limit of 1000 bytes/));
    // About 1 kB on the wire, 1 MB once decompressed.
    assert.ok(gzipSync(Buffer.alloc(1_000_000)).length < 100_000);
    const bomb = await openDownload(server.url('/zeros.gz'), options('127.0.0.1', { maxBytes: 100_000 }));
    await assert.rejects(readText(bomb.stream), failedWith(/body exceeds the limit of 100000 bytes/));
  });

  test('the timeout covers waiting for the response', async () => {
    await assert.rejects(
      openDownload(server.url('/silent'), options('127.0.0.1', { timeoutMs: 300 })),
      failedWith(/^download of http:\/\/127\.0\.0\.1:\d+\/silent timed out after 300 ms$/),
    );
  });

  test('the timeout covers reading the body', async () => {
    const download = await openDownload(server.url('/stalls'), options('127.0.0.1', { timeoutMs: 300 }));
    await assert.rejects(readText(download.stream), failedWith(/timed out after 300 ms/));
  });

  test('an HTTP error status fails with that status', async () => {
    await assert.rejects(
      openDownload(server.url('/missing.csv'), options('127.0.0.1')),
      failedWith(/^GET http:\/\/127\.0\.0\.1:\d+\/missing\.csv: HTTP 404 Not Found$/, 404),
    );
  });

  test('destroying the stream early closes the connection', async () => {
    const download = await openDownload(server.url('/stalls'), options('127.0.0.1'));
    const closed = new Promise((resolve) => server.requests.at(-1)!.socket.once('close', resolve));
    download.stream.destroy();
    await closed;
  });
});
