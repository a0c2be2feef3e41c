import { test } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture } from '../../support/fixtures.js';
import { fitSeasonalBaseline, seasonalDeviation } from '../../../src/ml/timeseries/seasonal-baseline.js';
import { fitFrameEncoder } from '../../../src/ml/encode.js';
import { ANOMALY_TASK, IsolationForest, percentAnomalies } from '../../../src/ml/tabular/isolation-forest/index.js';
import { rocAuc } from '../../../src/ml/metrics/ranking.js';

const utc = (s: string) => Date.parse(`${s}Z`);

function series(...path: string[]) {
  const t = readFixture(...path);
  const stamps = t.rows.map((r) => r[0]!);
  return { t, stamps, times: stamps.map(utc), values: t.rows.map((r) => Number(r[1])) };
}

test('NAB nyc_taxi (half-hourly): a cycle of 48 slots a day, one level a day; 20,000 rides are anomalous at 4 am and ordinary at 6 pm', () => {
  const { times, values } = series('anomaly', 'nab', 'realKnownCause', 'nyc_taxi.csv');
  const b = fitSeasonalBaseline(times, values)!;
  assert.deepEqual(b.cycle, { kind: 'day', slots: 48 });
  assert.equal(b.spacing, 86_400_000);
  // 2014-07-01 to 2015-01-31: 215 days.
  assert.ok(b.knots.length >= 215 && b.knots.length <= 218, `${b.knots.length} knots`);
  const night = seasonalDeviation(b, utc('2015-01-20T04:00:00'), 20_000);
  const evening = seasonalDeviation(b, utc('2015-01-20T18:00:00'), 20_000);
  assert.ok(night > 5, `4 am: ${night} robust sd`);
  assert.ok(Math.abs(evening) < 2, `6 pm: ${evening} robust sd`);
  // After the data, the last level holds.
  assert.equal(seasonalDeviation(b, utc('2015-03-03T04:00:00'), 20_000), seasonalDeviation(b, utc('2015-03-10T04:00:00'), 20_000));
  assert.ok(Number.isNaN(seasonalDeviation(b, NaN, 20_000)) && Number.isNaN(seasonalDeviation(b, utc('2015-01-20T04:00:00'), NaN)));
});

test('the baseline does not depend on the rows\' order, and needs ten timed values', () => {
  const { times, values } = series('forecast', 'fpp2', 'a10.csv');
  const order = times.map((_, i) => i).sort((a, b) => ((a * 7919) % 204) - ((b * 7919) % 204));
  const shuffled = fitSeasonalBaseline(order.map((i) => times[i]!), order.map((i) => values[i]!));
  assert.deepEqual(shuffled, fitSeasonalBaseline(times, values));
  assert.equal(fitSeasonalBaseline(times.slice(0, 9), values.slice(0, 9)), undefined);
  assert.equal(fitSeasonalBaseline(times.map(() => times[0]!), values), undefined);
});

test('monthly a10 cycles by month (January highest), daily elecdaily by day of the week (weekends lowest)', () => {
  const a10 = series('forecast', 'fpp2', 'a10.csv');
  const monthly = fitSeasonalBaseline(a10.times, a10.values)!;
  assert.deepEqual(monthly.cycle, { kind: 'month' });
  assert.equal(monthly.profile.indexOf(Math.max(...monthly.profile)), 0, `profile ${monthly.profile.map((v) => v.toFixed(2))}`);
  const demand = series('forecast', 'fpp2', 'elecdaily_Demand.csv');
  const daily = fitSeasonalBaseline(demand.times, demand.values)!;
  assert.deepEqual(daily.cycle, { kind: 'week' });
  const lowest = [...daily.profile].map((v, d) => [v, d] as const).sort((a, b) => a[0] - b[0]).slice(0, 2).map(([, d]) => d).sort();
  assert.deepEqual(lowest, [0, 6], `profile by weekday from Sunday ${daily.profile.map((v) => v.toFixed(1))}`);
});

test('NAB nyc_taxi: the forest on each value and its deviation ranks the labelled windows above the reference STL robust z and the values alone', () => {
  const { t, stamps } = series('anomaly', 'nab', 'realKnownCause', 'nyc_taxi.csv');
  const labels = Uint8Array.from(column(t, 'label_window'), Number);
  const reference = Number(column(readFixture('reference', 'anomaly_timeseries.csv'), 'roc_auc')[0]);
  const columns = { timestamp: stamps, value: column(t, 'value') };
  const specs = [{ name: 'timestamp', dataType: 'date' as const, role: 'timestamp' }, { name: 'value', dataType: 'numeric' as const, role: 'feature' }];
  const frame = fitFrameEncoder(specs, columns, undefined, { series: { timestamp: 'timestamp', value: 'value' } }).encode(columns, stamps.length);
  assert.deepEqual(frame.columns.map((c) => c.name), ['value:deviation', 'value']);
  const auc = (f: typeof frame) => rocAuc(labels, new IsolationForest({ measurements: 1 }).fit(f, null, ANOMALY_TASK, { seed: 0 }).scoreSamples(f).map((s) => -s));
  const withDeviation = auc(frame);
  const valueOnly = auc({ nRows: frame.nRows, columns: [frame.columns[1]!] });
  assert.ok(withDeviation > reference + 0.03 && withDeviation > valueOnly + 0.03, `ROC AUC ${withDeviation} against the reference's ${reference} and the values' ${valueOnly}`);
  // A value and its deviation are one measurement: the share flagged is the tail past the scores' fence
  // (10 % of the rows lie in the labelled windows); counted as two features, the sparse fringe is flagged too.
  const flagged = (measurements?: number) => percentAnomalies(new IsolationForest({ measurements }).fit(frame, null, ANOMALY_TASK, { seed: 0 }).decisionFunction(frame));
  const [one, two] = [flagged(1), flagged(undefined)];
  assert.ok(one > 0.005 && one < 0.05 && two > 0.1, `flagged ${one} as one measurement, ${two} as two`);
});
