import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { RowJsonWriter } from '../../src/service/datasets/csv-json.js';
import { Utf8Buffer } from '../../src/service/datasets/utf8-buffer.js';

/** What the record path stores: JSON.stringify of the record without its empty cells. */
function viaRecord(header: readonly string[], values: readonly string[]): string {
  const rec: Record<string, string> = {};
  header.forEach((name, i) => { if (values[i] !== '') rec[name] = values[i]!; });
  return JSON.stringify(rec);
}

test('row JSON equals JSON.stringify of the record, escapes included, empty cells left out', () => {
  const header = ['name', 'quote"d', 'back\\slash', 'ctl\t', 'emoji', 'lone'];
  const rows = [
    ['plain', 'say "hi"', 'C:\\temp', 'tab\there\nand\r\nbreaks\u0001', '😀 ok', '\ud800 alone'],
    ['', '', '', '', '', ''],
    ['  ', 'x', '', '\u2028', '\u007f', '\udfff'],
  ];
  const json = new RowJsonWriter(header);
  for (const row of rows) assert.equal(json.write(row), viaRecord(header, row));
});

test('binary COPY data of a row is its JSON in UTF-8, and its size is counted exactly', () => {
  const header = ['name', 'quote"d', 'back\\slash', 'ctl\t', 'emoji', 'lone', 'wide'];
  const rows = [
    ['plain', 'say "hi"', 'C:\\temp', 'tab\there\nand\r\nbreaks\u0001', '😀 ok', '\ud800 alone', 'ünï 日本'],
    ['', '', '', '', '', '', ''],
    ['  ', 'x', 'end\\', '\u2028', '\u007f', '\udfff', 'ascii'],
  ];
  const json = new RowJsonWriter(header);
  const out = new Utf8Buffer(4); // small, so that it grows mid-row
  for (const row of rows) {
    const expected = json.write(row);
    const bytes = json.writeJson(row, out);
    const written = out.take();
    assert.equal(new TextDecoder().decode(written), expected);
    assert.equal(bytes, written.length);
    assert.equal(bytes, Buffer.byteLength(expected, 'utf8'));
  }
});

test('array-index names come first in ascending order, as object key order has them', () => {
  const header = ['b', '10', 'a', '2', '02', '-1', '4294967295', '4294967294', '1.5', '0'];
  const values = header.map((_, i) => String(i));
  const json = new RowJsonWriter(header);
  assert.equal(json.write(values), viaRecord(header, values));
  assert.ok(json.write(values).startsWith('{"0":"9","2":"3","10":"1","4294967294":"7","b":"0"'));
});

test('real data rows (fixtures) are stored as the record path stored them', () => {
  for (const file of [['impact', 'cases.csv'], ['classification', 'titanic.csv'], ['regression', 'auto_mpg.csv']]) {
    const t = readFixture(...file);
    const json = new RowJsonWriter(t.header);
    for (const row of t.rows) assert.equal(json.write(row), viaRecord(t.header, row));
  }
});
