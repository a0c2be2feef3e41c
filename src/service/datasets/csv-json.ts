import type { Utf8Buffer } from './utf8-buffer.js';

/**
 * The stored JSON text of a CSV row, built from the header and the row's values without an
 * intermediate object: exactly what JSON.stringify would write for the record (empty cells left
 * out), including its key order, in which array-index names ("0", "17") come first, ascending.
 */
export class RowJsonWriter {
  /** Header positions in JSON.stringify's key order. */
  private readonly order: number[];
  /** '"name":' per header position, escaped once. */
  private readonly keys: string[];
  /** Whether a key's JSON holds a backslash (an escaped name). */
  private readonly keysEscaped: boolean;
  /** Whether the last row written holds a backslash (a value needed escaping, or a key did). */
  escaped = false;
  /** The keys as `writeJson` writes them (UTF-8), and their length in bytes. */
  private readonly jsonKeys: Uint8Array[];
  private readonly keyBytes: number[];

  constructor(header: readonly string[]) {
    const positions = header.map((_, i) => i);
    const indexes = positions.filter((i) => isArrayIndex(header[i]!)).sort((a, b) => Number(header[a]) - Number(header[b]));
    this.order = [...indexes, ...positions.filter((i) => !isArrayIndex(header[i]!))];
    this.keys = header.map((name) => JSON.stringify(name) + ':');
    this.keysEscaped = this.keys.some((k) => k.includes('\\'));
    const utf8 = new TextEncoder();
    this.jsonKeys = this.keys.map((k) => utf8.encode(k));
    this.keyBytes = this.jsonKeys.map((k) => k.length);
  }

  /** The same JSON as `write`, as UTF-8 straight into `out` (a binary COPY field). Returns its length in bytes. */
  writeJson(values: readonly string[], out: Utf8Buffer): number {
    out.ascii(OPEN_BRACE);
    let bytes = 1;
    let first = true;
    for (let k = 0; k < this.order.length; k++) {
      const i = this.order[k]!;
      const v = values[i]!;
      if (v === '') continue;
      if (first) first = false;
      else { out.ascii(COMMA); bytes++; }
      out.bytes(this.jsonKeys[i]!);
      bytes += this.keyBytes[i]!;
      if (needsEscape(v)) {
        bytes += out.string(JSON.stringify(v));
      } else {
        out.ascii(QUOTE);
        bytes += out.string(v) + 2;
        out.ascii(QUOTE);
      }
    }
    out.ascii(CLOSE_BRACE);
    return bytes + 1;
  }

  write(values: readonly string[]): string {
    let out = '{';
    let escaped = this.keysEscaped;
    for (let k = 0; k < this.order.length; k++) {
      const i = this.order[k]!;
      const v = values[i]!;
      if (v === '') continue;
      if (out.length > 1) out += ',';
      if (needsEscape(v)) {
        escaped = true;
        out += this.keys[i]! + JSON.stringify(v);
      } else {
        out += this.keys[i]! + '"' + v + '"';
      }
    }
    this.escaped = escaped;
    return out + '}';
  }
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;

/** Characters JSON.stringify escapes: quote, backslash, controls, and (lone) surrogates. */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** A canonical integer name below 2^32 - 1, which objects order before all other names. */
function isArrayIndex(name: string): boolean {
  const n = Number(name);
  return Number.isInteger(n) && n >= 0 && n < 4294967295 && String(n) === name;
}
