import type { IncomingMessage } from 'node:http';
import { Deadline } from './deadline.js';
import { OutboundFailed } from './errors.js';
import { parseTarget, redact, sendRequest } from './request.js';

export interface PostJsonOptions {
  /** Hosts exempt from the public-address rule (see parseAllowedHosts). */
  allowHosts: Set<string>;
  timeoutMs: number;
  headers?: Record<string, string>;
}

// A callback receiver's reply is not used; reading a little of it lets the server finish cleanly.
const MAX_DISCARDED_BYTES = 64 * 1024;

/**
 * POSTs a JSON body (session status callbacks). Redirects are not followed: a 3xx status is
 * returned as it is. Status >= 400 rejects with OutboundFailed carrying the status.
 */
export async function postJson(url: string, body: unknown, options: PostJsonOptions): Promise<{ status: number }> {
  const target = parseTarget(url);
  const what = `POST ${redact(target)}`;
  const payload = Buffer.from(JSON.stringify(body));
  const deadline = new Deadline(options.timeoutMs, what);
  try {
    const response = await sendRequest(target, {
      method: 'POST',
      headers: {
        'user-agent': 'Sibyl',
        ...lowerCaseKeys(options.headers ?? {}),
        'content-type': 'application/json',
        'content-length': String(payload.length),
      },
      body: payload,
      allowHosts: options.allowHosts,
      deadline,
    });
    const status = response.statusCode ?? 0;
    await discard(response);
    if (status >= 400) throw new OutboundFailed(`${what}: HTTP ${status} ${response.statusMessage ?? ''}`.trimEnd(), { status });
    return { status };
  } catch (err) {
    throw deadline.expired ? deadline.error : err;
  } finally {
    deadline.finish();
  }
}

async function discard(response: IncomingMessage): Promise<void> {
  let seen = 0;
  try {
    for await (const chunk of response) {
      seen += (chunk as Buffer).length;
      if (seen > MAX_DISCARDED_BYTES) break;
    }
  } catch {
    // The status has arrived, which is all a callback needs; a broken reply body changes nothing.
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
