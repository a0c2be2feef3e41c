import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partialPeriods } from '../../src/service/timeseries/impact-sessions.js';

const at = (day: string) => Date.parse(`${day}T00:00:00Z`);

test('an event window inside weeks is analysed in whole weeks, and the message counts the days it added on each side', () => {
  const [m] = partialPeriods(at('2014-10-01'), at('2014-10-31'), 'week'); // a Wednesday to a Friday
  assert.equal(m?.severity, 'informational');
  assert.match(m!.message, /^The event window is analysed in whole weeks, 2014-09-29 to 2014-11-02: it starts on 2014-10-01, so the 2 days from 2014-09-29 before it count as part of the event, diluting .*; it ends on 2014-10-31, so the 2 days to 2014-11-02 after it count as part of the event\./);
  assert.doesNotMatch(partialPeriods(at('2014-09-29'), at('2014-10-31'), 'week')[0]!.message, /starts on/);
});

test('a window from period start to period start or period end, or at a daily interval, needs no message', () => {
  assert.deepEqual(partialPeriods(at('1938-01-01'), at('1938-06-01'), 'month'), [], 'the 1st names its month');
  assert.deepEqual(partialPeriods(at('1938-01-01'), at('1938-06-30'), 'month'), []);
  assert.deepEqual(partialPeriods(at('2014-09-29'), at('2014-11-02'), 'week'), [], 'Monday to Sunday');
  assert.deepEqual(partialPeriods(at('2014-10-01'), at('2014-10-31'), 'day'), []);
  assert.deepEqual(partialPeriods(at('2014-01-01'), at('2014-12-31'), 'year'), []);
  assert.match(partialPeriods(at('1938-01-15'), at('1938-06-10'), 'month')[0]!.message, /whole months, 1938-01-01 to 1938-06-30: it starts on 1938-01-15, so the 14 days .*; it ends on 1938-06-10, so the 20 days to 1938-06-30/);
});

test('one day either side is said in the singular', () => {
  assert.match(partialPeriods(at('2014-09-30'), at('2014-11-01'), 'week')[0]!.message, /the 1 day from 2014-09-29 before it counts .*; it ends on 2014-11-01, so the 1 day to 2014-11-02 after it counts/);
});
