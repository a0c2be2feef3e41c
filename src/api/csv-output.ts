/** RFC 4180 CSV: header then rows; fields quoted only when they need it. */
export function toCsv(columns: string[], rows: Record<string, string>[]): string {
  const esc = (v: string) => (/[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v);
  const lines = [columns.map(esc).join(',')];
  for (const r of rows) lines.push(columns.map((c) => esc(r[c] ?? '')).join(','));
  return lines.join('\r\n') + '\r\n';
}
