import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smoothOutliers } from '../../../src/ml/timeseries/forecast/index.js';
import { robustFit } from '../../../src/ml/timeseries/forecast/robust-decomposition.js';
import { spreadLevelPower } from '../../../src/ml/timeseries/forecast/spread-level.js';
import { column, readFixture } from '../../support/fixtures.js';
import { dailySeries, gaussian } from './synthetic.js';

test('smoothOutliers finds injected spikes in a seasonal series and replaces them by the expected value', () => {
  const { y, truth } = dailySeries(20 * 7, 2, 4);
  const spikes = [17, 60, 101];
  for (const t of spikes) y[t] += t === 60 ? -80 : 80;
  const r = smoothOutliers(y, 7);
  assert.deepEqual(r.indices, spikes);
  for (let i = 0; i < spikes.length; i++) {
    assert.ok(Math.abs(r.values[i] - truth(spikes[i])) < 8, `value at ${spikes[i]}: ${r.values[i]} vs ${truth(spikes[i])}`);
    assert.equal(r.smoothed[spikes[i]], r.values[i]);
  }
  assert.equal(r.smoothed[18], y[18]);
});

test('smoothOutliers flags nothing on clean or constant series', () => {
  const { y } = dailySeries(20 * 7, 2, 8);
  assert.deepEqual(smoothOutliers(y, 7).indices, []);
  assert.deepEqual(smoothOutliers(new Float64Array(30).fill(3), 1).indices, []);
});

/** fpp2 a10 (monthly anti-diabetic drug sales, 1991-07 … 2008-06): its January peaks grow with its level. */
function a10(): { y: Float64Array; dates: string[] } {
  const t = readFixture('forecast/fpp2/a10.csv');
  return { y: Float64Array.from(column(t, 'value'), Number), dates: column(t, 'date') };
}

test('smoothOutliers does not take the growing seasonal peaks of a10 for outliers, and finds a spike injected into it', () => {
  const { y, dates } = a10();
  const flagged = smoothOutliers(y, 12).indices.map((t) => dates[t]);
  // An additive profile fitted to the early small swings flagged the late Januaries (2006, 2007, 2008).
  assert.deepEqual(flagged.filter((d) => d.slice(5, 7) === '01'), [], `flagged ${flagged.join(' ')}`);
  assert.ok(flagged.length <= 2, `flagged ${flagged.join(' ')}`);

  // A 40 % rise in an ordinary month late in the series, where the swings are largest.
  const spiked = Float64Array.from(y);
  const at = dates.indexOf('2006-06-01');
  spiked[at] *= 1.4;
  const r = smoothOutliers(spiked, 12);
  assert.ok(r.indices.includes(at), `flagged ${r.indices.map((t) => dates[t]).join(' ')}`);
  const value = r.values[r.indices.indexOf(at)];
  assert.ok(Math.abs(value - y[at]) < 0.1 * y[at], `replacement ${value} for ${y[at]}`);
  assert.deepEqual(r.indices.filter((t) => dates[t].slice(5, 7) === '01'), []);
});

test('smoothOutliers keeps an additive season additive when the level grows but the swing does not', () => {
  // Level 60 → 160 with a fixed ±20 swing: on the log scale the early swings would be the large ones.
  const noise = gaussian(21);
  const n = 15 * 12;
  const truth = (t: number) => 60 + (100 * t) / n + 20 * Math.sin((2 * Math.PI * t) / 12);
  const y = Float64Array.from({ length: n }, (_, t) => truth(t) + 2 * noise());
  const spikes = [20, 95, 170];
  for (const t of spikes) y[t] += 25;
  const r = smoothOutliers(y, 12);
  assert.deepEqual(r.indices, spikes);
  r.indices.forEach((t, k) => assert.ok(Math.abs(r.values[k] - truth(t)) < 6, `value at ${t}: ${r.values[k]} vs ${truth(t)}`));
});

test('spreadLevelPower: the log for a10, whose swing grows with its level; unchanged for ausbeer', () => {
  const { y } = a10();
  assert.equal(spreadLevelPower(y, robustFit(y, 12).trend, 12), 0);
  const beer = Float64Array.from(column(readFixture('forecast/fpp2/ausbeer.csv'), 'value'), Number);
  assert.equal(spreadLevelPower(beer, robustFit(beer, 4).trend, 4), 1);
  assert.equal(spreadLevelPower(Float64Array.from(y, (v) => v - 20), robustFit(y, 12).trend, 12), 1, 'not positive');
});
