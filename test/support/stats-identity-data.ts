import { mulberry32 } from './random.js';

/**
 * A data set made to exercise every branch of the column statistics (test/api/dataset-stats-identity.test.ts):
 * numbers written several ways (1 and 1.0, -0, thousands separators, a currency symbol, a percent sign),
 * gaps, markers (NA, ?) and a few words among numbers, the data set's own marker (-999), dates spelled two
 * ways for the same day (the median of equal instants is decided by row order), text with quotes,
 * backslashes and other scripts (stored JSON escapes them), and, from the JSON part appended as a second
 * segment, cells missing from some rows and non-string values. 12,000 CSV rows span several read chunks.
 */
export function statsIdentityUploads(): { csv: string; json: { data: Record<string, unknown>[]; missingValues: string[] } } {
  const rnd = mulberry32(20261130);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const lines = ['num,price,day,word,flag,small,mixed,note'];
  const numberSpellings = (x: number) => pick([String(x), x.toFixed(1), x.toFixed(3)]);
  for (let i = 0; i < 12_000; i++) {
    const r = rnd();
    const x = Math.round((rnd() * 2 - 1) * 5000) / 100;
    const num = r < 0.04 ? '' : r < 0.06 ? 'NA' : r < 0.07 ? '?' : r < 0.075 ? '-999' : r < 0.08 ? '-0' : r < 0.0805 ? 'unknown' : numberSpellings(x);
    const p = Math.round(rnd() * 2_000_000) / 100;
    const price = pick([`"$${p.toLocaleString('en-US')}"`, `"${p.toLocaleString('en-US')}"`, String(p), `${Math.round(p / 100)}%`, '']);
    const dayNo = 1 + Math.floor(rnd() * 360);
    const date = new Date(Date.UTC(2017, 0, dayNo));
    const iso = date.toISOString().slice(0, 10);
    const us = `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
    const day = rnd() < 0.02 ? '' : rnd() < 0.5 ? iso : us;
    const word = pick(['north', 'south', 'east', 'west', 'NA', '-', 'Nord-Süd', 'ünïcode', '']);
    const flag = pick(['true', 'false', 'yes', 'no', 'TRUE', '']);
    const small = String(Math.floor(rnd() * 3));
    const mixed = rnd() < 0.3 ? pick(['alpha', 'beta', 'N/A']) : numberSpellings(x);
    const note = pick(['"say ""hi"""', 'back\\slash', 'tab\there', '"comma, inside"', 'plain', '日本語', '']);
    lines.push([num, price, day, word, flag, small, mixed, note].join(','));
  }
  const data: Record<string, unknown>[] = [];
  for (let i = 0; i < 300; i++) {
    const row: Record<string, unknown> = {};
    if (i % 3 !== 0) row.num = String(Math.round(rnd() * 1000) / 10);
    if (i % 5 === 0) row.num = Math.round(rnd() * 1000) / 10; // a JSON number, stored as sent
    if (i % 4 !== 0) row.day = `2017-0${1 + (i % 9)}-15`;
    row.word = i % 7 === 0 ? null : pick(['north', 'q"uote', 'slash\\']);
    if (i % 2 === 0) row.flag = i % 4 === 0;
    row.small = String(i % 3);
    data.push(row);
  }
  return { csv: lines.join('\n') + '\n', json: { data, missingValues: ['-999'] } };
}

/** The statistics requests the identity test compares: every column as its own type, and each column read as every type. */
export const STATS_IDENTITY_QUERIES = ['', '?dataType=string', '?dataType=numericMeasure', '?dataType=date', '?dataType=logical', '?dataType=text'];
