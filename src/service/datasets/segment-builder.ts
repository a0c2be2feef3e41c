import type { Db } from '../../store/db.js';
import { DatasetRowsStore } from '../../store/dataset-rows-store.js';
import type { DatasetWriter } from './dataset-writer.js';

/**
 * Builds the next version of a data set in a new segment, a step (one short statement) at a
 * time: the live rows (less those matching `exclude`), then the staged upload merged in by
 * identity. Readers keep seeing the current version until the caller publishes this one.
 */
export async function copyOrMerge(db: Db, writer: DatasetWriter, job: {
  dataset: number;
  into: number;
  mergeStaged?: number;
  exclude?: { sql: string; params: unknown[] };
}): Promise<{ segment: number; rowCount: number; dataBytes: number; identitiesMerged: number }> {
  const rows = new DatasetRowsStore(db);
  for (const source of await rows.liveSegments(job.dataset)) {
    let after: number | undefined = -1;
    while (after !== undefined) {
      writer.check();
      after = await rows.copyStep(source.id, job.into, after, job.exclude);
    }
  }
  let identitiesMerged = 0;
  if (job.mergeStaged !== undefined) {
    const seqBase = (await rows.maxSeq(job.into)) + 1;
    let after: string | null | undefined = null;
    while (after !== undefined) {
      writer.check();
      const step = await rows.mergeStep(job.mergeStaged, job.into, seqBase, after);
      identitiesMerged += step.identities;
      after = step.last;
    }
  }
  writer.check();
  await rows.analyze();
  return { segment: job.into, identitiesMerged, ...(await rows.measure(job.into)) };
}
