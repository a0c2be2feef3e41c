/**
 * The ingest thread: parses a CSV upload, profiles it and encodes its rows as COPY text, so the
 * main thread only moves bytes between the request and the database (see csv-ingest-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { encodeCsv, serialiseError, type CsvThreadData, type ToCsvThread, type FromCsvThread } from './csv-ingest-thread.js';

const port = parentPort!;
const { options, batchRows, maxBytes } = workerData as CsvThreadData;
const send = (m: FromCsvThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

// Chunks as they arrive; each is acknowledged when the parser takes it, which is what lets the
// main thread read more of the request (and no more than that).
const queue: Uint8Array[] = [];
let ended = false;
let wake: (() => void) | undefined;
port.on('message', (m: ToCsvThread) => {
  if (m.kind === 'chunk') queue.push(m.bytes);
  else ended = true;
  wake?.();
});
async function* chunks(): AsyncGenerator<Buffer> {
  for (;;) {
    const next = queue.shift();
    if (next) {
      send({ kind: 'taken' });
      yield Buffer.from(next.buffer, next.byteOffset, next.byteLength);
    } else if (ended) return;
    else await new Promise<void>((r) => (wake = r));
  }
}

try {
  const encoded = await encodeCsv(Readable.from(chunks()), options, batchRows, maxBytes, (batch) => {
    const bytes = typeof batch.data === 'string' ? new TextEncoder().encode(batch.data) : batch.data;
    send({ kind: 'batch', bytes, format: batch.format, rows: batch.rows, dataBytes: batch.dataBytes }, [bytes.buffer as ArrayBuffer]);
  });
  send({ kind: 'done', ...encoded });
} catch (e) {
  send({ kind: 'error', error: serialiseError(e) });
}
port.close();
