import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowNumberColumns } from '../../src/ml/row-number-columns.js';
import type { ColumnSpec } from '../../src/ml/encode.js';

const n = 30;
const rows = Array.from({ length: n }, (_, i) => i);
const specs: ColumnSpec[] = ['id', 'down', 'gappy', 'repeat', 'decimal', 'label', 'key', 'year'].map((name) => ({
  name, dataType: name === 'label' ? 'string' : 'numeric', role: name === 'key' ? 'key' : 'feature',
}));
const values = {
  id: rows.map((i) => String(1001 + i)),
  down: rows.map((i) => n - i),
  gappy: rows.map((i) => String(i * i)),
  repeat: rows.map((i) => String(Math.floor(i / 2))),
  decimal: rows.map((i) => String(i + 0.5)),
  label: rows.map((i) => `r${i}`),
  key: rows.map((i) => String(i)),
  year: rows.map((i) => (i === 7 ? '' : String(1990 + i))),
};

test('whole numbers, all different, in the rows\' order, rising or falling, by any steps: a feature that numbers the rows', () => {
  assert.deepEqual(rowNumberColumns(values, specs, rows), ['id', 'down', 'gappy']);
});

test('not in another order of the rows, not with a repeat, a fraction, a gap in the values, a non-feature role, or on few rows', () => {
  const shuffled = rows.map((i) => (i * 7) % n);
  assert.deepEqual(rowNumberColumns(values, specs, shuffled), []);
  assert.deepEqual(rowNumberColumns(values, specs, rows.slice(0, 10)), []);
});
