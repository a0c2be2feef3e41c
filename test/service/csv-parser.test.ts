import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvParser, CsvSyntaxError } from '../../src/service/datasets/csv-parser.js';

/** Parses text pushed in the given chunk sizes (cycled), the way a stream delivers it. */
function parse(text: string, chunkSizes: number[] = [text.length || 1]): string[][] {
  const parser = new CsvParser();
  const out: string[][] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = chunkSizes[k % chunkSizes.length]!;
    parser.push(text.slice(i, i + size), out);
    i += size;
  }
  parser.end(out);
  return out;
}

/** Every way of cutting the text in two, and one character at a time, must parse the same. */
function parseEverySplit(text: string): string[][] {
  const whole = parse(text);
  for (let cut = 1; cut < text.length; cut++) {
    assert.deepEqual(parse(text, [cut, text.length]), whole, `split at ${cut} of ${JSON.stringify(text)}`);
  }
  assert.deepEqual(parse(text, [1]), whole, 'one character per chunk');
  return whole;
}

function syntaxError(text: string): CsvSyntaxError {
  try {
    parse(text);
  } catch (e) {
    assert.ok(e instanceof CsvSyntaxError, String(e));
    return e;
  }
  assert.fail(`no error for ${JSON.stringify(text)}`);
}

test('plain rows, empty cells kept as empty strings, last line without a line break', () => {
  assert.deepEqual(parseEverySplit('a,b,c\n1,,3\n,,\n4,5,'), [['a', 'b', 'c'], ['1', '', '3'], ['', '', ''], ['4', '5', '']]);
});

test('quoted values: commas, doubled quotes, line breaks inside, empty quoted value', () => {
  const text = 'name,note\n"Smith, J.","said ""hi"""\n"multi\nline\r\nvalue",""\n';
  assert.deepEqual(parseEverySplit(text), [['name', 'note'], ['Smith, J.', 'said "hi"'], ['multi\nline\r\nvalue', '']]);
});

test('CRLF, LF and lone CR line ends; empty lines are skipped', () => {
  assert.deepEqual(parseEverySplit('a,b\r\n1,2\r\n\r\n3,4\r\n'), [['a', 'b'], ['1', '2'], ['3', '4']]);
  assert.deepEqual(parseEverySplit('a,b\r1,2\r3,4'), [['a', 'b'], ['1', '2'], ['3', '4']]);
  assert.deepEqual(parseEverySplit('\n\na\n\n1\n\n'), [['a'], ['1']]);
});

test('a byte order mark at the start is dropped, elsewhere it is data', () => {
  assert.deepEqual(parseEverySplit('\uFEFFa,b\n1,\uFEFF\n'), [['a', 'b'], ['1', '\uFEFF']]);
});

test('a quote inside an unquoted value is a literal character', () => {
  assert.deepEqual(parseEverySplit('size,label\n5",15" screen\n'), [['size', 'label'], ['5"', '15" screen']]);
});

test('a ragged row is an error naming its line, counting line breaks inside quotes', () => {
  const e = syntaxError('a,b\n1,2\n3\n');
  assert.equal(e.line, 3);
  assert.match(e.message, /line 3: 1 value where the first line has 2/);
  assert.equal(syntaxError('a,b\n"x\ny",2\n1,2,3\n').line, 4);
  assert.equal(syntaxError('a,b\r\n"x\r\ny",2\r\n\r\n1\r\n').line, 5);
});

test('an unclosed quote and text after a closing quote are errors naming the line', () => {
  const open = syntaxError('a,b\n1,"never closed\n2,3\n');
  assert.equal(open.line, 2);
  assert.match(open.message, /not closed/);
  const after = syntaxError('a,b\n1,2\n"x"y,2\n');
  assert.equal(after.line, 3);
  assert.match(after.message, /closing quote is followed by 'y'/);
});

