import type { Db } from '../../store/db.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import { DatasetRowsStore } from '../../store/dataset-rows-store.js';
import { ConflictError } from '../errors.js';

/**
 * Rows per read. Each read is one short statement, so on the embedded store (one connection) a
 * request arriving meanwhile waits for at most one chunk, never for a whole data set.
 */
export const READ_CHUNK_ROWS = 5_000;

/**
 * A data set's rows as stored JSON text, in bounded chunks: storage order across its segments,
 * or time order for time series. The segments are the version current when reading starts; an
 * upload publishing meanwhile does not change what this reader sees (replaced segments stay
 * readable for a grace period, checked at the end).
 */
export async function* readRowTexts(db: Db, dataset: DatasetRecord, chunkRows = READ_CHUNK_ROWS): AsyncGenerator<string[]> {
  const store = new DatasetRowsStore(db.bulk());
  const segments = await store.liveSegments(dataset.id);
  for (const segment of segments) {
    if (dataset.identityKind === 'timestamp') {
      let after: { ts: number; seq: number } | undefined;
      for (;;) {
        const rows = await store.chunkByTime(segment.id, after, chunkRows);
        if (rows.length === 0) break;
        yield rows.map((r) => r.data);
        const last = rows[rows.length - 1]!;
        after = { ts: last.ts, seq: last.seq };
        if (rows.length < chunkRows) break;
      }
    } else {
      // Seq ranges of about a chunk (seqs are dense for uploaded segments; a sparse range widens the next).
      // The next chunk is asked for before this one is handed out, so the database reads it while
      // the caller decodes this one (each is still its own short statement).
      const last = await store.maxSeq(segment.id);
      let after = -1;
      let span = chunkRows;
      const read = (from: number) => {
        const upto = Math.min(last, from + span);
        const rows = store.chunk(segment.id, from, upto, chunkRows);
        rows.catch(() => {}); // awaited below; a reader that stops early must not leave it unhandled
        return { upto, rows };
      };
      let next = after < last ? read(after) : undefined;
      while (next) {
        const rows = await next.rows;
        if (rows.length === chunkRows) {
          after = rows[rows.length - 1]!.seq;
        } else {
          after = next.upto;
          if (rows.length < chunkRows / 2) span = Math.min(span * 2, 1 << 30);
        }
        next = after < last ? read(after) : undefined;
        if (rows.length > 0) yield rows.map((r) => r.data);
      }
    }
  }
  if (!(await store.stillThere(segments))) {
    throw new ConflictError(`The data set '${dataset.name}' was replaced while it was being read; please try again.`);
  }
}
