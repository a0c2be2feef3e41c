import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fixturePath, parseCsv } from '../support/fixtures.js';
import { csvRowBatches, type CsvRowBatch } from '../../src/service/datasets/csv-rows.js';
import { PointGroups, readDecimalCommaLocale, sniffLayout } from '../../src/service/datasets/csv-dialect.js';
import { TooLargeError, ValidationError } from '../../src/service/errors.js';

/** The bytes as a stream of `size`-byte chunks (cutting multi-byte characters too). */
function stream(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

async function read(text: string | Buffer, size = 7, opts: { maxBytes?: number; batchRows?: number } = {}): Promise<CsvRowBatch[]> {
  const batches: CsvRowBatch[] = [];
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  for await (const b of csvRowBatches(stream(bytes, size), { maxBytes: opts.maxBytes ?? Infinity, batchRows: opts.batchRows })) batches.push(b);
  return batches;
}

async function rejection(text: string | Buffer, opts: { maxBytes?: number } = {}): Promise<Error> {
  try {
    await read(text, 5, opts);
  } catch (e) {
    return e as Error;
  }
  assert.fail('no error');
}

test('the header line names the columns (trimmed); rows come in batches of positional values', async () => {
  const batches = await read(' day , sales\n2017-01-01,10\n2017-01-02,\n2017-01-03,9\n', 3, { batchRows: 2 });
  assert.deepEqual(batches.map((b) => b.header), [['day', 'sales'], ['day', 'sales']]);
  assert.deepEqual(batches.flatMap((b) => b.rows), [['2017-01-01', '10'], ['2017-01-02', ''], ['2017-01-03', '9']]);
  assert.ok(batches.every((b) => b.rows.length <= 2));
});

test('a first line of only numbers and dates is data, with columns named column1..N', async () => {
  const [batch] = await read('2017-01-01,10\n2017-01-02,12\n');
  assert.deepEqual(batch!.header, ['column1', 'column2']);
  assert.deepEqual(batch!.rows, [['2017-01-01', '10'], ['2017-01-02', '12']]);
});

test('multi-byte characters cut between chunks, and a BOM, decode intact', async () => {
  const [batch] = await read('\uFEFFcity,note\nZürich,"naïve, 東京"\n', 1);
  assert.deepEqual(batch!.header, ['city', 'note']);
  assert.deepEqual(batch!.rows, [['Zürich', 'naïve, 東京']]);
});

test('a file that is not UTF-8, ASCII until its first other byte, is read as Windows-1252 (Excel\'s "CSV (Comma delimited)"), € and curly quotes too; one that switches encodings is refused', async () => {
  const cp1252 = Buffer.concat([Buffer.from('name,price\n'.repeat(1) + 'x,1\n'.repeat(50)), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x93, 0x9f, 0x94, 0x2c, 0x32, 0x0a])]);
  for (const size of [1, 7, 4096]) {
    const batches = await read(cp1252, size);
    assert.deepEqual(batches.flatMap((b) => b.rows).at(-1), ['café €“Ÿ”', '2'], `chunks of ${size}`);
    assert.equal(batches.at(-1)!.dialect.encoding, 'windows-1252');
  }
  assert.equal((await read('a,b\nZürich,1\n'))[0]!.dialect.encoding, 'utf-8');
  const mixed = await rejection(Buffer.concat([Buffer.from('name\nZürich\n'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
  assert.ok(mixed instanceof ValidationError);
  assert.match(JSON.stringify(mixed.details), /The CSV is not UTF-8 text: bytes \d+–\d+ hold a byte sequence that is not UTF-8, after others that are/);
});

test('bad uploads are 400s: ragged rows name the line, duplicate header names', async () => {
  const ragged = await rejection('a,b\n1,2\n3\n');
  assert.ok(ragged instanceof ValidationError);
  assert.match(JSON.stringify(ragged.details), /line 3: 1 value where the first line has 2"/);
  const titled = await rejection('Sales report 2017\n\nday,sales\n2017-01-01,3\n');
  assert.ok(titled instanceof ValidationError);
  assert.match(JSON.stringify(titled.details), /line 3: 2 values where the first line has 1 \(a title or note above the header\? The first line must name the columns\)/);
  const dup = await rejection('a,b,a\n1,2,3\n');
  assert.ok(dup instanceof ValidationError);
  assert.match(JSON.stringify(dup.details), /names column 'a' twice/);
  assert.ok((await rejection('a,,column2\n1,2,3\n')) instanceof ValidationError, 'the unnamed column takes a name the header uses');
  assert.ok((await rejection('a,b\n"1,2\n')) instanceof ValidationError);
});

test('a column the header leaves unnamed is named by its position, as a file without a header names them', async () => {
  const [batch] = await read('a,,c,\n1,2,3,\n', 10);
  assert.deepEqual(batch!.header, ['a', 'column2', 'c', 'column4']);
  assert.deepEqual(batch!.rows, [['1', '2', '3', '']]);
});

test('the first line decides the dialect, quoted values aside: commas, else semicolons with decimal commas, else tabs', () => {
  assert.deepEqual(sniffLayout('a,b;c'), { separator: ',', decimalComma: false });
  assert.deepEqual(sniffLayout('\ufeffname;price'), { separator: ';', decimalComma: true });
  assert.deepEqual(sniffLayout('"Umsatz (Tsd., EUR)";Datum'), { separator: ';', decimalComma: true });
  assert.deepEqual(sniffLayout('"a;b",c'), { separator: ',', decimalComma: false });
  assert.deepEqual(sniffLayout('a\tb'), { separator: '\t', decimalComma: false });
  assert.deepEqual(sniffLayout('count'), { separator: ',', decimalComma: false });
});

test('decimal commas become points, grouping points go; dates written day first become ISO 8601; text and points without a comma stay', () => {
  const rows = [['1,5', '-0,25', '1.234,56', '12,5 %', '7\u00a0%', '+3,0', '1.234', 'a,b', '1,2,3', '1.2,5', ',5', '7', '0,5%', '1.234,00 €', '-5,50€', '5 €', '1.234 €', '5 %€'],
    ['13.01.2017', '3/1/2017', '13-01-2017 8:30', '13.01.2017 08:30:15', '01.13.2017', '13.01.17', '13.01-2017', 'Sat 13.01.2017']];
  readDecimalCommaLocale(rows);
  assert.deepEqual(rows, [['1.5', '-0.25', '1234.56', '12.5%', '7%', '+3.0', '1.234', 'a,b', '1,2,3', '1.2,5', ',5', '7', '0.5%', '€1234.00', '-€5.50', '€5', '1.234 €', '5 %€'],
    ['2017-01-13', '2017-01-03', '2017-01-13 08:30', '2017-01-13 08:30:15', '01.13.2017', '13.01.17', '13.01-2017', 'Sat 13.01.2017']]);
});

test('points before groups of three digits in a decimal-comma file are counted per column, unless the column shows decimal points', () => {
  const points = new PointGroups();
  readDecimalCommaLocale([['1.234', '1.234', '13.01.2017', 'x'], ['12.345.678', '0.5', '', '1.234,5'], ['7', '2.000', '', '1.000']], points);
  assert.deepEqual(points.ambiguous(['a', 'b', 'c', 'd']), [{ column: 'a', count: 2, example: '1.234' }, { column: 'd', count: 1, example: '1.000' }]);
});

test('a semicolon file with a header longer than a chunk, cut anywhere, reads like the whole', async () => {
  const header = Array.from({ length: 40 }, (_, i) => `column name ${i}`).join(';');
  const line = Array.from({ length: 40 }, (_, i) => `${i},5`).join(';');
  const text = `${header}\n${line}\n${line}\n`;
  for (const size of [3, 64, 1000]) {
    const batches = await read(text, size);
    assert.equal(batches[0]!.header.length, 40);
    assert.deepEqual(batches[0]!.dialect, { separator: ';', decimalComma: true, encoding: 'utf-8', ambiguousPoints: [] });
    assert.deepEqual(batches.flatMap((b) => b.rows), [0, 1].map(() => Array.from({ length: 40 }, (_, i) => `${i}.5`)), `chunks of ${size}`);
  }
});

test('a body over the byte limit is refused as too large', async () => {
  const big = 'a,b\n' + '1,2\n'.repeat(100);
  assert.ok((await rejection(big, { maxBytes: 100 })) instanceof TooLargeError);
  assert.equal((await read(big, 64, { maxBytes: big.length })).flatMap((b) => b.rows).length, 100);
});

test('real data with quoted values and a large file read like the reference reader (fixtures)', async () => {
  for (const file of [['impact', 'cases.csv'], ['forecast', 'INDEX.csv'], ['classification', 'letter_recognition.csv']]) {
    const bytes = readFileSync(fixturePath(...file));
    const reference = parseCsv(bytes.toString('utf8'));
    for (const size of [4099, 65536]) {
      const batches = await read(bytes, size);
      assert.deepEqual(batches[0]!.header, reference.header.map((h) => h.trim()), file.join('/'));
      assert.deepEqual(batches.flatMap((b) => b.rows), reference.rows, `${file.join('/')} in chunks of ${size}`);
    }
  }
});

test('a long first line (read before the dialect is known) costs linear work', async () => {
  // Growth, not absolute time: 16 times the line takes about 16 times as long when linear, 256 when quadratic.
  const time = async (n: number) => {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const bytes = Buffer.from(`${'1'.repeat(n)}\n2\n`);
      const start = performance.now();
      const [batch] = await read(bytes, 16 * 1024);
      best = Math.min(best, performance.now() - start);
      assert.equal(batch!.rows[0]![0]!.length, n);
    }
    return best;
  };
  const small = await time(250_000);
  const large = await time(4_000_000);
  assert.ok(large < 64 * Math.max(small, 1), `4 MB took ${large.toFixed(0)} ms, 0.25 MB ${small.toFixed(1)} ms (linear is about 16 times)`);
});
