import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forecastMethodInWords, impactModelInWords } from '../../web/src/lib/method-names.js';

test('a forecast method is said in words, an unknown key kept as it is', () => {
  assert.equal(forecastMethodInWords('comb'), 'an average of exponential smoothing, the Theta method and, for data without seasons, ARIMA');
  assert.equal(forecastMethodInWords('snaive'), 'the last season repeated');
  assert.equal(forecastMethodInWords('prophet'), 'prophet');
});

test('an impact model\'s label is said part by part', () => {
  assert.equal(impactModelInWords('local_level'), 'a level that wanders');
  assert.equal(impactModelInWords('local_level_drift_seasonal_12_log'), 'a level with a steady trend and a repeating pattern of 12 periods, on the logarithm of the values');
  assert.equal(impactModelInWords('local_level_ar1_seasonal_7'), 'a level that wanders, short-term carry-over and a repeating pattern of 7 periods');
  assert.equal(impactModelInWords('local_linear_trend'), 'a trend that changes over time');
  assert.equal(impactModelInWords('something_else'), 'something_else');
});
