import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyAddress, isPublicAddress, type AddressClass } from '../../src/outbound/address-class.js';

const CASES: [string, AddressClass][] = [
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['172.15.255.255', 'public'],
  ['172.32.0.1', 'public'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['100.128.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'reserved'],
  ['224.0.0.251', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['ff02::1', 'multicast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:808:808::1', 'public'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'reserved'],
  ['::127.0.0.1', 'reserved'],
  ['100::1', 'reserved'],
  ['2001:4860::8888', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
  ['not-an-ip', 'invalid'],
  ['999.1.1.1', 'invalid'],
  ['', 'invalid'],
];

test('classifyAddress on IPv4, IPv6 and IPv4-in-IPv6 addresses', () => {
  for (const [ip, expected] of CASES) {
    assert.equal(classifyAddress(ip), expected, ip);
  }
});

test('isPublicAddress is true only for the public class', () => {
  for (const [ip, expected] of CASES) {
    assert.equal(isPublicAddress(ip), expected === 'public', ip);
  }
});
