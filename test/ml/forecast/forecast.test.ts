import assert from 'node:assert/strict';
import { test } from 'node:test';
import { column, readFixture } from '../../support/fixtures.js';
import { forecast } from '../../../src/ml/timeseries/forecast/index.js';
import { mase } from '../../../src/ml/timeseries/forecast/metrics.js';
import { dailySeries, gaussian, rng, WEEKLY } from './synthetic.js';

function loadSeries(path: string): Float64Array {
  return Float64Array.from(column(readFixture(path), 'value').map(Number));
}

/** MASE of R's forecast::<method> on a single series, from reference/forecast_series.csv. */
function referenceMase(series: string, method: string): number {
  const t = readFixture('reference/forecast_series.csv');
  const row = t.rows.find((r) => r[0] === 'single' && r[1] === series && r[t.header.indexOf('method')] === method);
  assert.ok(row, `no reference for ${series} ${method}`);
  return Number(row[t.header.indexOf('mase')]);
}

const LEVELS = [0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95];

for (const [name, m, h] of [['fpp2/a10', 12, 18], ['fpp2/ausbeer', 4, 8]] as const) {
  test(`${name}: beats the seasonal naive and stays within 10 % of R's ets+arima+theta combination`, () => {
    const y = loadSeries(`forecast/${name}.csv`);
    const n = y.length - h;
    const train = y.subarray(0, n);
    const actual = y.subarray(n);
    const r = forecast(train, h, { period: m });
    const ours = mase(train, actual, r.mean, m);
    assert.ok(ours < referenceMase(name, 'snaive'), `MASE ${ours} vs seasonal naive ${referenceMase(name, 'snaive')}`);
    assert.ok(ours < 1.1 * referenceMase(name, 'comb'), `MASE ${ours} vs R comb ${referenceMase(name, 'comb')}`);
    assert.ok(r.candidates.length >= 5, 'every candidate is backtested');
    for (const c of r.candidates) assert.ok(Number.isFinite(c.backtest.mase) && Number.isFinite(c.backtest.smape));
  });
}

test('quantiles are ordered, the 0.5 quantile is the point forecast and wider levels give wider intervals', () => {
  const y = loadSeries('forecast/fpp2/a10.csv');
  const r = forecast(y, 24, { period: 12, levels: LEVELS });
  assert.deepEqual(Object.keys(r.quantiles), LEVELS.map(String));
  assert.deepEqual(Object.keys(r.intervals).sort(), ['0.6', '0.8', '0.9']);
  for (let k = 0; k < 24; k++) {
    for (let i = 1; i < LEVELS.length; i++) assert.ok(r.quantiles[String(LEVELS[i - 1])][k] <= r.quantiles[String(LEVELS[i])][k]);
    assert.equal(r.quantiles['0.5'][k], r.mean[k]);
    const width = (c: string) => r.intervals[c].upper[k] - r.intervals[c].lower[k];
    assert.ok(r.intervals['0.9'].lower[k] <= r.mean[k] && r.mean[k] <= r.intervals['0.9'].upper[k]);
    assert.ok(width('0.6') > 0 && width('0.6') < width('0.8') && width('0.8') < width('0.9'));
  }
  // Uncertainty grows with the horizon.
  const w = (k: number) => r.intervals['0.9'].upper[k] - r.intervals['0.9'].lower[k];
  assert.ok(w(23) > w(0));
});

test('90 % intervals cover about 90 % of a noisy synthetic series', () => {
  let inside = 0, total = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const { y } = dailySeries(140 + 14, 5, seed);
    const train = y.subarray(0, 140);
    const r = forecast(train, 14, { period: 7, levels: [0.05, 0.95] });
    for (let k = 0; k < 14; k++) {
      total++;
      if (y[140 + k] >= r.intervals['0.9'].lower[k] && y[140 + k] <= r.intervals['0.9'].upper[k]) inside++;
    }
  }
  const coverage = inside / total;
  assert.ok(coverage > 0.8 && coverage < 0.99, `coverage ${coverage}`);
});

test('recovers the weekly pattern of a synthetic daily series', () => {
  const { y, truth } = dailySeries(26 * 7, 3, 7);
  const h = 14;
  const r = forecast(y, h, { period: 7 });
  let maxErr = 0;
  for (let k = 0; k < h; k++) maxErr = Math.max(maxErr, Math.abs(r.mean[k] - truth(y.length + k)));
  assert.ok(maxErr < 6, `max error against the noiseless truth ${maxErr}`);
  // The day-of-week profile of the forecast matches the true one.
  const avg = r.mean.reduce((s, v) => s + v, 0) / h;
  for (let k = 0; k < 7; k++) {
    const dow = (y.length + k) % 7;
    const trueDev = WEEKLY[dow] - WEEKLY.reduce((s, v) => s + v, 0) / 7;
    assert.ok(Math.abs(r.mean[k] - avg - trueDev) < 5, `day ${dow}: ${r.mean[k] - avg} vs ${trueDev}`);
  }
});

