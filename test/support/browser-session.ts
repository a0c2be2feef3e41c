import type { TestResponse } from './server.js';

/**
 * What a browser does with the dashboard's cookie, over plain fetch: keeps the session cookie it
 * is given, sends it back, and adds the CSRF token (unless told not to).
 */
export class BrowserSession {
  cookie = '';
  csrf = '';
  setCookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  async call(method: string, path: string, opts: { json?: unknown; body?: string; headers?: Record<string, string>; csrf?: boolean } = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...(this.cookie ? { cookie: this.cookie } : {}), ...opts.headers };
    if (opts.csrf !== false && this.csrf && method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] ??= this.csrf;
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    this.setCookie = res.headers.get('set-cookie');
    const session = this.setCookie && /(?:__Host-)?sibyl_session=([^;]*)/.exec(this.setCookie);
    if (session) this.cookie = session[1] ? `${session[0].split('=')[0]}=${session[1]}` : '';
    const text = await res.text();
    let json: any;
    try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
    if (json && typeof json.csrfToken === 'string') this.csrf = json.csrfToken;
    return { status: res.status, headers: res.headers, text, json };
  }

  async signUp(email: string, password = 'a perfectly fine passphrase'): Promise<TestResponse> {
    return this.call('POST', '/auth/signup', { json: { email, password } });
  }

  async signIn(email: string, password = 'a perfectly fine passphrase'): Promise<TestResponse> {
    return this.call('POST', '/auth/signin', { json: { email, password } });
  }
}
