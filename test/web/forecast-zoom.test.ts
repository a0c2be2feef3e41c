import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forecastZoomStart } from '../../web/src/lib/forecast-zoom.js';

const DAY = 86_400_000;
/** Daily history from `from` up to the day before `until`. */
const daily = (from: number, until: number) => Array.from({ length: Math.round((until - from) / DAY) }, (_, i) => from + i * DAY);

test('a week forecast after years of daily history opens on the forecast and three weeks before it', () => {
  const forecastStart = Date.UTC(2015, 0, 1);
  const start = forecastZoomStart({ historyTimes: daily(Date.UTC(2012, 0, 1), forecastStart), forecastStart, forecastEnd: forecastStart + 6 * DAY });
  assert.equal(start, forecastStart - 18 * DAY);
});

test('a holdout longer than that is shown whole, and a short history is not zoomed', () => {
  const forecastStart = Date.UTC(2015, 0, 1);
  const holdoutStart = forecastStart - 60 * DAY;
  assert.equal(forecastZoomStart({ historyTimes: daily(Date.UTC(2012, 0, 1), forecastStart), forecastStart, forecastEnd: forecastStart + 6 * DAY, holdoutStart }), holdoutStart - 6 * DAY);
  assert.equal(forecastZoomStart({ historyTimes: daily(forecastStart - 10 * DAY, forecastStart), forecastStart, forecastEnd: forecastStart + 6 * DAY }), undefined);
});

test('monthly history dated on the 1st opens on an observation, not on the day arithmetic in milliseconds lands on', () => {
  const historyTimes = Array.from({ length: 120 }, (_, i) => Date.UTC(2000, i, 1));
  const forecastStart = Date.UTC(2010, 0, 1);
  const start = forecastZoomStart({ historyTimes, forecastStart, forecastEnd: Date.UTC(2010, 11, 1) })!;
  assert.equal(new Date(start).toISOString().slice(0, 10), '2007-05-01', 'the first month start in the three forecast lengths before 2010-01-01 (1,002 days back lands on 4 April)');
});

test('no history, no zoom', () => {
  assert.equal(forecastZoomStart({ historyTimes: [], forecastStart: Date.UTC(2015, 0, 1), forecastEnd: Date.UTC(2015, 0, 7) }), undefined);
});
