import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './address-class.js';
import { createGuardedLookup, privateAddressRefusal } from './guarded-lookup.js';

/**
 * The outbound rule for clients we do not drive ourselves (the cloud SDKs of S3 and Azure imports):
 * `assertTargetAllowed` refuses a non-public IP literal up front (node does no lookup for those), and
 * the agents' lookup refuses a name that resolves to a non-public address, pinning the checked one.
 * Hosts in the allow-list (SIBYL_ALLOW_PRIVATE_HOSTS) are exempt. The agents keep no idle sockets.
 */
export function assertTargetAllowed(url: URL, allowHosts: Set<string>): void {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!allowHosts.has(host) && isIP(host) !== 0 && classifyAddress(host) !== 'public') throw privateAddressRefusal(host, host);
}

export function guardedAgents(allowHosts: Set<string>): { http: http.Agent; https: https.Agent } {
  const guarded = createGuardedLookup();
  const lookup: LookupFunction = (hostname, options, callback) =>
    allowHosts.has(hostname.toLowerCase()) ? dnsLookup(hostname, options, callback) : guarded(hostname, options, callback);
  return { http: new http.Agent({ keepAlive: false, lookup }), https: new https.Agent({ keepAlive: false, lookup }) };
}
