import type { Db } from './db.js';
import type { CopyFormat } from './sql-pool.js';
import { PageCheckpoints } from './page-checkpoints.js';

/**
 * A data set's rows live in segments. An upload writes a new segment (state `building`) that no
 * reader sees, in as many short transactions as it likes, then publishes it in one short step
 * (store/datasets-store.ts `publish`): appended rows add a segment; rows with an identity are
 * merged into a fresh copy of the data set, which replaces the old segments (copy-on-write).
 * Replaced segments are `retired`: readers that started before keep reading them for a grace
 * period, then `collect` deletes them in small steps.
 */
export interface SegmentRef {
  id: number;
  rowCount: number;
}

/** A stored row as the readers see it: its order within the data set and its JSON text. */
export interface RowText {
  seq: number;
  data: string;
}

/** Columns of dataset_rows in the order writers put them in COPY text. */
export const ROW_COPY_COLUMNS = ['segment_id', 'seq', 'ident', 'ts', 'data'] as const;

/** Rows a single statement of the bulk steps touches (copy, merge, measure, collect). */
export const STEP_ROWS = 20_000;

/** default_statistics_target of the ANALYZE after a load (300 × target rows are sampled). */
const ANALYZE_STATISTICS_TARGET = 10;

/** How long replaced rows stay readable for sessions that started reading them. */
export const RETIRED_GRACE_MS = 15 * 60_000;

/** Where pages start: by segment (its id) in position order, and by reading (segments and date range) in time order. */
const positionMarks = new PageCheckpoints<number>();
const timeMarks = new PageCheckpoints<{ ts: number; seq: number }>();

export class DatasetRowsStore {
  constructor(private readonly db: Db) {}

  // ---- writers ----

  async createSegment(datasetId: number, writer: string): Promise<number> {
    const [r] = await this.db.query<{ id: number }>(
      `INSERT INTO dataset_segments (dataset_id, state, writer) VALUES ($1, 'building', $2) RETURNING id`, [datasetId, writer]);
    return Number(r!.id);
  }

  /** Rows in COPY text or binary format, columns as ROW_COPY_COLUMNS (or the staging table's, which are the same). */
  copyIn(table: 'dataset_rows' | 'upload_staging', data: Uint8Array | string, format: CopyFormat): Promise<void> {
    return this.db.copyIn(table, ROW_COPY_COLUMNS, data, format);
  }

  /**
   * Copies the next step of rows (by seq, after `afterSeq`) of one segment into another, leaving
   * out rows that match `exclude` (an SQL condition on the row, with its parameters from $3 on).
   * Returns the last seq read, or undefined when the source has no more rows.
   */
  async copyStep(from: number, to: number, afterSeq: number, exclude?: { sql: string; params: unknown[] }): Promise<number | undefined> {
    const [r] = await this.db.query<{ last: number | null }>(
      `WITH src AS (
         SELECT seq, ident, ts, data FROM dataset_rows WHERE segment_id = $1 AND seq > $2 ORDER BY seq LIMIT ${STEP_ROWS}
       ), ins AS (
         INSERT INTO dataset_rows (segment_id, seq, ident, ts, data)
         SELECT ${Number(to)}, seq, ident, ts, data FROM src${exclude ? ` WHERE NOT (${exclude.sql})` : ''}
       )
       SELECT max(seq) AS last FROM src`,
      [from, afterSeq, ...(exclude?.params ?? [])]);
    return r?.last === null || r?.last === undefined ? undefined : Number(r.last);
  }

