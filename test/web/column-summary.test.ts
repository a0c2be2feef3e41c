import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeColumn, type StatsOfColumn } from '../../web/src/lib/column-summary.js';
import { categoryColumns, numericColumns, timestampColumn } from '../../web/src/lib/data-sets.js';

const base = { errorCount: 0, stddev: null, mean: null };

test('a numeric column shows its spread, rounded to four significant digits', () => {
  const s: StatsOfColumn = { ...base, totalCount: 150, missingCount: 0, distinctCount: 35, min: 4.3, max: 7.9, mean: 5.843333333333335, median: 5.8, stddev: 0.8253012917851412, distribution: [{ min: 4.3, max: 7.9, count: 150 }] };
  const c = summarizeColumn('numericMeasure', s);
  assert.equal(c.kind, 'numbers');
  assert.deepEqual([c.min, c.median, c.mean, c.max, c.sd], ['4.3', '5.8', '5.843', '7.9', '0.8253']);
  assert.equal(c.top, undefined);
});

test('a date column shows its range; a category column its most frequent values and how many others', () => {
  const dates = summarizeColumn('date', { ...base, totalCount: 144, missingCount: 0, distinctCount: 144, min: '1949-01-01', max: '1960-12-01', median: '1954-12-01', distribution: [{ value: '1949-01-01', count: 1 }] });
  assert.deepEqual([dates.kind, dates.min, dates.max, dates.top], ['dates', '1949-01-01', '1960-12-01', undefined]);
  const cats = summarizeColumn('string', { ...base, totalCount: 10, missingCount: 2, distinctCount: 4, min: 'a', max: 'd', median: 'b',
    distribution: [{ value: 'b', count: 4 }, { value: 'a', count: 2 }, { value: 'c', count: 1 }, { value: 'd', count: 1 }] });
  assert.equal(cats.kind, 'values');
  assert.equal(cats.min, undefined, 'alphabetical min and max of text are not shown');
  assert.deepEqual(cats.top, [{ value: 'b', count: 4 }, { value: 'a', count: 2 }, { value: 'c', count: 1 }]);
  assert.deepEqual([cats.otherValues, cats.present, cats.missing, cats.missingShare], [1, 8, 2, 0.2]);
});

test('a numeric column without one readable number comes back as text, and is shown so', () => {
  const c = summarizeColumn('numeric', { ...base, totalCount: 3, missingCount: 0, errorCount: 3, distinctCount: 1, min: 'n/a', max: 'n/a', median: 'n/a', distribution: [{ value: 'n/a', count: 3 }] });
  assert.deepEqual([c.kind, c.unreadable, c.top?.[0]?.value], ['values', 3, 'n/a']);
});

test('the columns pictured: numbers and categories with the target first, keys and the timestamp left out', () => {
  const columns = {
    id: { dataType: 'numeric', role: 'key' }, month: { dataType: 'date', role: 'timestamp' }, x: { dataType: 'numericMeasure', role: 'feature' },
    y: { dataType: 'numeric', role: 'target' }, kind: { dataType: 'string', role: 'feature' }, ok: { dataType: 'logical', role: 'feature' }, note: { dataType: 'text', role: 'none' },
  };
  assert.deepEqual(numericColumns(columns), ['y', 'x']);
  assert.deepEqual(categoryColumns(columns), ['kind', 'ok']);
  assert.equal(timestampColumn(columns), 'month');
  assert.equal(timestampColumn({ x: { dataType: 'numeric', role: null } }), undefined);
});
