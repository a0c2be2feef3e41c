import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh socket: a request fetch or node's client
 * would refuse to send (NUL bytes, invalid UTF-8, bare control characters in the path or headers).
 * Resolves with the parsed answer; rejects when the server closes without one.
 */
export function rawRequest(url: string, head: Buffer | string, body: Buffer | string = Buffer.alloc(0), timeoutMs = 30000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no answer in time')); }, timeoutMs);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(head as string, typeof head === 'string' ? 'latin1' : undefined), Buffer.from(body as string)]));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may answer and close before reading all we sent (an oversized request): that is fine.
    socket.on('error', () => { /* the answer so far decides */ });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const parsed = parseResponse(all);
      if (parsed) resolve(parsed);
      else reject(new Error(`no HTTP answer (${all.length} bytes: ${JSON.stringify(all.subarray(0, 200).toString('latin1'))})`));
    });
  });
}

/** Builds the head of a request: start line, Host, Connection (close unless asked to keep it alive), the given headers and Content-Length. */
export function requestHead(method: string, target: Buffer | string, headers: [string, Buffer | string][], bodyLength: number, connection: 'close' | 'keep-alive' = 'close'): Buffer {
  const parts: Buffer[] = [Buffer.from(`${method} `, 'latin1'), Buffer.from(target as string, typeof target === 'string' ? 'latin1' : undefined), Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\n`, 'latin1')];
  for (const [k, v] of headers) parts.push(Buffer.from(`${k}: `, 'latin1'), Buffer.from(v as string, typeof v === 'string' ? 'latin1' : undefined), Buffer.from('\r\n', 'latin1'));
  if (bodyLength > 0 || ['POST', 'PUT', 'PATCH'].includes(method)) parts.push(Buffer.from(`Content-Length: ${bodyLength}\r\n`, 'latin1'));
  parts.push(Buffer.from('\r\n', 'latin1'));
  return Buffer.concat(parts);
}

function parseResponse(all: Buffer): RawResponse | undefined {
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = all.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = all.subarray(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(m[1]), headers, body };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < b.length) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(b.subarray(i, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(b.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export interface TrickleOutcome {
  /** The answer, when one came before the socket closed. */
  response: RawResponse | undefined;
  /** Milliseconds from the first byte of the body to the socket's close. */
  closedAfterMs: number;
  /** Body bytes written before it closed. */
  bytesSent: number;
}

/**
 * A request whose head is sent at once and whose body follows one byte every `everyMs` (a
 * slowloris client); resolves when the server closes the socket, rejects if it is still open after
 * `giveUpMs`.
 */
export function trickledRequest(url: string, head: Buffer | string, body: string, everyMs: number, giveUpMs: number): Promise<TrickleOutcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let sent = 0;
    let started = 0;
    let ticker: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => { clearInterval(ticker); socket.destroy(); reject(new Error(`the connection was still open after ${giveUpMs} ms (${sent} body bytes sent)`)); }, giveUpMs);
    socket.on('connect', () => {
      socket.write(Buffer.from(head as string, typeof head === 'string' ? 'latin1' : undefined));
      started = Date.now();
      ticker = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body[sent++]!);
      }, everyMs);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => { /* the close decides */ });
    socket.on('close', () => {
      clearInterval(ticker);
      clearTimeout(giveUp);
      resolve({ response: parseResponse(Buffer.concat(chunks)), closedAfterMs: Date.now() - started, bytesSent: sent });
    });
  });
}
