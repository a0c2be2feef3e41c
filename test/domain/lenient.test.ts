import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsent, mergeQueryAndBody, parseBool, parseEnum, parseInteger, parseMulti, pick, pickString } from '../../src/domain/lenient.js';

test('pick finds properties in any case, exact spelling first, skipping absent values', () => {
  assert.equal(pick({ DataSourceName: 'a' }, 'dataSourceName'), 'a');
  assert.equal(pick({ datasourcename: 'a' }, 'dataSourceName'), 'a');
  assert.equal(pick({ DATASOURCENAME: 'x', dataSourceName: 'y' }, 'dataSourceName'), 'y');
  // dataSetName is the pre-Aug-2017 alias; a null or empty new name lets the alias through.
  assert.equal(pick({ dataSourceName: null, DataSetName: 'old' }, 'dataSourceName', 'dataSetName'), 'old');
  assert.equal(pick({ dataSourceName: '', dataSetName: 'old' }, 'dataSourceName', 'dataSetName'), 'old');
  assert.equal(pick({ a: 1 }, 'b'), undefined);
  assert.equal(pick(null, 'a'), undefined);
  assert.equal(pick(['a'], '0'), undefined);
});

test('pickString stringifies numbers and takes the last of repeated query values', () => {
  assert.equal(pickString({ page: 2 }, 'page'), '2');
  assert.equal(pickString({ name: ['a', 'b'] }, 'name'), 'b');
  assert.equal(pickString({ name: '  ' }, 'name'), undefined);
  assert.equal(pickString({ name: { x: 1 } }, 'name'), undefined);
});

test('isAbsent: undefined, null and blank strings', () => {
  for (const v of [undefined, null, '', '  ']) assert.ok(isAbsent(v));
  for (const v of [0, false, 'x', [], {}]) assert.ok(!isAbsent(v));
});

test('parseBool accepts JSON booleans, .NET "True"/"False" strings and 1/0', () => {
  for (const v of [true, 'true', 'True', 'TRUE', 1, '1']) assert.deepEqual(parseBool(v), { ok: true, value: true });
  for (const v of [false, 'false', 'False', 0, '0']) assert.deepEqual(parseBool(v), { ok: true, value: false });
  for (const v of [undefined, null, '']) assert.deepEqual(parseBool(v), { ok: true, value: undefined });
  const bad = parseBool('maybe');
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.error : '', /maybe/);
  assert.equal(parseBool(2).ok, false);
});

test('parseEnum matches any case, returns the canonical spelling, maps .NET integers', () => {
  const intervals = ['hour', 'day', 'week', 'month', 'year'] as const;
  const ints = { 0: 'hour', 1: 'day', 2: 'week', 3: 'month', 4: 'year' } as const;
  assert.deepEqual(parseEnum('Day', intervals, ints), { ok: true, value: 'day' });
  assert.deepEqual(parseEnum('MONTH', intervals), { ok: true, value: 'month' });
  assert.deepEqual(parseEnum(3, intervals, ints), { ok: true, value: 'month' });
  assert.deepEqual(parseEnum('4', intervals, ints), { ok: true, value: 'year' });
  assert.deepEqual(parseEnum(null, intervals, ints), { ok: true, value: undefined });
  assert.deepEqual(parseEnum('numericmeasure', ['numeric', 'numericMeasure']), { ok: true, value: 'numericMeasure' });
  assert.equal(parseEnum(3, intervals).ok, false, 'integers only where .NET sends them');
  assert.equal(parseEnum(9, intervals, ints).ok, false);
  const bad = parseEnum('fortnight', intervals, ints);
  assert.ok(!bad.ok && bad.error.includes('fortnight') && bad.error.includes('hour, day'));
});

test('parseInteger reads paging values within bounds', () => {
  assert.deepEqual(parseInteger('10', 0, 1000), { ok: true, value: 10 });
  assert.deepEqual(parseInteger(0, 0, 1000), { ok: true, value: 0 });
  assert.deepEqual(parseInteger('', 0, 1000), { ok: true, value: undefined });
  assert.equal(parseInteger('1001', 0, 1000).ok, false);
  assert.equal(parseInteger('1.5', 0, 1000).ok, false);
  assert.equal(parseInteger('ten', 0, 1000).ok, false);
});

test('parseMulti: repeated and comma-joined values give the same list', () => {
  assert.deepEqual(parseMulti(['session', 'view']), ['session', 'view']);
  assert.deepEqual(parseMulti('session,view'), ['session', 'view']);
  assert.deepEqual(parseMulti(['a,b', ' c ', '']), ['a', 'b', 'c']);
  assert.deepEqual(parseMulti(undefined), []);
  assert.deepEqual(parseMulti(''), []);
});

test('mergeQueryAndBody: body wins case-insensitively; null and empty are absent', () => {
  // Ruby: everything in the query, body is the JSON string literal "".
  const ruby = mergeQueryAndBody({ dataSetName: 'sales', startDate: '2017-01-01', resultInterval: 'day' }, '');
  assert.deepEqual(ruby, { ok: true, value: { dataSetName: 'sales', startDate: '2017-01-01', resultInterval: 'day' } });
  const both = mergeQueryAndBody({ targetColumn: 'q', endDate: '', page: '1' }, { TargetColumn: 'b', callbackUrl: null, columns: { x: {} } });
  assert.ok(both.ok);
  assert.deepEqual(both.value, { page: '1', TargetColumn: 'b', columns: { x: {} } });
  assert.equal(pick(both.value, 'targetColumn'), 'b');
  assert.deepEqual(mergeQueryAndBody(undefined, null), { ok: true, value: {} });
  assert.equal(mergeQueryAndBody({}, [1, 2]).ok, false);
  assert.equal(mergeQueryAndBody({}, 'text').ok, false);
});
