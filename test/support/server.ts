import { mkdtempSync, rmSync } from 'node:fs';
import { pino } from 'pino';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import '../../src/features.js';
import { freshDatabase, type Backend } from './backends.js';
import type { Logger } from '../../src/log.js';

export interface TestServer {
  url: string;
  key: string;
  server: RunningServer;
  /** fetch against the server with the api-key (unless headers override it). */
  call(method: string, path: string, opts?: { json?: unknown; body?: string | Buffer; headers?: Record<string, string> }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export const TEST_KEY = 'sk_test_key_for_the_first_account';

/** A real listening server on a free loopback port, with a fresh store of the given kind; `log` receives the lines of its background work. */
/** `dataDir`: an embedded store made beforehand (an older schema to upgrade) instead of a fresh one. */
export async function startTestServer(backend: Backend = 'pglite', env: Record<string, string> = {}, opts: { log?: Logger; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sibyl-test-'));
  const db = backend === 'postgres' ? await freshDatabase() : undefined;
  const config: Config = {
    ...loadConfig({ ...process.env, ...env }),
    port: 0, host: '127.0.0.1', dataDir, databaseUrl: db?.url, apiKey: TEST_KEY,
  };
  const server = await startServer(config, { logLevel: 'silent', log: opts.log });
  const url = server.url;
  return {
    url, key: TEST_KEY, server,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { 'api-key': TEST_KEY, ...opts.headers };
      let body: string | Buffer | undefined = opts.body;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers['content-type'] ??= 'application/json';
      }
      for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let json: unknown;
      try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
      return { status: res.status, headers: res.headers, text, json };
    },
    async close() {
      await server.close();
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until check returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls an import until it completes or fails and returns the answer. */
export async function finishedImport(s: TestServer, id: string): Promise<TestResponse> {
  return eventually(async () => {
    const r = await s.call('GET', `/v1/imports/${id}`);
    return r.json.status === 'completed' || r.json.status === 'failed' ? r : undefined;
  });
}

/** Polls a session until it completes or fails and returns its body (for tests that expect either). */
export async function finishedSession(s: TestServer, id: string, timeoutMs = 120_000): Promise<any> {
  return eventually(async () => {
    const r = await s.call('GET', `/v1/sessions/${id}`);
    return r.json.status === 'completed' || r.json.status === 'failed' ? r.json : undefined;
  }, timeoutMs, 200);
}

/** Polls a session until it completes and returns its body; a failed session fails the test with its messages. */
export async function completedSession(s: TestServer, id: string, timeoutMs = 120_000): Promise<any> {
  return eventually(async () => {
    const r = await s.call('GET', `/v1/sessions/${id}`);
    if (r.json.status === 'failed') throw new Error(`session failed: ${JSON.stringify(r.json.messages)}`);
    return r.json.status === 'completed' ? r.json : undefined;
  }, timeoutMs, 200);
}

/** A logger like the service's (JSON lines) that keeps its lines for a test to read. */
export function capturedLog(): { log: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  let text = '';
  const log = pino({ level: 'info' }, { write: (line: string) => { text += line; } });
  return { log, text: () => text, lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}
