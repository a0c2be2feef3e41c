import { test } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture } from '../../support/fixtures.js';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { periodsBetween, prepareSeries, seasonalPeriods } from '../../../src/ml/timeseries/prepare.js';

/** NAB's half-hourly NYC taxi passenger counts, prepared to daily sums (a weekly cycle). */
function dailyTaxi() {
  const t = readFixture('anomaly/nab/realKnownCause/nyc_taxi.csv');
  const ts = column(t, 'timestamp').map((s) => Date.parse(`${s}Z`));
  const daily = prepareSeries(ts, [{ name: 'passengers', values: column(t, 'value').map(Number) }], 'day');
  const index = (date: string) => periodsBetween(daily.timestamps[0], Date.parse(date), 'day');
  return { y: daily.columns[0].values, index };
}

test('daily taxi demand: the January 2015 blizzard (a NAB anomaly window) is a significant drop', () => {
  const { y, index } = dailyTaxi();
  const r = estimateImpact({ y: y.slice(0, index('2015-01-28') + 1), preEnd: index('2015-01-25'), period: seasonalPeriods('day').main });
  assert.ok(r.relativeEffectInterval[1] < -0.1, `relative ${r.relativeEffectInterval}`);
  assert.ok(r.pValue < 0.01);
});

test('daily taxi demand: a fortnight without a labelled event is no effect', () => {
  const { y, index } = dailyTaxi();
  const r = estimateImpact({ y: y.slice(0, index('2014-10-15') + 1), preEnd: index('2014-09-30'), period: 7 });
  assert.match(r.model, /seasonal_7/);
  assert.ok(r.pValue >= 0.05, `p ${r.pValue}`);
  assert.ok(r.relativeEffectInterval[0] < 0 && r.relativeEffectInterval[1] > 0);
});
