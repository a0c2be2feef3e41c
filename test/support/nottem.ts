import { readFixture, type CsvTable } from './fixtures.js';

/**
 * Nottingham monthly temperatures 1920–1938 (test/fixtures/impact/semisynthetic/nottem_placebo.csv:
 * date, y, y_counterfactual, true_effect, post), the event window 1938-01..1938-06. `multiplier`
 * injects an effect into the window; y_counterfactual is the series without it.
 */
export function nottemCsv(multiplier: number): string {
  const t: CsvTable = readFixture('impact', 'semisynthetic', 'nottem_placebo.csv');
  const post = t.header.indexOf('post');
  const y = t.header.indexOf('y');
  const lines = [t.header.join(',')];
  for (const r of t.rows) {
    const row = [...r];
    if (row[post] === '1') row[y] = String(Number(row[y]) * multiplier);
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}

export const WINDOW = { startDate: '1938-01-01', endDate: '1938-06-01' };
/** The columns that describe the truth (and the event) are not controls. */
export const IGNORE_TRUTH = { y_counterfactual: { role: 'none' }, true_effect: { role: 'none' }, post: { role: 'none' } };
