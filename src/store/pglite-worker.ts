/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every statement
 * runs synchronously on the thread that calls it, so on the main thread a 50 ms COPY is 50 ms in
 * which no HTTP request is answered. Here it runs beside the event loop; the main thread only posts
 * statements and receives their results (`PgLiteHost` in pglite-pool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { PgLiteReply, PgLiteRequest } from './pglite-protocol.js';

const { dataDir } = workerData as { dataDir: string | undefined };
const port = parentPort!;

let pg: PGlite;
try {
  pg = new PGlite(dataDir, { parsers: { 20: (v: string) => Number(v) } });
  await pg.waitReady;
  port.postMessage({ id: 0, ok: true } satisfies PgLiteReply);
} catch (e) {
  port.postMessage(failure(0, e));
  process.exit(1);
}

port.on('message', (req: PgLiteRequest) => {
  void handle(req).then((reply) => {
    const transfer = reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : [];
    port.postMessage(reply, transfer);
    if (req.kind === 'close') port.close();
  });
});

async function handle(req: PgLiteRequest): Promise<PgLiteReply> {
  try {
    switch (req.kind) {
      case 'query': {
        const r = await pg.query(req.sql, req.params as unknown[] | undefined, req.bytes ? { blob: new Blob([req.bytes]) } : undefined);
        const bytes = r.blob ? new Uint8Array(await r.blob.arrayBuffer()) : undefined;
        return { id: req.id, ok: true, rows: r.rows as Record<string, unknown>[], affectedRows: r.affectedRows ?? r.rows.length, bytes };
      }
      case 'close':
        await pg.close();
        return { id: req.id, ok: true, rows: [], affectedRows: 0 };
    }
  } catch (e) {
    return failure(req.id, e);
  }
}

function failure(id: number, e: unknown): PgLiteReply {
  const err = e as Error & Record<string, unknown>;
  // PostgreSQL's error fields (code, detail, hint…) travel with the message.
  const fields: Record<string, string> = {};
  for (const k of ['code', 'detail', 'hint', 'schema', 'table', 'column', 'constraint', 'severity']) {
    if (typeof err?.[k] === 'string') fields[k] = err[k] as string;
  }
  return { id, ok: false, message: err?.message ?? String(e), fields };
}