test('semicolons or tabs separate values when the parser is made for them; commas are then data', () => {
  for (const separator of [';', '\t'] as const) {
    const parser = new CsvParser(separator);
    const out: string[][] = [];
    parser.push(`a${separator}"b${separator}c"${separator}1,5\nx${separator}"y"${separator}`, out);
    parser.end(out);
    assert.deepEqual(out, [['a', `b${separator}c`, '1,5'], ['x', 'y', '']]);
  }
  assert.throws(() => { const p = new CsvParser(';'); p.push('"a"b;c\n', []); }, /a closing quote is followed by 'b' instead of a semicolon or the end of the line/);
});

test('chunks cut anywhere in a longer mixed text parse like the whole text', () => {
  const lines = ['id,text,n'];
  for (let i = 0; i < 200; i++) {
    const text = i % 3 === 0 ? `"row ${i}, ""quoted""\r\nsecond line"` : i % 3 === 1 ? `plain ${i}` : '';
    lines.push(`${i},${text},${i * 7}`);
  }
  const body = lines.join(lines.length % 2 ? '\r\n' : '\n') + '\n';
  const whole = parse(body);
  assert.equal(whole.length, 201);
  assert.deepEqual(whole[1], ['0', 'row 0, "quoted"\r\nsecond line', '0']);
  for (const sizes of [[1], [2, 3], [7], [64, 1, 5], [1000]]) assert.deepEqual(parse(body, sizes), whole, `chunks of ${sizes}`);
});

/** Pushes `text` in chunks of `size`, as a stream delivers it, and ends; returns the records. */
function parseChunked(parser: CsvParser, text: string, size: number): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size), out);
  parser.end(out);
  return out;
}

/** Best of three runs, in ms: the least disturbed by other work on the machine. */
function fastest(run: () => void): number {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Linear work, told apart from quadratic by growth rather than by absolute time: 16 times the input
 * takes about 16 times as long when linear and about 256 times when quadratic. The bound (64) leaves
 * a factor 4 for a loaded machine either way.
 */
function assertLinear(what: string, run: (bytes: number) => void): void {
  const small = fastest(() => run(500_000));
  const large = fastest(() => run(8_000_000));
  assert.ok(large < 64 * Math.max(small, 1), `${what}: 8 MB took ${large.toFixed(0)} ms, 0.5 MB ${small.toFixed(1)} ms (ratio ${(large / small).toFixed(0)}, linear is about 16)`);
}

test('a long line costs linear work, quoted or not', () => {
  assertLinear('one long unquoted cell', (n) => {
    const rows = parseChunked(new CsvParser(), `a,b\n${'x'.repeat(n)},1\n`, 32 * 1024);
    assert.equal(rows[1]![0]!.length, n);
  });
  assertLinear('one long quoted cell', (n) => {
    const rows = parseChunked(new CsvParser(), `a,b\n"${'x'.repeat(n)}",1\n`, 32 * 1024);
    assert.equal(rows[1]![0]!.length, n);
  });
});

test('a 20 MB cell parses whole', () => {
  const cell = 'y'.repeat(20_000_000);
  const rows = parseChunked(new CsvParser(), `a,b\r\n${cell},1\r\n`, 64 * 1024);
  assert.equal(rows.length, 2);
  assert.equal(rows[1]![0], cell);
});

test('a line longer than the limit is refused, naming its line and the limit', () => {
  for (const [text, line] of [[`a\n1\n${'x'.repeat(5000)}\n`, 3], [`a\n"${'x'.repeat(5000)}`, 2], [`a\n"1\n\n${'x'.repeat(5000)}"\n`, 2]] as const) {
    for (const size of [100, 10_000]) {
      assert.throws(() => parseChunked(new CsvParser(',', 1000), text, size), (e: unknown) => {
        assert.ok(e instanceof CsvSyntaxError, String(e));
        assert.equal(e.line, line);
        assert.match(e.message, /longer than the limit of 1000 characters/);
        return true;
      }, `${JSON.stringify(text.slice(0, 8))} in chunks of ${size}`);
    }
  }
  // Lines up to the limit are fine.
  assert.equal(parseChunked(new CsvParser(',', 1000), `a\n${'x'.repeat(1000)}\n`, 100)[1]![0]!.length, 1000);
});
