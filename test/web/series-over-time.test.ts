import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readNumber, seriesOverTime } from '../../web/src/lib/series-over-time.js';

test('rows become points by time, whatever order they came in', () => {
  const rows = [{ month: '1949-02-01', passengers: '118' }, { month: '1949-01-01', passengers: '112' }, { month: '1949-03-01', passengers: '132' }];
  const s = seriesOverTime(rows, 'month', 'passengers');
  assert.deepEqual(s.points, [[Date.UTC(1949, 0, 1), 112], [Date.UTC(1949, 1, 1), 118], [Date.UTC(1949, 2, 1), 132]]);
  assert.deepEqual([s.skipped, s.merged], [0, 0]);
});

test('rows sharing a time are one point, their mean; the API\'s stored timestamps and bare years read', () => {
  const rows = [
    { t: '2008-06-01T00:00:00.0000000Z', v: '2' }, { t: '2008-06-01T00:00:00.0000000Z', v: '4' }, { t: '2008-07-01T00:00:00.0000000Z', v: '5' },
  ];
  const s = seriesOverTime(rows, 't', 'v');
  assert.deepEqual(s.points, [[Date.UTC(2008, 5, 1), 3], [Date.UTC(2008, 6, 1), 5]]);
  assert.equal(s.merged, 1);
  assert.deepEqual(seriesOverTime([{ year: '1860', n: '5' }], 'year', 'n').points, [[Date.UTC(1860, 0, 1), 5]]);
});

test('missing cells, the data set\'s own markers and unreadable times are left out and counted', () => {
  const rows = [
    { day: '2017-01-01', temp: '21.5' }, { day: '2017-01-02', temp: '-9999' }, { day: '2017-01-03', temp: '' },
    { day: '2017-01-04', temp: 'NA' }, { day: 'soon', temp: '3' }, { day: '2017-01-05', temp: '19.8' },
  ];
  const s = seriesOverTime(rows, 'day', 'temp', ['-9999']);
  assert.deepEqual(s.points.map((p) => p[1]), [21.5, 19.8]);
  assert.equal(s.skipped, 4);
});

test('numbers as stored cells write them: separators, currency, percent, negatives in parentheses; no hex', () => {
  assert.deepEqual(['1,250.5', '$99', '-€5', '45%', '(1,250.00)', '−2.5', ' 7 '].map(readNumber), [1250.5, 99, -5, 45, -1250, -2.5, 7]);
  for (const cell of ['', '0x1f', 'abc', 'NA', undefined]) assert.ok(Number.isNaN(readNumber(cell)), String(cell));
});
