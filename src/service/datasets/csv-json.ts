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

  constructor(header: readonly string[]) {
    const positions = header.map((_, i) => i);
    const indexes = positions.filter((i) => isArrayIndex(header[i]!)).sort((a, b) => Number(header[a]) - Number(header[b]));
    this.order = [...indexes, ...positions.filter((i) => !isArrayIndex(header[i]!))];
    this.keys = header.map((name) => JSON.stringify(name) + ':');
    this.keysEscaped = this.keys.some((k) => k.includes('\\'));
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
