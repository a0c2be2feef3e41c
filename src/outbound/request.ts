import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostKey } from './allowed-hosts.js';
import { classifyAddress } from './address-class.js';
import type { Deadline } from './deadline.js';
import { asOutboundError, OutboundRefused } from './errors.js';
import { createGuardedLookup, privateAddressRefusal } from './guarded-lookup.js';

export interface HopOptions {
  method: 'GET' | 'POST';
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  allowHosts: Set<string>;
  deadline: Deadline;
}

const guardedLookup = createGuardedLookup();

/** Parses a client-supplied address; only absolute http: and https: URLs are accepted. */
export function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused(`"${url}" is not a valid absolute URL`);
  }
  assertHttpScheme(parsed);
  return parsed;
}

/** The URL without user name and password, for messages and results. */
export function redact(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/**
 * Sends one request (no redirect handling) and resolves with the response head. Non-public
 * targets are refused unless the URL's host is allow-listed: IP literals here, names in the lookup.
 */
export async function sendRequest(url: URL, options: HopOptions): Promise<IncomingMessage> {
  assertHttpScheme(url);
  const host = hostKey(url);
  const allowed = options.allowHosts.has(host);
  if (!allowed && isIP(host) !== 0 && classifyAddress(host) !== 'public') {
    throw privateAddressRefusal(host, host);
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request({
      protocol: url.protocol,
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: options.headers,
      // A pooled keep-alive socket could have been opened under another allow-list; never reuse one.
      agent: false,
      lookup: allowed ? undefined : guardedLookup,
    });
    options.deadline.track(request);
    // Kept for the request's lifetime: socket errors after the response head must not go unhandled.
    request.on('error', (err) => reject(asOutboundError(err, `${options.method} ${redact(url)} failed`)));
    request.once('response', resolve);
    request.end(options.body);
  });
}

function assertHttpScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(`scheme ${url.protocol} of ${redact(url)} is not allowed; only http: and https: are`);
  }
}
