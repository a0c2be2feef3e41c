/**
 * Upload rows → the COPY text that stores them (store/copy-text.ts), profiling every column on the
 * way. Pure computation, so it runs where the upload's CPU work is cheapest for everybody else: in
 * the ingest thread for CSV bodies (csv-ingest-thread.ts), in-thread for JSON records.
 */
import { TableProfiler, type ColumnProfile } from '../../domain/profile.js';
import { MissingValues } from '../../domain/missing-values.js';
import type { Identity } from '../../domain/infer.js';
import { parseTimestamp } from '../../domain/dates.js';
import { copyEscape } from '../../store/copy-text.js';
import { COPY_BINARY_HEADER, COPY_BINARY_NULL, COPY_BINARY_TRAILER } from '../../store/copy-binary.js';
import { ROW_COPY_COLUMNS } from '../../store/dataset-rows-store.js';
import type { CopyFormat } from '../../store/sql-pool.js';
import { ValidationError } from '../errors.js';
import { RowJsonWriter } from './csv-json.js';
import { Utf8Buffer } from './utf8-buffer.js';
import type { ColumnLimits } from './column-limits.js';

export interface EncodedBatch {
  /**
   * Rows for COPY into dataset_rows / upload_staging (segment_id, seq, ident, ts, data): binary
   * format (CSV) or text (JSON records, as a string).
   */
  data: Uint8Array | string;
  format: CopyFormat;
  rows: number;
  /** UTF-8 bytes of the rows' JSON (what a data set's size counts). */
  dataBytes: number;
}

export interface RowEncoderOptions {
  segment: number;
  /** Columns the data set already has (profile order). */
  knownColumns: string[];
  /** Known before any row is read (declared or stored); undefined: maybe inferred later. */
  identity: Identity | undefined;
  /** The data set's markers for a missing value (domain/missing-values.ts): missing in the profile, stored as sent. */
  missingValues?: string[];
  /** Checked on a CSV's header (with knownColumns) before its rows are read; JSON records are checked by ingest.ts. */
  columnLimits?: ColumnLimits;
}

export class RowEncoder {
  private profiler: TableProfiler;
  private json: RowJsonWriter | undefined;
  private header: readonly string[] | undefined;
  private identityAt = -1;
  private seq = 0;
  private readonly prefix: string;
  private readonly out = new Utf8Buffer();

  constructor(private readonly opts: RowEncoderOptions) {
    this.profiler = new TableProfiler(opts.knownColumns, opts.knownColumns, this.markers());
    this.prefix = `${opts.segment}\t`;
  }

  private markers(): MissingValues | undefined {
    return this.opts.missingValues?.length ? new MissingValues(this.opts.missingValues) : undefined;
  }

  get rowsSeen(): number {
    return this.seq;
  }

  /** CSV rows, positional in header order ('' = empty cell), in binary COPY format. */
  csvBatch(header: readonly string[], rows: readonly string[][]): EncodedBatch {
    if (this.header !== header) {
      if (!this.header) {
        this.profiler = new TableProfiler(this.opts.knownColumns, header, this.markers());
        this.json = new RowJsonWriter(header);
        const id = this.opts.identity;
        this.identityAt = id && id.kind !== 'none' ? header.indexOf(id.column) : -1;
      }
      this.header = header;
    }
    const out = this.out;
    const json = this.json!;
    const identity = this.opts.identity;
    let dataBytes = 0;
    out.bytes(COPY_BINARY_HEADER);
    for (let i = 0; i < rows.length; i++) {
      const values = rows[i]!;
      this.profiler.addRow(values);
      const index = this.seq++;
      out.int16(ROW_COPY_COLUMNS.length);
      out.int32(8);
      out.int64(this.opts.segment);
      out.int32(8);
      out.int64(index);
      if (identity && identity.kind !== 'none') {
        const v = values[this.identityAt];
        const id = identityValue(identity, index, v === '' ? undefined : v);
        const at = out.reserve32();
        out.patch32(at, out.string(String(id)));
        if (typeof id === 'string') out.int32(COPY_BINARY_NULL);
        else { out.int32(8); out.int64(id); }
      } else {
        out.int32(COPY_BINARY_NULL);
        out.int32(COPY_BINARY_NULL);
      }
      const at = out.reserve32();
      const bytes = json.writeJson(values, out);
      out.patch32(at, bytes);
      dataBytes += bytes;
    }
    out.bytes(COPY_BINARY_TRAILER);
    return { data: out.take(), format: 'binary', rows: rows.length, dataBytes };
  }

  /** JSON records (values: strings, numbers, booleans, null). */
  recordBatch(records: readonly Record<string, unknown>[]): EncodedBatch {
    const id = this.opts.identity;
    const column = id && id.kind !== 'none' ? id.column : undefined;
    let text = '';
    let dataBytes = 0;
    for (const raw of records) {
      const rec = normaliseRecord(raw);
      this.profiler.addRecord(rec);
      const data = JSON.stringify(rec);
      dataBytes += utf8Length(data);
      text += this.line(data, column === undefined ? undefined : rec[column]);
    }
    return { data: text, format: 'text', rows: records.length, dataBytes };
  }

  profiles(): Record<string, ColumnProfile> {
    return this.profiler.profiles();
  }

  /** One COPY line; the row's identity from its value in the key or timestamp column. */
  private line(data: string, v: string | undefined): string {
    const index = this.seq++;
    const { ident, ts } = this.identity(index, v);
    return `${this.prefix}${index}\t${ident}\t${ts}\t${copyEscape(data)}\n`;
  }

  /** The ident and ts fields of row `index` as COPY text (\\N when the data set has no identity). */
  private identity(index: number, v: string | undefined): { ident: string; ts: string } {
    const identity = this.opts.identity;
    if (!identity || identity.kind === 'none') return { ident: '\\N', ts: '\\N' };
    const id = identityValue(identity, index, v);
    return typeof id === 'string' ? { ident: copyEscape(id), ts: '\\N' } : { ident: String(id), ts: String(id) };
  }
}

/** Row `index`'s identity: its key, or its timestamp in epoch ms (also its ident, as text). */
function identityValue(identity: Exclude<Identity, { kind: 'none' }>, index: number, v: string | undefined): string | number {
  if (v === undefined) throw ValidationError.of('data', `record ${index} has no value in the ${identity.kind} column '${identity.column}'`);
  if (identity.kind === 'key') return v;
  const ms = parseTimestamp(v);
  if (ms === null) throw ValidationError.of('data', `record ${index}: '${v}' in the timestamp column '${identity.column}' is not a date`);
  return ms;
}

/** Values are stored as strings; missing values are left out of the record. */
function normaliseRecord(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v === null || v === undefined) continue;
    if (typeof v === 'string') { if (v !== '') out[k] = v; }
    else if (typeof v === 'number') { if (Number.isFinite(v)) out[k] = String(v); }
    else if (typeof v === 'boolean') out[k] = v ? 'true' : 'false';
    else throw ValidationError.of('data', `column '${k}' holds ${Array.isArray(v) ? 'a list' : 'an object'}; values must be numbers, strings, true or false`);
  }
  return out;
}

/** UTF-8 length without encoding: ASCII text (the common case) is its own length. */
function utf8Length(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8');
  return s.length;
}
