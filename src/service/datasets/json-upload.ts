import type { Readable } from 'node:stream';
import { isPlainObject, pick } from '../../domain/lenient.js';
import { normalizeColumnMap, type ColumnPatchMap } from '../../domain/columns.js';
import { TooLargeError, ValidationError } from '../errors.js';
import { flawMessage, inspectJson, keepOverflowingNumbers } from '../../domain/json-flaws.js';

export interface JsonUpload {
  records: unknown[] | undefined;
  columns: ColumnPatchMap;
}

/** The JSON upload shape: `{data, columns}` (any letter case) or a bare array of records. */
export function interpretJsonUpload(body: unknown): JsonUpload {
  if (body === undefined || body === null || body === '') return { records: undefined, columns: {} };
  if (Array.isArray(body)) return { records: body, columns: {} };
  if (!isPlainObject(body)) throw ValidationError.of('body', 'send an object with data (an array of records) and columns, or an array of records');
  const data = pick(body, 'data');
  if (data !== undefined && !Array.isArray(data)) throw ValidationError.of('data', 'data must be an array of records');
  const cols = normalizeColumnMap(pick(body, 'columns'));
  if (Object.keys(cols.errors).length) throw new ValidationError(cols.errors, 'One or more columns were supplied with invalid metadata', 'InvalidColumnMetadata');
  return { records: data as unknown[] | undefined, columns: cols.columns };
}

/** Reads a JSON document from a stream (URL imports), bounded: JSON is parsed whole, unlike CSV. */
export async function readJsonUpload(stream: Readable, maxBytes: number): Promise<JsonUpload & { records: unknown[] }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new TooLargeError(`JSON files are read whole and may be at most ${maxBytes} bytes; import large data as CSV`, { limitBytes: maxBytes });
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try { body = JSON.parse(text); } catch (e) { throw ValidationError.of('data', `the file is not valid JSON: ${(e as Error).message}`); }
  // The same refusals and the same keeping of overflowing numbers as for a JSON request body (api/json-body.ts).
  const inspection = inspectJson(body);
  if (inspection.flaw) throw ValidationError.of('data', flawMessage(inspection.flaw, 'The file'));
  if (inspection.overflow) body = JSON.parse(keepOverflowingNumbers(text));
  const upload = interpretJsonUpload(body);
  if (!upload.records) throw ValidationError.of('data', 'the JSON file holds no data array');
  return { ...upload, records: upload.records };
}
