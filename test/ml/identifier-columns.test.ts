import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIdentifierName, numberIdentifier, textIdentifier } from '../../src/ml/identifier-columns.js';
import { fitFrameEncoder, type ColumnSpec } from '../../src/ml/encode.js';

test('names that say a column identifies rows, and words that merely end in the letters id', () => {
  const named = ['id', 'ID', 'Id', 'index', 'idx', 'row_id', 'RowNumber', 'row number', 'record_id', 'Unnamed: 0', '...1', 'PassengerId', 'customer_id', 'Customer ID', 'patientID', 'order.id', 'id_customer', 'obs'];
  const notNamed = ['Lipid', 'humid', 'PAID', 'COVID', 'valid', 'idle', 'identity', 'year', 'income', 'X', 'number_of_rooms', 'rows', 'width'];
  assert.deepEqual(named.filter((n) => !isIdentifierName(n)), []);
  assert.deepEqual(notNamed.filter(isIdentifierName), []);
});

test('a numeric column named as an identifier with a different whole number in every row, in any order, with gaps', () => {
  const shuffled = Float64Array.from({ length: 40 }, (_, i) => 1000 + ((i * 17) % 40) * 3);
  shuffled[5] = NaN;
  assert.deepEqual(numberIdentifier('PassengerId', shuffled), { column: 'PassengerId', kind: 'number', distinct: 39, rows: 39 });
  assert.equal(numberIdentifier('income', shuffled), undefined, 'distinct whole numbers under another name are a measure');
  const repeated = Float64Array.from({ length: 40 }, (_, i) => Math.floor(i / 2));
  assert.equal(numberIdentifier('store_id', repeated), undefined, 'an id shared by rows groups them: it may carry signal');
  assert.equal(numberIdentifier('id', Float64Array.from({ length: 40 }, (_, i) => i + 0.5)), undefined);
  assert.equal(numberIdentifier('id', Float64Array.from({ length: 19 }, (_, i) => i)), undefined, 'too few rows to tell');
});

test('a text column with its own value in nearly every row; otherwise its sorted levels', () => {
  const tags = Array.from({ length: 100 }, (_, i) => `T${i}`);
  assert.deepEqual(textIdentifier('tag', tags).identifier, { column: 'tag', kind: 'text', distinct: 100, rows: 100 });
  assert.deepEqual(textIdentifier('colour', ['red', 'blue', '', null, 'red']), { levels: ['blue', 'red'] });
});

test('the encoder leaves an identifier column out of the inputs and reports it', () => {
  const n = 30;
  const specs: ColumnSpec[] = [{ name: 'PassengerId', dataType: 'numeric', role: 'feature' }, { name: 'Fare', dataType: 'numeric', role: 'feature' }];
  const columns = { PassengerId: Array.from({ length: n }, (_, i) => String(i + 1)), Fare: Array.from({ length: n }, (_, i) => String(7 + (i % 9))) };
  const encoder = fitFrameEncoder(specs, columns);
  assert.deepEqual(encoder.inputColumns, ['Fare']);
  assert.deepEqual(encoder.identifiers.map((c) => [c.column, c.kind]), [['PassengerId', 'number']]);
});
