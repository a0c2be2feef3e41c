/**
 * Windows-1252, the encoding of Excel's "CSV (Comma delimited)" on Western-European and American
 * Windows. Node's TextDecoder('windows-1252') decodes it as ISO-8859-1, so 0x80–0x9F (€, curly
 * quotes, dashes, Š, Ž, Œ, Ÿ) would become control characters; they are mapped here as the WHATWG
 * Encoding Standard's table does (its five unassigned bytes keep their own code points).
 */
const HIGH_CONTROLS = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

const C1 = /[\u0080-\u009f]/;
const EVERY_C1 = /[\u0080-\u009f]/g;

export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return C1.test(latin1) ? latin1.replace(EVERY_C1, (c) => String.fromCharCode(HIGH_CONTROLS[c.charCodeAt(0) - 0x80]!)) : latin1;
}