  /**
   * Upserts the next step of staged rows (distinct identities after `afterIdent`, in identity
   * order) into the segment being built: the last occurrence of an identity in the upload wins,
   * and a row already there is overwritten field by field (fields the upload lacks are kept, so a
   * PUT of feature values for known dates does not erase the target). New identities are placed
   * after every existing row, in upload order (seq = seqBase + their position in the upload).
   * Returns the last identity merged (undefined when none are left) and how many the step merged.
   */
  async mergeStep(staging: number, into: number, seqBase: number, afterIdent: string | null): Promise<{ last: string | undefined; identities: number }> {
    const [r] = await this.db.query<{ last: string | null; n: number | string }>(
      `WITH src AS (
         SELECT DISTINCT ON (ident) ident, seq, ts, data FROM upload_staging
         WHERE segment_id = $1 AND ($3::text IS NULL OR ident > $3::text)
         ORDER BY ident, seq DESC LIMIT ${STEP_ROWS}
       ), ins AS (
         INSERT INTO dataset_rows AS d (segment_id, seq, ident, ts, data)
         SELECT $2, $4::bigint + src.seq, src.ident, src.ts, src.data FROM src
         ON CONFLICT (segment_id, ident) WHERE ident IS NOT NULL
         DO UPDATE SET ts = EXCLUDED.ts, data = (d.data::jsonb || EXCLUDED.data::jsonb)::text
       )
       SELECT max(ident) AS last, count(*) AS n FROM src`,
      [staging, into, afterIdent, seqBase]);
    return { last: r?.last ?? undefined, identities: Number(r?.n ?? 0) };
  }

  /** The highest seq of a segment (-1 when empty). */
  async maxSeq(segment: number): Promise<number> {
    const [r] = await this.db.query<{ m: number | null }>('SELECT max(seq) AS m FROM dataset_rows WHERE segment_id = $1', [segment]);
    return r?.m === null || r?.m === undefined ? -1 : Number(r.m);
  }

  /** Counts a segment's rows and bytes, a step at a time. */
  async measure(segment: number): Promise<{ rowCount: number; dataBytes: number }> {
    let rowCount = 0;
    let dataBytes = 0;
    let after = -1;
    for (;;) {
      const [r] = await this.db.query<{ n: number; bytes: number | null; last: number | null }>(
        `SELECT count(*)::bigint AS n, sum(len)::bigint AS bytes, max(seq) AS last FROM (
           SELECT seq, octet_length(data) AS len FROM dataset_rows WHERE segment_id = $1 AND seq > $2 ORDER BY seq LIMIT ${STEP_ROWS}) s`,
        [segment, after]);
      const n = Number(r?.n ?? 0);
      rowCount += n;
      dataBytes += Number(r?.bytes ?? 0);
      if (n < STEP_ROWS || r?.last === null || r?.last === undefined) return { rowCount, dataBytes };
      after = Number(r.last);
    }
  }

