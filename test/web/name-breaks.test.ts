import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameParts } from '../../web/src/lib/name-breaks.js';

test('a column name may wrap after a separator and before a capital that starts a word, nowhere else', () => {
  assert.deepEqual(nameParts('customerLifetimeValueEstimatedInEuros'), ['customer', 'Lifetime', 'Value', 'Estimated', 'In', 'Euros']);
  assert.deepEqual(nameParts('average_monthly.kwh-per/capita'), ['average_', 'monthly.', 'kwh-', 'per/', 'capita']);
  assert.deepEqual(nameParts('GDP'), ['GDP']);
  assert.deepEqual(nameParts('x'), ['x']);
});
