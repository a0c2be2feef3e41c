import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { BENCH_KEY } from './server.js';

/** PUTs a CSV file as a stream; resolves with the status, the body and the seconds it took. */
export function uploadCsv(url: string, name: string, file: string): Promise<{ status: number; body: any; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/data/${encodeURIComponent(name)}`, { method: 'PUT', headers: { 'api-key': BENCH_KEY, 'content-type': 'text/csv' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body, seconds: (performance.now() - t0) / 1000 });
      });
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1 << 16 }).pipe(req);
  });
}

/** Starts a classification session and waits for it; returns the finished session and the seconds it took. */
export function runClassification(call: (m: string, p: string, b?: unknown) => Promise<any>, dataset: string, target: string): Promise<{ session: any; seconds: number }> {
  return runSession(call, { dataSourceName: dataset, predictionDomain: 'classification', targetColumn: target });
}

/** Starts the model session `body` asks for and polls it every pollMs until it completes or fails; the finished session and the seconds it took. */
export async function runSession(call: (m: string, p: string, b?: unknown) => Promise<any>, body: object, pollMs = 500): Promise<{ session: any; seconds: number }> {
  const t0 = performance.now();
  const created = await call('POST', '/v1/sessions/model', body);
  for (;;) {
    await new Promise((r) => setTimeout(r, pollMs));
    const s = await call('GET', `/v1/sessions/${created.sessionId}`);
    if (s.status === 'completed' || s.status === 'failed') return { session: s, seconds: (performance.now() - t0) / 1000 };
  }
}
