import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CategoricalColumn, NumericColumn } from '../../../src/ml/frame.js';
import {
  balancedClassWeights,
  encodeTarget,
  fitFrameEncoder,
  inferDataType,
  loadFrameEncoder,
  type ColumnSpec,
} from '../../../src/ml/encode.js';

const specs: ColumnSpec[] = [
  { name: 'age', dataType: 'numeric' },
  { name: 'colour', dataType: 'string' },
  { name: 'member', dataType: 'logical' },
  { name: 'joined', dataType: 'date' },
  { name: 'id', dataType: 'string', role: 'key' },
  { name: 'label', dataType: 'string', role: 'target' },
];
const train = {
  age: ['31', '', '4.5e1', 'n/a'],
  colour: ['red', 'blue', '', 'red'],
  member: ['TRUE', 'no', '', 'On'],
  joined: ['2021-03-01', '2021-03-02T13:30:00', '2022-12-31T23:00:00-05:00', ''],
  id: ['a', 'b', 'c', 'd'],
  label: ['x', 'y', 'x', 'y'],
};

const numeric = (c: unknown) => c as NumericColumn;
const categorical = (c: unknown) => c as CategoricalColumn;

test('numeric, categorical and logical columns; key and target roles are not features', () => {
  const enc = fitFrameEncoder(specs, train);
  assert.deepEqual(enc.inputColumns, ['age', 'colour', 'member', 'joined']);
  const frame = enc.encode(train);
  assert.equal(frame.nRows, 4);
  const age = numeric(frame.columns[0]);
  assert.equal(age.kind, 'numeric');
  assert.deepEqual([...age.values], [31, NaN, 45, NaN]);
  const colour = categorical(frame.columns[1]);
  assert.deepEqual(colour.levels, ['blue', 'red']);
  assert.deepEqual([...colour.codes], [1, 0, -1, 1]);
  const member = categorical(frame.columns[2]);
  assert.deepEqual(member.levels, ['FALSE', 'TRUE']);
  assert.deepEqual([...member.codes], [1, 0, 0, 1], 'empty logical cell is FALSE');
});

test('dates expand to the calendar parts that vary, in the clock they were written in', () => {
  const frame = fitFrameEncoder(specs, train).encode(train);
  const parts = Object.fromEntries(
    frame.columns.filter((c) => c.name.startsWith('joined:')).map((c) => [c.name, [...numeric(c).values]]),
  );
  assert.deepEqual(parts['joined:year'], [2021, 2021, 2022, NaN]);
  assert.deepEqual(parts['joined:month'], [3, 3, 12, NaN]);
  assert.deepEqual(parts['joined:dayOfMonth'], [1, 2, 31, NaN]);
  assert.deepEqual(parts['joined:dayOfWeek'], [1, 2, 6, NaN]); // Mon, Tue, Sat
  assert.deepEqual(parts['joined:hour'], [0, 13, 23, NaN]);
  assert.equal(parts['joined:epochDays'][0], Date.UTC(2021, 2, 1) / 86_400_000);
  assert.equal(parts['joined:epochDays'][1] - parts['joined:epochDays'][0], 1 + 13.5 / 24);

  const dateOnly = fitFrameEncoder([{ name: 'd', dataType: 'date' }], { d: ['2020-01-01', '2020-01-02'] });
  assert.deepEqual(
    dateOnly.encode({ d: ['2020-01-01'] }).columns.map((c) => c.name),
    ['d:dayOfMonth', 'd:dayOfWeek', 'd:epochDays'],
    'constant parts (year, month, hour) carry nothing and are left out',
  );
});

test('new data: unseen level → -1, absent column → all missing, same columns', () => {
  const enc = fitFrameEncoder(specs, train);
  const frame = enc.encode({ colour: ['green', 'blue'], member: ['off', 'maybe'] });
  assert.equal(frame.nRows, 2);
  assert.deepEqual(
    frame.columns.map((c) => c.name),
    enc.encode(train).columns.map((c) => c.name),
  );
  assert.deepEqual([...numeric(frame.columns[0]).values], [NaN, NaN]);
  assert.deepEqual([...categorical(frame.columns[1]).codes], [-1, 0]);
  assert.deepEqual([...categorical(frame.columns[2]).codes], [0, -1]);
  assert.ok(numeric(frame.columns[3]).values.every(Number.isNaN));
  assert.throws(() => enc.encode({}), /nRows/);
  assert.equal(enc.encode({}, 3).nRows, 3);
});

test('toJSON / loadFrameEncoder round-trip encodes identically', () => {
  const enc = fitFrameEncoder(specs, train);
  const restored = loadFrameEncoder(JSON.parse(JSON.stringify(enc.toJSON())));
  assert.deepEqual(restored.encode(train), enc.encode(train));
  assert.throws(() => loadFrameEncoder({ format: 'other', version: 1, inputs: [] } as never), /frame encoder/);
});

test('inputImportance sums date parts into their input column', () => {
  const enc = fitFrameEncoder(specs, train);
  const imp = enc.inputImportance({ age: 1, colour: 2, member: 0, 'joined:year': 0.5, 'joined:hour': 0.25 });
  assert.deepEqual(imp, { age: 1, colour: 2, member: 0, joined: 0.75 });
});

test('inferDataType follows PROTOCOL.md §0', () => {
  assert.equal(inferDataType(['1', '', '2.5', '-3e2']), 'numeric');
  assert.equal(inferDataType(['1', 'NA']), 'string');
});

test('encodeTarget: sorted classes, missing rows reported; regression parses numbers', () => {
  const c = encodeTarget(['b', 'a', '', 'c', 'a', null], 'classification');
  assert.deepEqual(c.task, { kind: 'classification', classes: ['a', 'b', 'c'] });
  assert.deepEqual([...c.y], [1, 0, NaN, 2, 0, NaN]);
  assert.deepEqual(c.missingRows, [2, 5]);
  const given = encodeTarget(['b', 'z'], 'classification', ['a', 'b']);
  assert.deepEqual([...given.y], [1, NaN]);
  const r = encodeTarget(['1.5', '', 'x', '-2'], 'regression');
  assert.deepEqual(r.task, { kind: 'regression' });
  assert.deepEqual([...r.y], [1.5, NaN, NaN, -2]);
  assert.deepEqual(r.missingRows, [1, 2]);
});

test('balancedClassWeights gives every class the same total weight', () => {
  const w = balancedClassWeights([0, 0, 0, 1], 2);
  assert.deepEqual([...w], [4 / 6, 4 / 6, 4 / 6, 2]);
});
