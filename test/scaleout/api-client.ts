/** JSON over fetch against a Sibyl process started by the test. */
export function apiClient(baseUrl: string, key: string) {
  return async function call(method: string, path: string, json?: unknown): Promise<{ status: number; json: any }> {
    const headers: Record<string, string> = { 'api-key': key };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
}

export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
