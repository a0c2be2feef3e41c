import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostKey, parseAllowedHosts } from '../../src/outbound/allowed-hosts.js';

test('parseAllowedHosts normalises entries the way URL hosts are', () => {
  const hosts = parseAllowedHosts(' LocalHost , 127.0.0.1,[::1], 0:0:0:0:0:0:0:1 ,Data.Internal.,,');
  assert.deepEqual([...hosts].sort(), ['127.0.0.1', '::1', 'data.internal', 'localhost']);
});

test('parseAllowedHosts of an unset or empty variable allows nothing', () => {
  assert.equal(parseAllowedHosts(undefined).size, 0);
  assert.equal(parseAllowedHosts('  ').size, 0);
});

test('parseAllowedHosts rejects entries with a port, path or scheme', () => {
  for (const entry of ['localhost:8080', 'http://localhost', 'host/path', 'user@host']) {
    assert.throws(() => parseAllowedHosts(entry), /SIBYL_ALLOW_PRIVATE_HOSTS/, entry);
  }
});

test('hostKey matches allow-list entries case-insensitively and without port', () => {
  const hosts = parseAllowedHosts('localhost,::1,127.0.0.1');
  assert.ok(hosts.has(hostKey(new URL('http://LOCALHOST:8080/x'))));
  assert.ok(hosts.has(hostKey(new URL('https://[0::1]:443/'))));
  assert.ok(hosts.has(hostKey(new URL('http://localhost./'))));
  assert.ok(!hosts.has(hostKey(new URL('http://127.0.0.2/'))));
});
