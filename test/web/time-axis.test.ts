/**
 * The charts' time axis, laid out by ECharts itself (server-side rendering, no browser) in a time zone
 * six hours behind UTC, as a user in Chicago sees it: ticks and their labels, read from the picture.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as echarts from 'echarts';
import { dataStep, timeAxisOption } from '../../web/src/lib/time-axis.js';

const DAY = 86_400_000;
let zone: string | undefined;
before(() => { zone = process.env.TZ; process.env.TZ = 'America/Chicago'; });
after(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone; });

/** The x axis' ticks (ISO) and labels of a line over `times`, 1,160 px wide, optionally zoomed to [from, to]. */
function axisOf(times: number[], zoom?: [number, number]): { ticks: string[]; labels: string[] } {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 1160, height: 300 });
  try {
    chart.setOption({
      animation: false,
      ...timeAxisOption(times),
      yAxis: { type: 'value', show: false },
      series: [{ type: 'line', data: times.map((t, i) => [t, i]) }],
      dataZoom: [{ type: 'inside', ...(zoom ? { startValue: zoom[0], endValue: zoom[1] } : {}) }],
    });
    const axis = (chart as unknown as { getModel(): { getComponent(t: string, i: number): { axis: { scale: { getTicks(): { value: number }[] } } } } }).getModel().getComponent('xAxis', 0).axis;
    const ticks = axis.scale.getTicks().map((t) => new Date(t.value).toISOString().slice(0, 16));
    const labels = [...chart.renderToSVGString().matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    return { ticks, labels };
  } finally {
    chart.dispose();
  }
}

const days = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, i) => from + i * step * DAY);

test('daily data ticks at midnight of its own dates, labelled as dates, in any time zone', () => {
  const { ticks, labels } = axisOf(days(Date.UTC(2021, 2, 3), 30));
  assert.ok(ticks.length >= 5, ticks.join(' '));
  assert.deepEqual(ticks.filter((t) => !t.endsWith('T00:00')), [], 'every tick at midnight UTC');
  assert.equal(labels[0], '3 Mar 2021', 'the first label says the year');
  assert.deepEqual(labels.slice(1).filter((l) => !/^\d{1,2} (Mar|Apr)$|^Apr$/.test(l)), [], `dates: ${labels.join(' | ')}`);
});

test('zoomed in on three days of daily data, the ticks stay on the days: no 06:00 or 12:00', () => {
  const times = days(Date.UTC(2021, 0, 1), 30);
  const { ticks, labels } = axisOf(times, [times[10]!, times[12]!]);
  assert.deepEqual(ticks, ['2021-01-11T00:00', '2021-01-12T00:00', '2021-01-13T00:00']);
  assert.deepEqual(labels, ['11 Jan 2021', '12 Jan', '13 Jan']);
});

test('monthly data ticks on the first of its months, named; weekly data at midnight', () => {
  const months = Array.from({ length: 18 }, (_, i) => Date.UTC(2020, 6 + i, 1));
  const monthly = axisOf(months, [months[2]!, months[5]!]);
  assert.deepEqual(monthly.ticks, ['2020-09-01T00:00', '2020-10-01T00:00', '2020-11-01T00:00', '2020-12-01T00:00']);
  assert.deepEqual(monthly.labels, ['Sep 2020', 'Oct', 'Nov', 'Dec']);
  const weekly = axisOf(days(Date.UTC(2021, 0, 4), 60, 7));
  assert.deepEqual(weekly.ticks.filter((t) => !t.endsWith('T00:00')), []);
});

test('hourly data keeps its hours, and a day\'s midnight says the date', () => {
  const hours = Array.from({ length: 48 }, (_, i) => Date.UTC(2021, 5, 1, 12) + i * 3_600_000);
  const { labels } = axisOf(hours, [hours[10]!, hours[16]!]);
  assert.ok(labels.includes('2 Jun'), labels.join(' | '));
  assert.ok(labels.some((l) => /^0[1-6]:00$/.test(l)), labels.join(' | '));
});

test('the data\'s step is its smallest gap between distinct times', () => {
  assert.equal(dataStep([Date.UTC(2021, 1, 1), Date.UTC(2021, 2, 1), Date.UTC(2021, 2, 1), Date.UTC(2021, 0, 1)]), 28 * DAY);
  assert.equal(dataStep([5]), undefined);
});
