/** A CSV field, quoted only when it holds a quote, comma or line break (RFC 4180). */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

/** RFC 4180 CSV: header then rows; fields quoted only when they need it. */
export function toCsv(columns: string[], rows: Record<string, string>[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(r[c] ?? '')).join(','));
  return lines.join('\r\n') + '\r\n';
}
