import { isIPv4, isIPv6 } from 'node:net';

/** Why an address may (public) or may not be the target of an outbound request. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'invalid';

/** Phrases that complete "address X of host Y is …" in refusal messages. */
export const ADDRESS_CLASS_LABEL: Record<AddressClass, string> = {
  public: 'public',
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  'link-local': 'link-local',
  cgnat: 'carrier-grade NAT shared space',
  'unique-local': 'unique-local',
  multicast: 'multicast',
  broadcast: 'broadcast',
  documentation: 'reserved for documentation',
  benchmarking: 'reserved for benchmarking',
  reserved: 'reserved (not globally routable)',
  invalid: 'not a valid IP address',
};

interface Range<T> {
  base: T;
  bits: number;
  kind: AddressClass;
}

// First match wins, so more specific ranges come before the ranges containing them.
const IPV4_RANGES: Range<number>[] = [
  v4('0.0.0.0', 32, 'unspecified'),
  v4('0.0.0.0', 8, 'reserved'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('240.0.0.0', 4, 'reserved'),
];

// Only global unicast (2000::/3) can be public; everything outside it that is not listed is 'reserved'.
const IPV6_RANGES: Range<bigint>[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'private'),
  v6('ff00::', 8, 'multicast'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('2001::', 23, 'reserved'),
  v6('2000::', 3, 'public'),
  v6('::', 0, 'reserved'),
];

// IPv6 prefixes whose low bits carry an IPv4 address that is what the packets actually reach.
const IPV4_EMBEDDING: { base: bigint; bits: number; shift: bigint }[] = [
  { base: parseIPv6('::ffff:0:0')!, bits: 96, shift: 0n }, // IPv4-mapped
  { base: parseIPv6('64:ff9b::')!, bits: 96, shift: 0n }, // NAT64 well-known prefix
  { base: parseIPv6('2002::')!, bits: 16, shift: 80n }, // 6to4
];

/** Classifies an IPv4 or IPv6 address (IPv4-mapped, NAT64 and 6to4 forms by the IPv4 address inside). */
export function classifyAddress(ip: string): AddressClass {
  const address = ip.replace(/%.*$/, ''); // a zone index ("fe80::1%eth0") does not change the class
  if (isIPv4(address)) return classifyIPv4(parseIPv4(address));
  const value = parseIPv6(address);
  if (value === null) return 'invalid';
  for (const embedding of IPV4_EMBEDDING) {
    if (inPrefix(value, embedding.base, embedding.bits, 128)) {
      return classifyIPv4(Number((value >> embedding.shift) & 0xffffffffn));
    }
  }
  return IPV6_RANGES.find((r) => inPrefix(value, r.base, r.bits, 128))!.kind;
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

function classifyIPv4(value: number): AddressClass {
  const range = IPV4_RANGES.find((r) => inPrefix(BigInt(value), BigInt(r.base), r.bits, 32));
  return range ? range.kind : 'public';
}

function inPrefix(value: bigint, base: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

function parseIPv4(text: string): number {
  return text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

/** 128-bit value of an IPv6 address, or null when the text is not one. */
function parseIPv6(text: string): bigint | null {
  if (!isIPv6(text)) return null;
  let hex = text;
  let low32: number | null = null;
  if (hex.includes('.')) {
    const split = hex.lastIndexOf(':') + 1;
    low32 = parseIPv4(hex.slice(split));
    hex = `${hex.slice(0, split)}0:0`;
  }
  const [head, tail] = hex.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros: string[] = Array(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  let value = groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
  if (low32 !== null) value = (value & ~0xffffffffn) | BigInt(low32);
  return value;
}

function v4(base: string, bits: number, kind: AddressClass): Range<number> {
  return { base: parseIPv4(base), bits, kind };
}

function v6(base: string, bits: number, kind: AddressClass): Range<bigint> {
  return { base: parseIPv6(base)!, bits, kind };
}
