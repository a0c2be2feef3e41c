/**
 * The dashboard's HTTP client: the same /v1 API as every other client, authenticated by the session
 * cookie; state-changing requests carry the session's CSRF token. Failures arrive in the API's error
 * shape and become ApiError: forms show its message, and its field reasons next to their inputs.
 */
import { fieldReasons } from './lib/error-details';

export interface ErrorBody { statusCode: number; message: string; errorType: string; errorDetails: Record<string, unknown> }

export class ApiError extends Error {
  /** `sent` is the request body, to tell an entry that gives a reason from one that echoes a value. */
  constructor(readonly status: number, readonly body: ErrorBody, readonly sent?: Record<string, unknown>) {
    super(body.message);
  }
  /** The reasons given for one field (`errorDetails[field]`), joined; none when the entries only repeat values. */
  field(name: string): string | undefined {
    const reasons = fieldReasons(this.body.errorDetails, name, this.sent);
    return reasons.length ? reasons.join('; ') : undefined;
  }
  /** The reasons for the fields other than `shown` (those a form has no input for), as "field: reason". */
  detailsExcept(shown: readonly string[] = []): string[] {
    return Object.keys(this.body.errorDetails ?? {}).filter((k) => !shown.includes(k))
      .flatMap((k) => fieldReasons(this.body.errorDetails, k, this.sent).map((r) => `${k}: ${r}`));
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when an API answer says the browser session ended (401), so the app can show sign-in. */
export function whenSignedOut(f: () => void): void {
  onSignedOut = f;
}

export type Query = Record<string, string | number | boolean | undefined | string[]>;

export function withQuery(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What a request that got no answer says: the server is stopped or restarting, or the network is down. */
export const UNREACHABLE = 'Sibyl did not answer: the server may be stopped or restarting, or the network is down. Try again in a moment, or reload the page.';

export async function api<T>(method: string, path: string, body?: unknown, init: { headers?: Record<string, string>; raw?: BodyInit } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken;
  let payload: BodyInit | undefined = init.raw;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    // fetch rejects only when no answer came at all; the browser's own words ("Failed to fetch") say nothing to a user.
    throw new ApiError(0, { statusCode: 0, message: UNREACHABLE, errorType: 'Network', errorDetails: {} });
  }
  const data = await parse(res);
  if (!res.ok) {
    const err = typeof data === 'object' && data !== null && 'message' in data
      ? (data as ErrorBody)
      : { statusCode: res.status, message: `HTTP ${res.status}`, errorType: 'Unknown', errorDetails: {} };
    if (res.status === 401 && !path.startsWith('/auth/signin') && !path.startsWith('/auth/reset')) onSignedOut();
    throw new ApiError(res.status, err, typeof body === 'object' && body !== null ? body as Record<string, unknown> : undefined);
  }
  return data as T;
}

export const get = <T>(path: string, query?: Query) => api<T>('GET', withQuery(path, query));

/**
 * Uploads a file with progress (fetch cannot report upload progress; XMLHttpRequest can).
 * Resolves with the parsed answer, rejects with ApiError like api().
 */
export function upload<T>(method: string, path: string, file: Blob, contentType: string, onProgress: (sent: number, total: number) => void): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open(method, path);
    xhr.setRequestHeader('content-type', contentType);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let data: unknown;
      try { data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined; } catch { data = undefined; }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(new ApiError(xhr.status, (data as ErrorBody) ?? { statusCode: xhr.status, message: `HTTP ${xhr.status}`, errorType: 'Unknown', errorDetails: {} }));
    };
    xhr.onerror = () => reject(new ApiError(0, { statusCode: 0, message: 'The upload failed: the connection to the server was lost', errorType: 'Network', errorDetails: {} }));
    xhr.onabort = () => reject(new ApiError(0, { statusCode: 0, message: 'The upload was cancelled', errorType: 'Aborted', errorDetails: {} }));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

/** Every page of a paged list or result (the API caps pages at 1000 rows), up to `max` rows. */
export async function getAll<T>(path: string, query: Query = {}, max = 20_000): Promise<{ rows: T[]; total: number; first: Record<string, unknown> }> {
  const rows: T[] = [];
  let first: Record<string, unknown> = {};
  let total = 0;
  for (let page = 0; ; page++) {
    const r = await get<Record<string, unknown> & { data?: T[]; items?: T[]; totalCount?: number; totalPages?: number }>(path, { ...query, page, pageSize: 1000 });
    if (page === 0) first = r;
    const batch = r.data ?? r.items ?? [];
    rows.push(...batch);
    total = r.totalCount ?? rows.length;
    if (batch.length === 0 || rows.length >= Math.min(total, max) || page + 1 >= (r.totalPages ?? 1)) break;
  }
  return { rows, total, first };
}
