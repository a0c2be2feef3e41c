import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColumnarLoader } from '../../src/service/datasets/columnar-loader.js';
import { cellText } from '../../src/ml/loaded-columns.js';

test('loads a subset of the columns: fields not asked for are skipped on every row, whatever their position', () => {
  const loader = new ColumnarLoader([{ name: 'v', numeric: true }, { name: 'c', numeric: false }], 2);
  loader.add([
    '{"date":"2020-01-01","v":"1.50","skip":"x","c":"a"}',
    '{"date":"2020-01-02","v":"2","skip":"y","c":"b"}',
    '{"other":"z","c":"a","v":""}',
    '{"c": "q\\"uote", "v": "7"}',
  ]);
  const cols = loader.finish();
  assert.equal(loader.rowCount, 4);
  assert.deepEqual(Array.from({ length: 4 }, (_, i) => cellText(cols.v!, i)), ['1.50', '2', '', '7']);
  assert.deepEqual(Array.from({ length: 4 }, (_, i) => cellText(cols.c!, i)), ['a', 'b', 'a', 'q"uote']);
});

test('a numeric column loads grouped digits as their number and markers as missing, each cell\'s text kept as stored', () => {
  const loader = new ColumnarLoader([{ name: 'w', numeric: true }], 4);
  loader.add(['{"w":"3,504"}', '{"w":"?"}', '{"w":"-1,234.5"}', '{"w":"NA"}', '{"w":"1,5"}']);
  const w = loader.finish().w!;
  assert.ok(w.kind === 'number');
  assert.deepEqual(Array.from(w.values), [3504, NaN, -1234.5, NaN, NaN]);
  assert.deepEqual(Array.from({ length: 5 }, (_, i) => cellText(w, i)), ['3,504', '?', '-1,234.5', 'NA', '1,5']);
});
