import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { test } from 'node:test';
import { OutboundRefused } from '../../src/outbound/errors.js';
import { createGuardedLookup, type ResolveAll } from '../../src/outbound/guarded-lookup.js';

// These tests resolve through a fixed answer and never open a connection.
function answering(addresses: LookupAddress[]): ResolveAll {
  return (_hostname, _options, callback) => callback(null, addresses);
}

function lookupOnce(lookup: LookupFunction, all: boolean): Promise<string | LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup('data.example', { all }, (err, address) => (err ? reject(err) : resolve(address))),
  );
}

test('a name with only public addresses resolves, in the form node asked for', async () => {
  const addresses = [
    { address: '8.8.8.8', family: 4 },
    { address: '2001:4860::8888', family: 6 },
  ];
  const lookup = createGuardedLookup(answering(addresses));
  assert.deepEqual(await lookupOnce(lookup, true), addresses);
  assert.equal(await lookupOnce(lookup, false), '8.8.8.8');
});

test('a name with any non-public address is refused, naming the address and its class', async () => {
  const lookup = createGuardedLookup(
    answering([
      { address: '8.8.8.8', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ]),
  );
  await assert.rejects(lookupOnce(lookup, true), (err: unknown) => {
    assert.ok(err instanceof OutboundRefused);
    assert.equal(
      err.message,
      'address ::ffff:169.254.169.254 of host data.example is link-local; allowed only when the host is listed in SIBYL_ALLOW_PRIVATE_HOSTS',
    );
    return true;
  });
});

test('resolver errors pass through unchanged', async () => {
  const failure = Object.assign(new Error('getaddrinfo ENOTFOUND data.example'), { code: 'ENOTFOUND' });
  const lookup = createGuardedLookup((_h, _o, callback) => callback(failure, []));
  await assert.rejects(lookupOnce(lookup, false), (err) => err === failure);
});
