/**
 * The data set name an upload form suggests for a file: `Sales 2017.csv` → `Sales-2017`. Letters and
 * digits of any script stay (a data set may be called `Ventes-été-2017` or `売上`); runs of anything
 * else become one hyphen, since the name is also a segment of the data set's address.
 */
export function nameFromFile(file: string): string {
  const name = file.replace(/\.(csv|tsv|txt|json)$/i, '').replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '-').replace(/^[-.]+|-+$/g, '');
  // By code points, so a cut never splits a character written as two UTF-16 units.
  return Array.from(name).slice(0, 100).join('').replace(/-+$/, '') || 'data';
}
