import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResultInterval } from '../../src/domain/intervals.js';

test('result intervals: any case, .NET integers Hour=0..Year=4, Sibyl\'s quarter by name only, absent stays undefined', () => {
  assert.deepEqual(parseResultInterval('Day'), { ok: true, value: 'day' });
  assert.deepEqual(parseResultInterval('HOUR'), { ok: true, value: 'hour' });
  const dotnet = [0, 1, 2, 3, 4].map((i) => { const r = parseResultInterval(i); return r.ok ? r.value : r.error; });
  assert.deepEqual(dotnet, ['hour', 'day', 'week', 'month', 'year']);
  assert.deepEqual(parseResultInterval('3'), { ok: true, value: 'month' });
  assert.deepEqual(parseResultInterval(null), { ok: true, value: undefined });
  assert.deepEqual(parseResultInterval('Quarter'), { ok: true, value: 'quarter' });
  assert.equal(parseResultInterval('fortnight').ok, false);
  assert.equal(parseResultInterval(5).ok, false);
});
