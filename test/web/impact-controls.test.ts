import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlsInWords } from '../../web/src/lib/impact-controls.js';

test('an impact with controls names them, their shifts and the effect without them', () => {
  const words = controlsInWords({
    controlShifts: [{ column: 'front', shift: -0.1396 }, { column: 'DriversKilled', shift: 0.028 }],
    withoutControls: { pValue: 0.0424, relativeEffect: -0.1796, absoluteEffect: -6655, disagrees: true },
  });
  assert.deepEqual(words, {
    controls: 'The expectation leans on 2 control columns: front (moved it −14 %), DriversKilled (moved it +2.8 %).',
    without: 'Without them the effect would be −18 % (p = 0.042).',
    disagrees: true,
  });
});

test('an impact without controls, or from a server that does not say, has nothing to add', () => {
  assert.equal(controlsInWords({}), undefined);
  assert.equal(controlsInWords({ controlShifts: [], withoutControls: { pValue: 0.5, relativeEffect: 0, absoluteEffect: 0, disagrees: false } }), undefined);
});
