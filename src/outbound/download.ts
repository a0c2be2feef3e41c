import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { assertSupportedEncoding, bodyStream } from './body-stream.js';
import { Deadline } from './deadline.js';
import { OutboundFailed } from './errors.js';
import { parseTarget, redact, sendRequest } from './request.js';

export interface DownloadOptions {
  /** Hosts exempt from the public-address rule (see parseAllowedHosts). */
  allowHosts: Set<string>;
  /** Limit on the decompressed body. */
  maxBytes: number;
  /** Overall limit, from the first request to the end of the body. */
  timeoutMs: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  basicAuth?: { user: string; password: string };
}

export interface Download {
  /** Decompressed body; errors with OutboundFailed on size limit, timeout or network failure. */
  stream: Readable;
  contentType: string | undefined;
  /** The URL the body came from after redirects, without credentials. */
  finalUrl: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers that carry credentials for the original server only.
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * GETs a data file, following redirects (each target checked like the first), and resolves once
 * the final response head has arrived. Rejects with OutboundRefused or OutboundFailed.
 */
export async function openDownload(url: string, options: DownloadOptions): Promise<Download> {
  const start = parseTarget(url);
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = new Deadline(options.timeoutMs, `download of ${redact(start)}`);
  try {
    let current = start;
    for (let redirects = 0; ; redirects++) {
      const what = `GET ${redact(current)}`;
      const response = await sendRequest(current, {
        method: 'GET',
        headers: requestHeaders(current, start, options),
        allowHosts: options.allowHosts,
        deadline,
      });
      const next = redirectTarget(response, current, what);
      if (next === undefined) {
        assertSuccess(response, what);
        assertSupportedEncoding(response, what);
        return {
          stream: bodyStream(response, { maxBytes: options.maxBytes, deadline, what }),
          contentType: response.headers['content-type'],
          finalUrl: redact(current),
        };
      }
      response.destroy();
      if (redirects >= maxRedirects) {
        throw new OutboundFailed(`download of ${redact(start)}: more than ${maxRedirects} redirects`);
      }
      current = next;
    }
  } catch (err) {
    deadline.finish();
    throw deadline.expired ? deadline.error : err;
  }
}

function requestHeaders(url: URL, start: URL, options: DownloadOptions): OutgoingHttpHeaders {
  const sameOrigin = url.origin === start.origin;
  const headers: OutgoingHttpHeaders = {
    'user-agent': 'Sibyl',
    accept: 'text/csv, application/json;q=0.9, */*;q=0.5',
    'accept-encoding': 'gzip',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (sameOrigin || !CREDENTIAL_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  const credentials = options.basicAuth ?? urlCredentials(start);
  if (sameOrigin && credentials) {
    const token = Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64');
    headers.authorization = `Basic ${token}`;
  }
  return headers;
}

function urlCredentials(url: URL): { user: string; password: string } | undefined {
  if (url.username === '' && url.password === '') return undefined;
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

function redirectTarget(response: IncomingMessage, current: URL, what: string): URL | undefined {
  if (!REDIRECT_STATUSES.has(response.statusCode ?? 0)) return undefined;
  const location = response.headers.location;
  if (location === undefined) {
    throw new OutboundFailed(`${what}: HTTP ${response.statusCode} redirect without a Location header`, {
      status: response.statusCode,
    });
  }
  try {
    return new URL(location, current);
  } catch {
    throw new OutboundFailed(`${what}: redirect to an invalid URL "${location}"`, { status: response.statusCode });
  }
}

function assertSuccess(response: IncomingMessage, what: string): void {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return;
  throw new OutboundFailed(`${what}: HTTP ${status} ${response.statusMessage ?? ''}`.trimEnd(), { status });
}
