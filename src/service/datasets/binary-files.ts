import { ValidationError } from '../errors.js';

/**
 * Files that are not CSV text, known by their first bytes: a spreadsheet, an image, an archive sent
 * as data. Read as CSV they failed on their first NUL byte ("a NUL character is not allowed"), which
 * says nothing of what was wrong; they are refused with what the file looks like and what to send.
 */
interface BinaryKind {
  /** What the file looks like, as the message says it: "an Excel workbook (.xlsx)". */
  what: string;
  /** What to send instead. */
  instead: string;
}

const SAVE_AS_CSV = 'Save it as CSV (in Excel: File › Save As › "CSV UTF-8") and send that file.';
const NOT_DATA = 'Send the data as CSV text (or JSON records) instead.';

/** Bytes enough for every signature below; a ZIP archive's names are looked for in whatever more was read. */
const SIGNATURE_BYTES = 8;

const SIGNATURES: { bytes: number[]; kind: BinaryKind }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: { what: 'a PNG image', instead: NOT_DATA } },
  { bytes: [0xff, 0xd8, 0xff], kind: { what: 'a JPEG image', instead: NOT_DATA } },
  { bytes: [...ascii('GIF87a')], kind: { what: 'a GIF image', instead: NOT_DATA } },
  { bytes: [...ascii('GIF89a')], kind: { what: 'a GIF image', instead: NOT_DATA } },
  { bytes: [...ascii('%PDF-')], kind: { what: 'a PDF document', instead: 'Export its table as CSV and send that file.' } },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], kind: { what: 'an Excel 97–2003 workbook (.xls) or another older Office document', instead: SAVE_AS_CSV } },
  { bytes: [0x1f, 0x8b, 0x08], kind: { what: 'a gzip-compressed file', instead: 'Send the CSV uncompressed (an upload is not decompressed), or import it from a URL, which reads .csv.gz files.' } },
  { bytes: [0xff, 0xfe], kind: { what: 'UTF-16 text (as Excel\'s "Unicode Text" writes it)', instead: SAVE_AS_CSV } },
  { bytes: [0xfe, 0xff], kind: { what: 'UTF-16 text', instead: 'Save it as UTF-8 CSV and send that file.' } },
];

/** What a ZIP archive holds, by the names of its entries: Office and OpenDocument files are ZIP archives. */
const ZIP_CONTENTS: { name: string; kind: BinaryKind }[] = [
  { name: 'xl/', kind: { what: 'an Excel workbook (.xlsx)', instead: SAVE_AS_CSV } },
  { name: 'word/', kind: { what: 'a Word document (.docx)', instead: 'Put its table in a CSV file and send that.' } },
  { name: 'ppt/', kind: { what: 'a PowerPoint presentation (.pptx)', instead: NOT_DATA } },
  { name: 'application/vnd.oasis.opendocument.spreadsheet', kind: { what: 'an OpenDocument spreadsheet (.ods)', instead: 'Save it as CSV (in LibreOffice: File › Save As › "Text CSV") and send that file.' } },
];
const ZIP = { what: 'a ZIP archive', instead: 'Unzip it and send the CSV file inside.' };

/** What the file whose first bytes are `head` looks like, when it is not text; undefined when it may be. */
export function recogniseBinary(head: Uint8Array): BinaryKind | undefined {
  for (const s of SIGNATURES) if (startsWith(head, s.bytes)) return s.kind;
  // A Parquet file starts "PAR1" and its first page header (a control byte); a CSV header may start "PAR1,".
  if (startsWith(head, [...ascii('PAR1')]) && head.length > 4 && head[4]! < 0x20 && ![0x09, 0x0a, 0x0d].includes(head[4]!)) {
    return { what: 'a Parquet file', instead: 'Write it as CSV (pandas: df.to_csv) and send that file.' };
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    const names = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
    return ZIP_CONTENTS.find((z) => names.includes(z.name))?.kind ?? ZIP;
  }
  return undefined;
}

/**
 * The bytes of an upload as they come, after refusing with a 400 a file that starts like a binary
 * format. The first chunks are held until SIGNATURE_BYTES have come (or the body ended).
 */
export async function* refuseBinaryFiles(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let checked = false;
  for await (const chunk of source) {
    if (checked) { yield chunk; continue; }
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes < SIGNATURE_BYTES) continue;
    checked = true;
    yield checkedHead(held);
  }
  if (!checked && heldBytes > 0) yield checkedHead(held);
}

function checkedHead(held: Buffer[]): Buffer {
  const head = held.length === 1 ? held[0]! : Buffer.concat(held);
  const kind = recogniseBinary(head);
  if (kind) {
    throw new ValidationError({ data: [`The file looks like ${kind.what}, not CSV text. ${kind.instead}`] }, `The file is not CSV: it looks like ${kind.what}`);
  }
  return head;
}

function startsWith(head: Uint8Array, bytes: readonly number[]): boolean {
  return head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
}

function ascii(text: string): Uint8Array {
  return Buffer.from(text, 'latin1');
}
