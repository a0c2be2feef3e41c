import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Deadline } from './deadline.js';
import { asOutboundError, OutboundFailed } from './errors.js';
import { gunzipChunks, gunzipIfCompressed } from './gzip.js';

/**
 * The response body as a Readable: transport encoding removed, gzip files decompressed, at most
 * `maxBytes` decompressed bytes, and every failure (including the deadline) an OutboundFailed.
 * Ending, failing or destroying the stream closes the connection and stops the deadline.
 */
export function bodyStream(
  response: IncomingMessage,
  options: { maxBytes: number; deadline: Deadline; what: string },
): Readable {
  const raw: AsyncIterable<Buffer> = response;
  const transportDecoded = isGzipEncoded(response) ? gunzipChunks(raw) : raw;
  const chunks = limited(gunzipIfCompressed(transportDecoded), options);
  return new ChunkStream(chunks, () => options.deadline.finish());
}

/**
 * A body that did not come through our own request (a cloud SDK's stream): gzip files decompressed,
 * at most `maxBytes` decompressed bytes, every failure an OutboundFailed; `release` runs once when the
 * stream ends, fails or is destroyed.
 */
export function sdkBodyStream(
  raw: AsyncIterable<Buffer>,
  options: { maxBytes: number; deadline: Deadline; what: string; release?: () => void },
): Readable {
  const chunks = limited(gunzipIfCompressed(raw), options);
  return new ChunkStream(chunks, () => { options.deadline.finish(); options.release?.(); });
}

/** Fails before any body is read when the server used an encoding we did not ask for. */
export function assertSupportedEncoding(response: IncomingMessage, what: string): void {
  const encoding = contentEncoding(response);
  if (!['', 'identity', 'gzip', 'x-gzip'].includes(encoding)) {
    throw new OutboundFailed(`${what}: unsupported Content-Encoding "${encoding}"`);
  }
}

function isGzipEncoded(response: IncomingMessage): boolean {
  const encoding = contentEncoding(response);
  return encoding === 'gzip' || encoding === 'x-gzip';
}

function contentEncoding(response: IncomingMessage): string {
  return (response.headers['content-encoding'] ?? '').trim().toLowerCase();
}

async function* limited(
  chunks: AsyncIterable<Buffer>,
  { maxBytes, deadline, what }: { maxBytes: number; deadline: Deadline; what: string },
): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of chunks) {
      total += chunk.length;
      if (total > maxBytes) throw new OutboundFailed(`${what}: body exceeds the limit of ${maxBytes} bytes (counted after decompression)`);
      yield chunk;
    }
  } catch (err) {
    throw deadline.expired ? deadline.error : asOutboundError(err, `${what}: reading the body failed`);
  }
}

/** Readable over an async iterator that releases the connection as soon as it is destroyed. */
class ChunkStream extends Readable {
  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly release: () => void,
  ) {
    super();
  }

  override _read(): void {
    this.chunks.next().then(
      (next) => {
        if (next.done) this.push(null);
        else this.push(next.value);
      },
      (err: unknown) => this.destroy(err as Error),
    );
  }

  // Readable.from would wait for the pending read before cleaning up, i.e. forever on a stalled server.
  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.release();
    // Lets the decoding stages close their zlib streams now rather than when garbage-collected.
    this.chunks.return?.().catch(() => {});
    callback(err);
  }
}
