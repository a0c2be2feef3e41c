import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFixture, seriesValues } from '../../support/fixtures.js';
import { autoArimaForecast } from '../../../src/ml/timeseries/forecast/arima.js';
import { autoEtsForecast } from '../../../src/ml/timeseries/forecast/ets.js';
import { forecast } from '../../../src/ml/timeseries/forecast/index.js';
import { smape } from '../../../src/ml/timeseries/forecast/metrics.js';
import { thetaForecast } from '../../../src/ml/timeseries/forecast/theta.js';
import { gaussian } from './synthetic.js';

/** The first `count` M3 quarterly series with their test values and R's reference point forecasts. */
function m3Quarterly(count: number) {
  const group = (path: string) => seriesValues(readFixture(path));
  const train = group('forecast/m3/m3_quarterly_train.csv');
  const testValues = group('forecast/m3/m3_quarterly_test.csv');
  const ids = [...train.keys()].slice(0, count);
  const reference = new Map<string, number[]>();
  for (const r of readFixture('reference/forecast_points.csv').rows) {
    if (r[0] === 'm3' && ids.includes(r[1])) reference.set(`${r[1]}/${r[2]}`, r.slice(3, 11).map(Number));
  }
  return ids.map((id) => ({ id, y: Float64Array.from(train.get(id)!), actual: testValues.get(id)!, ref: (m: string) => reference.get(`${id}/${m}`)! }));
}

const SERIES = m3Quarterly(120);
const meanSmape = (f: (s: (typeof SERIES)[number]) => ArrayLike<number>) =>
  SERIES.reduce((acc, s) => acc + smape(s.actual, f(s)), 0) / SERIES.length;

test('Theta reproduces R thetaf on M3 quarterly series', () => {
  const ours = meanSmape((s) => thetaForecast(s.y, 4, 8).mean);
  const r = meanSmape((s) => s.ref('theta'));
  assert.ok(Math.abs(ours - r) < 0.02 * r, `sMAPE ${ours} vs R ${r}`);
});

test('ETS is as accurate as R ets on M3 quarterly series', () => {
  const ours = meanSmape((s) => autoEtsForecast(s.y, 4, 8)!.mean);
  const r = meanSmape((s) => s.ref('ets'));
  assert.ok(ours < 1.03 * r, `sMAPE ${ours} vs R ${r}`);
});

test('ARIMA stays close to R auto.arima on M3 quarterly series', () => {
  const ours = meanSmape((s) => autoArimaForecast(s.y, 4, 8)!.mean);
  const r = meanSmape((s) => s.ref('arima'));
  assert.ok(ours < 1.1 * r, `sMAPE ${ours} vs R ${r}`);
});

test('the engine matches R’s ets+arima+theta combination on M3 quarterly series', () => {
  const ours = meanSmape((s) => forecast(s.y, 8, { period: 4, methods: ['comb'] }).mean);
  const r = meanSmape((s) => s.ref('comb'));
  assert.ok(ours < 1.02 * r, `sMAPE ${ours} vs R ${r}`);
});

test('ARIMA identifies a random walk with drift and an AR(1)', () => {
  const noise = gaussian(21);
  const rw = new Float64Array(200);
  for (let t = 1; t < 200; t++) rw[t] = rw[t - 1] + 2 + noise();
  const f = autoArimaForecast(rw, 1, 10)!;
  assert.match(f.name, /ARIMA\(\d,1,\d\) with drift/);
  assert.ok(Math.abs(f.mean[9] - f.mean[0] - 18) < 3, `slope ${(f.mean[9] - f.mean[0]) / 9}`);
  const ar = new Float64Array(300);
  for (let t = 1; t < 300; t++) ar[t] = 0.7 * ar[t - 1] + noise();
  const g = autoArimaForecast(ar.map((v) => v + 50), 1, 30)!;
  assert.match(g.name, /ARIMA\(\d,0,\d\) with mean/);
  assert.ok(Math.abs(g.mean[29] - 50) < 1, 'reverts to the mean');
  assert.ok(g.sd[29] > g.sd[0]);
});
