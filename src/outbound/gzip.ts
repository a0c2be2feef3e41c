import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { OutboundFailed } from './errors.js';

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** Decompresses a gzip byte sequence. */
export async function* gunzipChunks(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  // A failure on either side destroys gunzip, so it surfaces from the loop below.
  pipeline(source, gunzip).catch(() => {});
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (err) {
    if (isZlibError(err)) throw new OutboundFailed(`body is not valid gzip data (${err.message})`, { cause: err });
    throw err;
  }
}

/**
 * Decompresses the bytes when they start with the gzip magic number, else passes them through.
 * This covers `.gz` files whatever the server says, and also the common server set-up that
 * labels a `.gz` file `Content-Encoding: gzip` (one layer then remains after the transport one).
 */
export async function* gunzipIfCompressed(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  while (headBytes < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    headBytes += next.value.length;
  }
  const whole = replay(head, iterator);
  if (Buffer.concat(head).subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) yield* gunzipChunks(whole);
  else yield* whole;
}

async function* replay(head: Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield* head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

function isZlibError(err: unknown): err is Error {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' &&
    (err as NodeJS.ErrnoException).code!.startsWith('Z_');
}
