import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smoothOutliers } from '../../../src/ml/timeseries/forecast/index.js';
import { dailySeries } from './synthetic.js';

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
