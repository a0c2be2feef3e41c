import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from './address-class.js';
import { nonPublicHostMessage } from './guarded-lookup.js';

/** Longer URLs are refused by many servers and proxies (and would be echoed whole in messages). */
const MAX_URL_LENGTH = 2048;

/**
 * Why an outbound URL would be refused, checked when a client hands it to us (an import, a
 * callback) so the refusal is a 400 at once instead of a failure later. Requests check again,
 * after DNS and on every redirect, when they are made (a name may resolve differently then).
 * Undefined = acceptable now; a host that does not resolve now is left to fail when used. The
 * answer goes to the client, so it says only that the host is not public (nonPublicHostMessage).
 */
export async function outboundRefusal(url: string, allowHosts: Set<string>): Promise<string | undefined> {
  if (url.length > MAX_URL_LENGTH) return `a URL has at most ${MAX_URL_LENGTH.toLocaleString('en-US')} characters; this one has ${url.length.toLocaleString('en-US')}`;
  let u: URL;
  try { u = new URL(url); } catch { return `'${url}' is not an absolute URL`; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs are allowed';
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowHosts.has(host)) return undefined;
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return undefined;
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  return bad === undefined ? undefined : nonPublicHostMessage(host);
}
