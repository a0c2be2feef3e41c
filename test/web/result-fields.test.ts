import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intervalFields, levelledIntervals } from '../../web/src/lib/result-fields.js';

test('intervalFields reads the levelled interval fields regression results carry, preferring the highest level', () => {
  const row = { y: '3', 'y:actual': '2.5', 'y:lower:0.8': '2', 'y:upper:0.8': '4', 'y:lower:0.95': '1', 'y:upper:0.95': '5' };
  assert.deepEqual(intervalFields(row, 'y'), { lower: 'y:lower:0.95', upper: 'y:upper:0.95', level: 0.95 });
  assert.deepEqual(intervalFields({ y: '1', 'y:lower:0.9': '0' }, 'y'), undefined, 'a lower bound without its upper one is no interval');
  assert.deepEqual(intervalFields({ y: '1', 'y:lower': '0', 'y:upper': '2' }, 'y'), { lower: 'y:lower', upper: 'y:upper' });
  assert.equal(intervalFields({ y: '1' }, 'y'), undefined);
  assert.equal(intervalFields(undefined, 'y'), undefined);
});

test('levelledIntervals lists every interval a prediction carries, narrowest first', () => {
  const row = { y: '27', 'y:lower:0.95': '18.7', 'y:upper:0.95': '34.5', 'y:lower:0.8': '22', 'y:upper:0.8': '31.2' };
  assert.deepEqual(levelledIntervals(row, 'y'), [{ level: 0.8, lower: 22, upper: 31.2 }, { level: 0.95, lower: 18.7, upper: 34.5 }]);
  assert.deepEqual(levelledIntervals({ y: '1', 'y:lower:0.8': '0' }, 'y'), [], 'a bound without its pair is no interval');
  assert.deepEqual(levelledIntervals(undefined, 'y'), []);
});
