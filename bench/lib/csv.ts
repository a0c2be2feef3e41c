/** The reference CSV reader of benchmarks and tests: whole small files, RFC 4180. */

export interface CsvTable {
  header: string[];
  rows: string[][]; // empty string = missing
}

/** RFC 4180 CSV parser (quotes, doubled quotes, CRLF); small files only — it reads the whole file. */
export function parseCsv(text: string): CsvTable {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else inQuotes = false;
      } else field += c;
    } else if (c === '"') inQuotes = true;
    else if (c === ',') { record.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field); field = '';
      records.push(record); record = [];
    } else field += c;
  }
  if (field !== '' || record.length) { record.push(field); records.push(record); }
  const nonEmpty = records.filter((r) => !(r.length === 1 && r[0] === ''));
  const [header, ...rows] = nonEmpty;
  return { header: header ?? [], rows };
}

/** Column of a table by name, as strings. */
export function column(t: CsvTable, name: string): string[] {
  const j = t.header.indexOf(name);
  if (j < 0) throw new Error(`no column ${name}`);
  return t.rows.map((r) => r[j] ?? '');
}

/** The `value` column of a long series table, by `series_id` in first-seen order; appended to `into` when given. */
export function seriesValues(t: CsvTable, into = new Map<string, number[]>()): Map<string, number[]> {
  const ids = column(t, 'series_id');
  const values = column(t, 'value');
  ids.forEach((id, i) => {
    if (!into.has(id)) into.set(id, []);
    into.get(id)!.push(Number(values[i]));
  });
  return into;
}