test('a holiday feature given as xreg is captured', () => {
  const u = rng(11);
  const n = 30 * 7, h = 21;
  const holiday = Float64Array.from({ length: n + h }, () => (u() < 0.06 ? 1 : 0));
  holiday[n + 3] = 1; // at least two holidays in the horizon
  holiday[n + 12] = 1;
  const { y, truth } = dailySeries(n + h, 3, 5, (t) => -60 * holiday[t]);
  const train = y.subarray(0, n);
  const xreg = { train: [holiday.subarray(0, n)], future: [holiday.subarray(n)] };
  const withX = forecast(train, h, { period: 7, xreg });
  const without = forecast(train, h, { period: 7 });
  assert.equal(withX.method, 'regression');
  for (const k of [3, 12]) {
    assert.ok(Math.abs(withX.mean[k] - truth(n + k)) < 10, `holiday ${k}: ${withX.mean[k]} vs ${truth(n + k)}`);
    assert.ok(without.mean[k] - truth(n + k) > 40, 'the univariate forecast misses the holiday');
  }
  const mae = (f: Float64Array) => f.reduce((s, v, k) => s + Math.abs(v - truth(n + k)), 0) / h;
  assert.ok(mae(withX.mean) < mae(without.mean) / 2);
});

test('xreg improves the real daily electricity demand forecast (working-day feature)', () => {
  const demand = loadSeries('forecast/fpp2/elecdaily_Demand.csv');
  const workday = loadSeries('forecast/fpp2/elecdaily_WorkDay.csv');
  const h = 14, n = demand.length - h;
  const train = demand.subarray(0, n);
  const r = forecast(train, h, { period: 7, xreg: { train: [workday.subarray(0, n)], future: [workday.subarray(n)] } });
  const ours = mase(train, demand.subarray(n), r.mean, 7);
  assert.ok(ours < referenceMase('fpp2/elecdaily_Demand', 'ets'), `MASE ${ours}`);
});

test('several seasonalities: hourly series with daily and weekly cycles', () => {
  const noise = gaussian(3);
  const daily = (t: number) => 20 * Math.sin((2 * Math.PI * (t % 24)) / 24);
  const weekly = (t: number) => (Math.floor(t / 24) % 7 >= 5 ? -15 : 5);
  const truth = (t: number) => 100 + daily(t) + weekly(t);
  const n = 24 * 7 * 6, h = 48;
  const y = Float64Array.from({ length: n }, (_, t) => truth(t) + 2 * noise());
  const r = forecast(y, h, { period: 24, extraPeriods: [168] });
  let mae = 0;
  for (let k = 0; k < h; k++) mae += Math.abs(r.mean[k] - truth(n + k)) / h;
  assert.ok(mae < 4, `MAE ${mae}`);
});

test('short series (fewer than two seasons) and tiny series', () => {
  const y = loadSeries('forecast/fpp2/a10.csv').subarray(0, 20);
  const r = forecast(y, 12, { period: 12 });
  assert.equal(r.mean.length, 12);
  assert.ok(r.mean.every(Number.isFinite));
  for (const n of [1, 2, 3, 5]) {
    const tiny = Float64Array.from({ length: n }, (_, i) => 10 + i);
    const f = forecast(tiny, 3, { period: 12 });
    assert.ok(f.mean.every(Number.isFinite), `n = ${n}`);
  }
});

test('constant series give a flat forecast with zero-width intervals', () => {
  const r = forecast(new Float64Array(40).fill(7.5), 5, { period: 4 });
  assert.deepEqual(Array.from(r.mean), [7.5, 7.5, 7.5, 7.5, 7.5]);
  assert.deepEqual(Array.from(r.intervals['0.9'].lower), Array.from(r.mean));
  assert.equal(r.method, 'constant');
});

test('missing values are interpolated', () => {
  const { y } = dailySeries(20 * 7, 2, 9);
  const holed = Float64Array.from(y);
  holed[50] = NaN;
  holed[51] = NaN;
  const r = forecast(holed, 7, { period: 7 });
  assert.ok(r.mean.every(Number.isFinite));
});

test('invalid arguments are rejected', () => {
  const y = new Float64Array([1, 2, 3, 4, 5]);
  assert.throws(() => forecast(y, 0, { period: 1 }), RangeError);
  assert.throws(() => forecast(new Float64Array(0), 3, { period: 1 }), RangeError);
  assert.throws(() => forecast(y, 2, { period: 1, xreg: { train: [new Float64Array(3)], future: [new Float64Array(2)] } }), RangeError);
  assert.throws(() => forecast(y, 2, { period: 1, levels: [1.5] }), RangeError);
});

test('deterministic: the same input gives the same output', () => {
  const y = loadSeries('forecast/fpp2/ausbeer.csv');
  const a = forecast(y, 8, { period: 4 });
  const b = forecast(y, 8, { period: 4 });
  assert.deepEqual(a, b);
});
