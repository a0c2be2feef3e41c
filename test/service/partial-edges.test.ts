import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partialEdges, partialEdgesMessages } from '../../src/service/timeseries/partial-edges.js';
import { toGrid } from '../../src/service/timeseries/series-grid.js';
import type { SeriesInput } from '../../src/service/timeseries/series-rows.js';
import type { Aggregation, Interval } from '../../src/ml/timeseries/prepare.js';

const DAY = 86_400_000;

/** Daily rows from `from` to `to` (inclusive), the target 100 a day, keeping the days `keep` allows. */
function daily(from: string, to: string, interval: Interval, aggregation: Aggregation = 'sum', keep = (_: Date) => true): SeriesInput {
  const times: number[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) if (keep(new Date(t))) times.push(t);
  return {
    interval, timestampColumn: 'day', timestamps: Float64Array.from(times),
    target: { name: 'sales', values: new Float64Array(times.length).fill(100), logical: false, aggregation, imputation: 'zeroes' },
    features: [],
  };
}

function edgesOf(s: SeriesInput) {
  const g = toGrid(s);
  return partialEdges(s, g, g.firstTarget, g.lastTarget);
}

test('the first and last months of daily rows that start on the 30th and stop on the 10th', () => {
  const s = daily('2014-04-30', '2015-04-10', 'month');
  const edges = edgesOf(s);
  assert.deepEqual(edges.map((e) => [e.edge, e.period, e.covered, e.room]), [['first', '2014-04-01', 1, 30], ['last', '2015-04-01', 10, 30]]);
  const [m] = partialEdgesMessages(edges, 'sales', 'month', true);
  assert.equal(m?.severity, 'warning');
  assert.match(m!.message, /^In the target 'sales', the first month, from 2014-04-01, has values for 1 of its 30 days, and the last month, from 2015-04-01, has values for 10 of its 30 days\. Summed, they look like a drop/);
  // An impact analysis: the first month is in the pre-period, the last in the event window.
  const [impact] = partialEdgesMessages(edges, 'sales', 'month', false);
  assert.match(impact!.message, /\. Summed, the first month looks like a drop to the model of the periods before the event\. The last month lies in the event window, where its shortfall counts as part of the effect\. Send whole months/);
});

test('whole months, a whole February and data already at the result interval are not partial', () => {
  assert.deepEqual(edgesOf(daily('2014-05-01', '2015-02-28', 'month')), []);
  assert.deepEqual(edgesOf(daily('2014-05-01', '2015-02-10', 'day')), []);
});

test('only summed targets: a mean of part of a month is still a month-sized value', () => {
  assert.deepEqual(edgesOf(daily('2014-04-30', '2015-04-10', 'month', 'mean')), []);
});

test('data without weekends: a week of five days is whole, an edge week of two is not', () => {
  const weekdays = (d: Date) => d.getUTCDay() !== 0 && d.getUTCDay() !== 6;
  // 2014-05-05 is a Monday; 2015-04-28 a Tuesday.
  assert.deepEqual(edgesOf(daily('2014-05-05', '2015-04-24', 'week', 'sum', weekdays)), []);
  const edges = edgesOf(daily('2014-05-05', '2015-04-28', 'week', 'sum', weekdays));
  assert.deepEqual(edges.map((e) => [e.edge, e.covered, e.room, e.typical]), [['last', 2, 7, 5]]);
  assert.match(partialEdgesMessages(edges, 'sales', 'week', false)[0]!.message, /the last week, from 2015-04-27, has values for 2 of its 7 days \(a week inside the series has 5\)/);
});
