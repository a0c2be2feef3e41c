import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture, type CsvTable } from '../support/fixtures.js';
import { compute } from '../../src/jobs/compute/forecast-compute.js';
import { forecast, smoothOutliers } from '../../src/ml/timeseries/forecast/index.js';

/** M3 quarterly series (fixtures, with their held-out test periods). */
function series(id: string): { dates: string[]; values: number[]; test: string[] } {
  const pick = (t: CsvTable, col: string) => t.rows.filter((r) => r[0] === id).map((r) => r[t.header.indexOf(col)]!);
  const train = readFixture('forecast', 'm3', 'm3_quarterly_train.csv');
  const test = readFixture('forecast', 'm3', 'm3_quarterly_test.csv');
  return { dates: pick(train, 'date'), values: pick(train, 'value').map(Number), test: pick(test, 'date') };
}

const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);
const LEVELS = [0.05, 0.5, 0.95];

test('a session forecasts the series as recorded, its outliers listed but not smoothed away (M3 N0750 and N0759, whose smoothed fit sessions used to choose)', () => {
  for (const id of ['N0750', 'N0759']) {
    const s = series(id);
    const out = compute({
      interval: 'quarter', timestampColumn: 'date', timestamps: Float64Array.from(s.dates, ms),
      target: { name: 'value', values: Float64Array.from(s.values), logical: false, aggregation: 'sum', imputation: 'zeroes' },
      features: [], startMs: ms(s.test[0]!), endMs: ms(s.test.at(-1)!), levels: LEVELS,
    });
    assert.ok(out.outliers.length >= 1, `${id}: its outliers are found and listed`);
    assert.ok(out.outliers.every((o) => Number(o['value:actual']) !== Number(o['value:smooth'])));
    const recorded = forecast(Float64Array.from(s.values), s.test.length, { period: 4, extraPeriods: [], levels: LEVELS });
    assert.deepEqual(out.data.map((r) => Number(r.value)), [...recorded.mean], `${id}: the forecast of the recorded series`);
    for (const level of ['0.05', '0.95']) assert.deepEqual(out.intervals[level]!.map((r) => Number(r.value)), [...recorded.quantiles[level]!], `${id} ${level}`);
  }
});

test('the outliers a session lists are those of its series on its seasonal period, as the final fit found them for its far values (computed once)', () => {
  for (const id of ['N0750', 'N0759']) {
    const s = series(id);
    const y = Float64Array.from(s.values);
    const out = compute({
      interval: 'quarter', timestampColumn: 'date', timestamps: Float64Array.from(s.dates, ms),
      target: { name: 'value', values: y, logical: false, aggregation: 'sum', imputation: 'zeroes' },
      features: [], startMs: ms(s.test[0]!), endMs: ms(s.test.at(-1)!), levels: LEVELS,
    });
    const expected = smoothOutliers(Float64Array.from(s.values), 4);
    assert.ok(expected.indices.length >= 1, id);
    assert.deepEqual(out.outliers.map((o) => o.date), expected.indices.map((t) => `${s.dates[t]}T00:00:00.0000000Z`), id);
    assert.deepEqual(out.outliers.map((o) => [Number(o['value:actual']), Number(o['value:smooth'])]), expected.indices.map((t, k) => [s.values[t], expected.values[k]]), id);
    const fit = forecast(Float64Array.from(s.values), s.test.length, { period: 4, levels: LEVELS });
    assert.deepEqual(fit.outliers.indices, expected.indices, id);
  }
});
