import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalForm, decimalValue, isMissingCell, isMissingOrMarker, parseLogicalCell, parseNumberCell, readNumberCell } from '../../src/domain/cells.js';
import { ColumnProfiler } from '../../src/domain/profile.js';

test('missing cells: null, undefined, blank strings; not 0 or false', () => {
  for (const v of [null, undefined, '', ' \t']) assert.ok(isMissingCell(v));
  for (const v of [0, false, '0', 'NA']) assert.ok(!isMissingCell(v));
});

test('numbers in plain decimal notation from CSV strings or JSON numbers', () => {
  const cases: [unknown, number][] = [['80', 80], [' -2.5 ', -2.5], ['+3', 3], ['.5', 0.5], ['7.', 7], ['1e3', 1000], ['59.1096082511868', 59.1096082511868], [42, 42]];
  for (const [v, n] of cases) assert.equal(parseNumberCell(v), n, String(v));
  for (const v of ['', 'NaN', 'Infinity', '0x10', '1e999', 'abc', true, null, Infinity]) {
    assert.ok(Number.isNaN(parseNumberCell(v)), String(v));
  }
});

test('stored cells read as numbers: Number()\'s fast path and parseNumberCell\'s forms, but no other base', () => {
  for (const [v, n] of [['80', 80], [' -2.5 ', -2.5], ['1e3', 1000], ['0', 0], ['0.5', 0.5], ['00012', 12], ['3,504', 3504], ['$99', 99], ['45%', 45]] as const) assert.equal(readNumberCell(v), n, v);
  for (const v of ['0x10', '0X1F', ' 0x10', '0b101', '0B1', '0o17', '0O7', 'Infinity', 'abc']) assert.ok(Number.isNaN(readNumberCell(v)), v);
});

test('thousands separators as spreadsheets write them; a decimal comma or a broken group is not a number', () => {
  const cases: [string, number, number][] = [['3,504', 3504, 1], ['-1,234,567', -1234567, 1], ['1,234.50', 1234.5, 2], ['+999,000.', 999000, 2]];
  for (const [v, n, form] of cases) {
    assert.equal(parseNumberCell(v), n, v);
    assert.equal(decimalForm(v), form, v);
  }
  for (const v of ['1,5', '1,2345', '1234,567', ',123', '1,234,', '1,,234', '1,234e3', '12,34.5', '0,5']) {
    assert.ok(Number.isNaN(parseNumberCell(v)), v);
    assert.equal(decimalForm(v), 0, v);
  }
});

test('a leading currency symbol, before or after the sign, as prices are written', () => {
  const cases: [string, number][] = [['$1,250.00', 1250], ['-$5.50', -5.5], ['$-5.50', -5.5], ['£3.50', 3.5], ['€12', 12], ['¥1,000', 1000], [' $7 ', 7]];
  for (const [v, n] of cases) assert.equal(parseNumberCell(v), n, v);
  for (const v of ['$', '$$5', '5$', '-$-5', '$1,5', 'US$5', '$ 5']) assert.ok(Number.isNaN(parseNumberCell(v)), v);
});

test('a trailing percent sign: the number as written', () => {
  for (const [v, n] of [['45%', 45], ['-2.5%', -2.5], ['1,200%', 1200], [' 7% ', 7]] as const) assert.equal(parseNumberCell(v), n, v);
  for (const v of ['%', '45%%', '$5%', '45 %', '%45']) assert.ok(Number.isNaN(parseNumberCell(v)), v);
});

test('missing markers: blank, R/pandas/spreadsheet words and the gaps of printed tables; not 0 or a word', () => {
  for (const v of [null, '', ' NA ', 'N/A', '#N/A', 'null', '?', '-', '--', '.']) assert.ok(isMissingOrMarker(v), String(v));
  for (const v of [0, '0', 'None', 'na ?', '-1', 'no', false]) assert.ok(!isMissingOrMarker(v), String(v));
});

test('logical cells: documented words and 1/0; an empty cell is FALSE', () => {
  for (const v of ['True', 'yes', 'ON', '1', 1, true]) assert.equal(parseLogicalCell(v), true, String(v));
  for (const v of ['false', 'No', 'off', '0', 0, false, '', null]) assert.equal(parseLogicalCell(v), false, String(v));
  for (const v of ['maybe', 'y', 2, {}]) assert.equal(parseLogicalCell(v), null, String(v));
});

test('decimalValue: Number()\'s value up to 15 significant digits, the first 15 of longer ones, exponents by Number()', () => {
  const form = (s: string) => (/e/i.test(s) ? 3 : s.includes('.') ? 2 : 1);
  for (const s of ['0', '-0', '7', '-12.5', '+3', '.5', '5.', '0.001', '00012.50', '123456789012345', '-99999', '3.14159265358979', '0.000000000000000000001']) {
    assert.ok(Object.is(decimalValue(s, form(s)), Number(s)), s);
  }
  // Every decimal of up to 15 digits that toFixed writes, over many magnitudes.
  let x = 1;
  for (let i = 0; i < 20_000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const s = ((x / 2147483648 - 0.5) * 10 ** ((i % 12) - 4)).toFixed(i % 8);
    if (s.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15) assert.equal(decimalValue(s, form(s)), Number(s), s);
  }
  // The 17 digits JavaScript and pandas write for a float: within 10⁻¹⁴ of Number()'s value.
  for (const s of ['142.85714285714286', '-0.33333333333333331', '12345678901234567890']) {
    assert.ok(Math.abs(decimalValue(s, form(s)) - Number(s)) <= Math.abs(Number(s)) * 1e-14, s);
  }
  assert.equal(decimalValue('1.5e3', 3), 1500);
});

test('negatives as accounting formats and typeset text write them: in parentheses, with the minus sign U+2212', () => {
  assert.equal(parseNumberCell('(1,250.00)'), -1250);
  assert.equal(parseNumberCell('($5)'), -5);
  assert.equal(parseNumberCell(' (12%) '), -12);
  assert.equal(parseNumberCell('\u22122.5'), -2.5);
  assert.equal(parseNumberCell('\u2212$5'), -5);
  assert.equal(readNumberCell('(3.5)'), -3.5);
  assert.equal(readNumberCell('\u22121e3'), -1000);
  for (const no of ['()', '(-5)', '(\u22125)', '\u2212-5', '(a)', '(5', '5)', '(1)(2)']) assert.ok(Number.isNaN(parseNumberCell(no)), no);
  // A column of such numbers is numeric, with nothing missing.
  const p = new ColumnProfiler();
  for (const v of ['1.5', '(2.25)', '\u22123.0', '4', '(1,000)']) p.add(v);
  assert.deepEqual([p.result().dataType, p.result().missing, p.result().missingWords], ['numericMeasure', 0, undefined]);
});

test('Excel\'s error values are missing in a column of numbers', () => {
  for (const e of ['#DIV/0!', '#VALUE!', '#REF!', '#NUM!', '#NAME?', '#NULL!']) assert.ok(isMissingOrMarker(e), e);
  const p = new ColumnProfiler();
  for (const v of ['1', '#DIV/0!', '3', '#VALUE!']) p.add(v);
  assert.deepEqual([p.result().dataType, p.result().present, p.result().missing], ['numeric', 2, 2]);
});
