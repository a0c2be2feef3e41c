/**
 * Saved forms of forecasts and impact estimates: versioned artifacts of the common schema that
 * round-trip through JSON, refit the chosen method on new data, and are refused by the row-model
 * loader with a pointer to their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARTIFACT_VERSION, PRODUCER } from '../../src/ml/estimator.js';
import { loadModel } from '../../src/ml/model-loader.js';
import { forecast } from '../../src/ml/timeseries/forecast/index.js';
import { loadSavedForecast, refitOptions, saveForecast } from '../../src/ml/timeseries/forecast/saved-forecast.js';
import { estimateImpact } from '../../src/ml/timeseries/impact/estimate.js';
import { loadSavedImpact, saveImpact } from '../../src/ml/timeseries/impact/saved-impact.js';

const monthly = Float64Array.from({ length: 96 }, (_, t) => 100 + 10 * Math.sin((2 * Math.PI * t) / 12) + 0.4 * t + (((t * 7919) % 13) - 6));

test('a saved forecast round-trips and refits its chosen method on new data without a new backtest', () => {
  const options = { period: 12, levels: [0.1, 0.5, 0.9] };
  const result = forecast(monthly, 12, options);
  const saved = loadSavedForecast(JSON.parse(JSON.stringify(saveForecast(result, options))));
  assert.equal(saved.version, ARTIFACT_VERSION);
  assert.equal(saved.producer, PRODUCER);
  assert.equal(saved.method, result.method);
  assert.deepEqual(saved.params, { period: 12, extraPeriods: [], levels: [0.1, 0.5, 0.9], methods: null, features: 0 });
  assert.deepEqual(saved.mean, Array.from(result.mean));
  assert.deepEqual(saved.quantiles['0.9'], Array.from(result.quantiles['0.9']!));
  // The same data refitted with the saved method gives the same forecast.
  const again = forecast(monthly, 12, refitOptions(saved));
  assert.equal(again.method, result.method);
  assert.deepEqual(Array.from(again.mean), saved.mean);
  assert.equal(again.candidates.length, 0, 'a single method runs no backtest');
  // New data: the chosen method, fitted afresh.
  const longer = Float64Array.from({ length: 108 }, (_, t) => monthly[t % 96]! + (t >= 96 ? 5 : 0));
  assert.equal(forecast(longer, 12, refitOptions(saved)).method, saved.method);
  assert.throws(() => loadModel(saved), /predicts no rows: read it with loadSavedForecast/);
});

test('a saved impact estimate keeps its settings, model and counterfactual', () => {
  const y = Float64Array.from({ length: 60 }, (_, t) => 50 + 3 * Math.sin(t / 2) + (((t * 31) % 7) - 3) + (t >= 48 ? 6 : 0));
  const input = { y, preEnd: 47, seed: 3, nSimulations: 400 };
  const result = estimateImpact(input);
  const saved = loadSavedImpact(JSON.parse(JSON.stringify(saveImpact(result, input))));
  assert.equal(saved.kind, 'impact');
  assert.deepEqual(saved.params, { preEnd: 47, period: 1, nSimulations: 400, seed: 3, controls: 0 });
  assert.equal(saved.model, result.model);
  assert.deepEqual(saved.predicted, Array.from(result.predicted));
  assert.equal(saved.pValue, result.pValue);
  assert.throws(() => loadSavedImpact(saveForecast(forecast(monthly, 3, { period: 12 }), { period: 12 })), /not a saved impact estimate/);
});
