import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isShortestDecimal, NumberColumnBuilder, cellText } from '../../src/ml/loaded-columns.js';
import { SeededRandom } from '../../src/ml/core/random.js';

test('isShortestDecimal never claims a text String(Number(text)) would not give back', () => {
  const fixed = ['0', '-0', '1', '-1', '10', '0.5', '-0.5', '0.50', '00.5', '.5', '1.', '1e5', '0.000001', '0.0000001', '123456789012345',
    '1234567890123456', '0.123456789012345', '0.1234567890123456', '-0.0000', '0.1230', '1e21', '12345678901234567890', '+1', '9007199254740993', ' 1', '1 ', 'NaN', ''];
  const rng = new SeededRandom(5);
  const random = Array.from({ length: 200_000 }, () => (rng.next() < 0.5 ? '-' : '') + (rng.next() * 10 ** Math.floor(rng.next() * 12)).toFixed(Math.floor(rng.next() * 18)));
  let claimed = 0;
  for (const text of [...fixed, ...random]) {
    if (!isShortestDecimal(text)) continue;
    claimed++;
    assert.equal(String(Number(text)), text, text);
  }
  // It is a fast path: it must cover the usual stored decimals, not only be safe.
  for (const usual of ['0.5', '-0.1234', '17', '3.14159', '0.0001', '-250.75']) assert.ok(isShortestDecimal(usual), usual);
  assert.ok(claimed > random.length / 4);
});

test('a number column gives back every stored text as it was written', () => {
  const texts = ['0.1230', '0.123', '-0', '1e3', '00.5', '5', '-0.0000', '0.0000001'];
  const b = new NumberColumnBuilder(texts.length);
  texts.forEach((t, i) => b.set(i, t));
  const col = b.finish(texts.length);
  assert.deepEqual(texts.map((_, i) => cellText(col, i)), texts);
});
