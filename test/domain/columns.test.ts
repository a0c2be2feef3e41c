import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnsToJson, defaultStrategies, normalizeColumnMap } from '../../src/domain/columns.js';

test('JS client metadata with PascalCase property names (put-dataset-testJavascript cassette)', () => {
  const r = normalizeColumnMap({ 'es6-client': { DataType: 'numeric', Role: 'target' }, time: { DataType: 'date', Role: 'timestamp' } });
  assert.deepEqual(r.errors, {});
  assert.deepEqual(r.columns, { 'es6-client': { dataType: 'numeric', role: 'target' }, time: { dataType: 'date', role: 'timestamp' } });
});

test('.NET integers for dataType, imputation and aggregation; roles capitalised', () => {
  const r = normalizeColumnMap({
    a: { DataType: -1, Role: 'Target', Imputation: 1, Aggregation: 1 },
    b: { DataType: 0, Role: 'Feature', Imputation: 3, Aggregation: 3 },
    c: { DataType: 1, Role: 'None', Imputation: 0, Aggregation: 0 },
    d: { DataType: 2, Imputation: 2, Aggregation: 2 },
    e: { DataType: 3, Role: 'Timestamp' },
    f: { DataType: 4, Aggregation: 4 },
    g: { Aggregation: 5, Role: 'KEY' },
  });
  assert.deepEqual(r.errors, {});
  assert.deepEqual(r.columns, {
    a: { dataType: 'numericMeasure', role: 'target', imputation: 'mean', aggregation: 'mean' },
    b: { dataType: 'string', role: 'feature', imputation: 'mode', aggregation: 'mode' },
    c: { dataType: 'numeric', role: 'none', imputation: 'zeroes', aggregation: 'sum' },
    d: { dataType: 'logical', imputation: 'median', aggregation: 'median' },
    e: { dataType: 'date', role: 'timestamp' },
    f: { dataType: 'text', aggregation: 'min' },
    g: { role: 'key', aggregation: 'max' },
  });
});

test('enum values in any case; null fields, null columns and null maps mean "not declared"', () => {
  const r = normalizeColumnMap({
    observed: { dataType: 'numericmeasure', role: 'TARGET', imputation: null, aggregation: '' }, // Ruby, Python
    flag: { dataType: 'Logical', role: null },
    ignored: null,
    extra: { dataType: 'string', description: 'unknown fields are ignored' },
  });
  assert.deepEqual(r.errors, {});
  assert.deepEqual(r.columns, {
    observed: { dataType: 'numericMeasure', role: 'target' },
    flag: { dataType: 'logical' },
    ignored: {},
    extra: { dataType: 'string' },
  });
  assert.deepEqual(normalizeColumnMap(null), { columns: {}, errors: {} });
  assert.deepEqual(normalizeColumnMap(undefined), { columns: {}, errors: {} });
});

test('errors name the column, the field and the bad value', () => {
  const r = normalizeColumnMap({ ok: { dataType: 'numeric' }, price: { dataType: 'money', role: 'label' }, q: { imputation: 9 }, s: 'numeric' });
  assert.deepEqual(Object.keys(r.errors).sort(), ['price', 'q', 's']);
  assert.equal(r.errors.price.length, 2);
  assert.match(r.errors.price[0], /dataType of column 'price'.*'money'/);
  assert.match(r.errors.price[1], /role of column 'price'.*'label'/);
  assert.match(r.errors.q[0], /imputation.*'9'/);
  assert.match(r.errors.s[0], /column 's' must be an object/);
  assert.deepEqual(r.columns, { ok: { dataType: 'numeric' } });
  assert.deepEqual(Object.keys(normalizeColumnMap([1]).errors), ['columns']);
});

test('default strategies per data type (compat §4.5)', () => {
  assert.deepEqual(defaultStrategies('numeric'), { imputation: 'zeroes', aggregation: 'sum' });
  assert.deepEqual(defaultStrategies('numericMeasure'), { imputation: 'mean', aggregation: 'mean' });
  assert.deepEqual(defaultStrategies('logical'), { imputation: 'mode', aggregation: 'mode' });
  assert.deepEqual(defaultStrategies('string'), { imputation: 'mode', aggregation: 'mode' });
  assert.deepEqual(defaultStrategies('date'), { imputation: null, aggregation: null });
  assert.deepEqual(defaultStrategies('text'), { imputation: null, aggregation: null });
});

test('wire form omits absent strategies and keeps a null role', () => {
  assert.deepEqual(
    columnsToJson({
      time: { dataType: 'date', role: 'timestamp', imputation: null, aggregation: null },
      'es6-client': { dataType: 'numeric', role: 'target', imputation: 'zeroes', aggregation: 'sum' },
      when: { dataType: 'date', role: null },
    }),
    {
      time: { dataType: 'date', role: 'timestamp' },
      'es6-client': { dataType: 'numeric', role: 'target', imputation: 'zeroes', aggregation: 'sum' },
      when: { dataType: 'date', role: null },
    },
  );
});
