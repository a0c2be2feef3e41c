import { request } from 'node:http';

/** Rows `from`..`to`−1 of the id,x,kind table the upload-kill tests send. */
export function csvRows(from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += `${i},${(i * 0.37) % 50},${i % 3 === 0 ? 'a' : 'b'}\n`;
  return s;
}

/**
 * Starts a CSV upload of rows from `firstRow` on that keeps sending until `stop` resolves (then drops
 * the request); resolves once 40,000 rows have gone out, so the server is writing rows, not waiting
 * for the first chunk, when the test kills it.
 */
export function endlessUpload(url: string, key: string, name: string, stop: Promise<void>, firstRow = 0): Promise<void> {
  return new Promise((started) => {
    const req = request(`${url}/v1/data/${name}`, { method: 'PUT', headers: { 'api-key': key, 'content-type': 'text/csv' } });
    req.on('error', () => { /* the server is killed mid-upload */ });
    req.write('id,x,kind\n');
    let next = firstRow;
    let stopped = false;
    void stop.then(() => { stopped = true; req.destroy(); });
    const pump = () => {
      while (!stopped) {
        const ok = req.write(csvRows(next, next + 2000));
        next += 2000;
        if (next >= firstRow + 40_000) started();
        if (!ok) { req.once('drain', pump); return; }
      }
    };
    pump();
  });
}