  /**
   * After a first upload whose timestamp column was only inferred (unique dates, known once every
   * row was seen): gives the segment's rows their identity, a step at a time.
   */
  async setIdentities(segment: number, column: string, parse: (v: string) => number | null): Promise<void> {
    let after = -1;
    for (;;) {
      const rows = await this.db.query<{ seq: number; v: string | null }>(
        `SELECT seq, data::json ->> $3 AS v FROM dataset_rows WHERE segment_id = $1 AND seq > $2 ORDER BY seq LIMIT ${STEP_ROWS}`,
        [segment, after, column]);
      if (rows.length === 0) return;
      const seqs: string[] = [];
      const tss: (string | null)[] = [];
      for (const r of rows) {
        const ms = r.v === null ? null : parse(r.v);
        seqs.push(String(r.seq));
        tss.push(ms === null ? null : String(ms));
      }
      await this.db.query(
        `UPDATE dataset_rows d SET ts = u.ts::bigint, ident = u.ts
         FROM unnest($2::text[], $3::text[]) AS u(seq, ts)
         WHERE d.segment_id = $1 AND d.seq = u.seq::bigint`, [segment, seqs, tss]);
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  /**
   * Refreshes the planner's statistics after a big load: without them PostgreSQL (and PGlite,
   * which has no autovacuum) plans keyset reads of a new segment as a sort of all its rows.
   * The plans need segment sizes and seq/ts ranges, not fine histograms: a sample of 3,000 rows
   * (statistics target 10, not the default 100's 30,000) tells them, and costs the embedded
   * database ~0.05 s instead of ~0.3 s of CPU after a 1M-row upload (its reads are random page reads).
   */
  async analyze(tables: readonly ('dataset_rows' | 'upload_staging')[] = ['dataset_rows', 'upload_staging']): Promise<void> {
    await this.db.tx(async (tx) => {
      await tx.query(`SET LOCAL default_statistics_target = ${ANALYZE_STATISTICS_TARGET}`);
      await tx.query(`ANALYZE ${tables.join(', ')}`);
    });
  }

  // ---- readers ----

  /** The segments that make up a data set now, in order. */
  async liveSegments(datasetId: number): Promise<SegmentRef[]> {
    const rows = await this.db.query<{ id: number; row_count: number }>(
      `SELECT id, row_count FROM dataset_segments WHERE dataset_id = $1 AND state = 'live' ORDER BY position, id`, [datasetId]);
    return rows.map((r) => ({ id: Number(r.id), rowCount: Number(r.row_count) }));
  }

  /** True while none of the segments has been collected (a reader checks this after its last chunk). */
  async stillThere(segments: readonly SegmentRef[]): Promise<boolean> {
    if (segments.length === 0) return true;
    const [r] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dataset_segments WHERE id = ANY($1::bigint[])', [segments.map((s) => s.id)]);
    return Number(r?.n) === segments.length;
  }

  /**
   * The next chunk of a segment's rows in storage order (keyset: after `afterSeq`, at most up to
   * `uptoSeq`). The upper bound keeps each read's cost bounded whatever plan the database picks
   * (before statistics exist it may sort every remaining row for each chunk).
   */
  async chunk(segment: number, afterSeq: number, uptoSeq: number, limit: number): Promise<RowText[]> {
    const rows = await this.db.query<{ seq: number; data: string }>(
      'SELECT seq, data FROM dataset_rows WHERE segment_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4', [segment, afterSeq, uptoSeq, limit]);
    return rows.map((r) => ({ seq: Number(r.seq), data: r.data }));
  }

  /** The next chunk in time order (time series: one segment, every row has a timestamp). */
  async chunkByTime(segment: number, after: { ts: number; seq: number } | undefined, limit: number): Promise<(RowText & { ts: number })[]> {
    const rows = await this.db.query<{ seq: number; ts: number; data: string }>(after
      ? 'SELECT seq, ts, data FROM dataset_rows WHERE segment_id = $1 AND ts IS NOT NULL AND (ts, seq) > ($2, $3) ORDER BY ts, seq LIMIT $4'
      : 'SELECT seq, ts, data FROM dataset_rows WHERE segment_id = $1 AND ts IS NOT NULL ORDER BY ts, seq LIMIT $2',
    after ? [segment, after.ts, after.seq, limit] : [segment, limit]);
    return rows.map((r) => ({ seq: Number(r.seq), ts: Number(r.ts), data: r.data }));
  }

  /**
   * One page of rows (GET /v1/data/<name>): across appended segments by position, or in time
   * order within a date range (time series have one segment). A page after one this process has
   * read starts from where that one ended instead of skipping rows (page-checkpoints.ts).
   */
  async page(segments: readonly SegmentRef[], q: { from?: number; to?: number; byTime: boolean; offset: number; limit: number }): Promise<{ rows: string[]; total: number }> {
    if (q.byTime || q.from !== undefined || q.to !== undefined) return this.pageInTimeOrder(segments, q);
    const total = segments.reduce((a, s) => a + s.rowCount, 0);
    const rows: string[] = [];
    let skip = q.offset;
    for (const s of segments) {
      if (rows.length >= q.limit) break;
      if (skip >= s.rowCount) { skip -= s.rowCount; continue; }
      const key = String(s.id);
      const mark = positionMarks.nearest(key, skip);
      const got = await this.db.query<{ seq: number; data: string }>(mark
        ? 'SELECT seq, data FROM dataset_rows WHERE segment_id = $1 AND seq > $4 ORDER BY seq LIMIT $2 OFFSET $3'
        : 'SELECT seq, data FROM dataset_rows WHERE segment_id = $1 ORDER BY seq LIMIT $2 OFFSET $3',
      [s.id, q.limit - rows.length, skip - (mark?.offset ?? 0), ...(mark ? [mark.after] : [])]);
      for (const r of got) rows.push(r.data);
      if (got.length > 0) positionMarks.remember(key, skip + got.length, Number(got[got.length - 1]!.seq));
      skip = 0;
    }
    return { rows, total };
  }

  private async pageInTimeOrder(segments: readonly SegmentRef[], q: { from?: number; to?: number; byTime: boolean; offset: number; limit: number }): Promise<{ rows: string[]; total: number }> {
    const where: string[] = ['segment_id = ANY($1::bigint[])'];
    const params: unknown[] = [segments.map((s) => s.id)];
    if (q.from !== undefined) { params.push(q.from); where.push(`ts >= $${params.length}`); }
    if (q.to !== undefined) { params.push(q.to); where.push(`ts <= $${params.length}`); }
    const key = `${q.byTime ? 'ts' : 'segment'}:${segments.map((s) => s.id).join(',')}:${q.from ?? ''}:${q.to ?? ''}`;
    let counts = timeMarks.counts(key);
    if (!counts) {
      const [t] = await this.db.query<{ n: number; unkeyed: number }>(
        `SELECT count(*)::bigint AS n, count(*) FILTER (WHERE ts IS NULL)::bigint AS unkeyed FROM dataset_rows WHERE ${where.join(' AND ')}`, params);
      counts = { total: Number(t?.n ?? 0), unkeyed: Number(t?.unkeyed ?? 0) };
      timeMarks.rememberCounts(key, counts.total, counts.unkeyed);
    }
    // Rows without a timestamp sort after all others and cannot be sought past by (ts, seq).
    const mark = q.byTime && counts.unkeyed === 0 ? timeMarks.nearest(key, q.offset) : undefined;
    if (mark) {
      params.push(mark.after.ts, mark.after.seq);
      const ts = `$${params.length - 1}`;
      where.push(`ts >= ${ts} AND (ts > ${ts} OR seq > $${params.length})`);
    }
    params.push(q.limit, q.offset - (mark?.offset ?? 0));
    const rows = await this.db.query<{ seq: number; ts: number | null; data: string }>(
      `SELECT seq, ts, data FROM dataset_rows WHERE ${where.join(' AND ')} ORDER BY ${q.byTime ? 'ts, seq' : 'segment_id, seq'} LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
    const last = rows[rows.length - 1];
    if (q.byTime && last && last.ts !== null) timeMarks.remember(key, q.offset + rows.length, { ts: Number(last.ts), seq: Number(last.seq) });
    return { rows: rows.map((r) => r.data), total: counts.total };
  }

  // ---- collection ----

  /**
   * Deletes one step of garbage: rows of a retired segment past its grace period, of a building
   * segment whose writer is gone (killed mid-upload), and staged rows of uploads no longer
   * building. Returns false when there was nothing to do.
   */
  async collectStep(): Promise<boolean> {
    const [seg] = await this.db.query<{ id: number }>(
      `SELECT s.id FROM dataset_segments s
       WHERE (s.state = 'retired' AND s.expires_at < now())
          OR (s.state = 'building' AND NOT EXISTS (
                SELECT 1 FROM datasets d WHERE d.id = s.dataset_id AND d.writer = s.writer AND d.writer_expires_at > now()))
       ORDER BY s.id LIMIT 1`);
    if (seg) {
      const id = Number(seg.id);
      // The segment row goes first, so a reader's stillThere() fails before any of its rows go.
      await this.db.query(`UPDATE dataset_segments SET state = 'retired', expires_at = '-infinity' WHERE id = $1`, [id]);
      const done = await this.deleteRowsStep('dataset_rows', id) && await this.deleteRowsStep('upload_staging', id);
      if (done) await this.db.query('DELETE FROM dataset_segments WHERE id = $1', [id]);
      return true;
    }
    const [orphan] = await this.db.query<{ segment_id: number }>(
      `SELECT u.segment_id FROM upload_staging u WHERE NOT EXISTS (
         SELECT 1 FROM dataset_segments s WHERE s.id = u.segment_id AND s.state = 'building') LIMIT 1`);
    if (orphan) {
      await this.deleteRowsStep('upload_staging', Number(orphan.segment_id));
      return true;
    }
    return false;
  }

  /** Deletes up to STEP_ROWS rows of a segment; true when none are left. */
  private async deleteRowsStep(table: 'dataset_rows' | 'upload_staging', segment: number): Promise<boolean> {
    const [r] = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE segment_id = $1 LIMIT ${STEP_ROWS}) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`, [segment]);
    return Number(r?.n ?? 0) < STEP_ROWS;
  }
}
