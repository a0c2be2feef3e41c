import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMissingCell, parseLogicalCell, parseNumberCell } from '../../src/domain/cells.js';

test('missing cells: null, undefined, blank strings; not 0 or false', () => {
  for (const v of [null, undefined, '', ' \t']) assert.ok(isMissingCell(v));
  for (const v of [0, false, '0', 'NA']) assert.ok(!isMissingCell(v));
});

test('numbers in plain decimal notation from CSV strings or JSON numbers', () => {
  const cases: [unknown, number][] = [['80', 80], [' -2.5 ', -2.5], ['+3', 3], ['.5', 0.5], ['7.', 7], ['1e3', 1000], ['59.1096082511868', 59.1096082511868], [42, 42]];
  for (const [v, n] of cases) assert.equal(parseNumberCell(v), n, String(v));
  for (const v of ['', 'NaN', 'Infinity', '0x10', '1,000', '1e999', 'abc', true, null, Infinity]) {
    assert.ok(Number.isNaN(parseNumberCell(v)), String(v));
  }
});

test('logical cells: documented words and 1/0; an empty cell is FALSE', () => {
  for (const v of ['True', 'yes', 'ON', '1', 1, true]) assert.equal(parseLogicalCell(v), true, String(v));
  for (const v of ['false', 'No', 'off', '0', 0, false, '', null]) assert.equal(parseLogicalCell(v), false, String(v));
  for (const v of ['maybe', 'y', 2, {}]) assert.equal(parseLogicalCell(v), null, String(v));
});
