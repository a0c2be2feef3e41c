import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forecastZoomStart } from '../../web/src/lib/forecast-zoom.js';

const DAY = 86_400_000;

test('a week forecast after years of daily history opens on the forecast and three weeks before it', () => {
  const forecastStart = Date.UTC(2015, 0, 1);
  const start = forecastZoomStart({ historyStart: Date.UTC(2012, 0, 1), forecastStart, forecastEnd: forecastStart + 6 * DAY });
  assert.equal(start, forecastStart - 18 * DAY);
});

test('a holdout longer than that is shown whole, and a short history is not zoomed', () => {
  const forecastStart = Date.UTC(2015, 0, 1);
  const holdoutStart = forecastStart - 60 * DAY;
  assert.equal(forecastZoomStart({ historyStart: Date.UTC(2012, 0, 1), forecastStart, forecastEnd: forecastStart + 6 * DAY, holdoutStart }), holdoutStart - 6 * DAY);
  assert.equal(forecastZoomStart({ historyStart: forecastStart - 10 * DAY, forecastStart, forecastEnd: forecastStart + 6 * DAY }), undefined);
});
