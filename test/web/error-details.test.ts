import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldReasons, isReason } from '../../web/src/lib/error-details.js';

test('an errorDetails entry that repeats the value sent is not a reason', () => {
  assert.equal(isReason('admin@example.com', 'admin@example.com'), false, 'the taken address');
  assert.equal(isReason('2008-07-01T00:00:00+00:00', '2008-07-01'), false, 'a date, normalised by the server');
  assert.equal(isReason('my data', 'my data'), false, 'equal to what was sent, spaces or not');
  assert.equal(isReason('use at least 10 characters', 'short'), true);
  assert.equal(isReason("'notanemail' is not an e-mail address", 'notanemail'), true);
  assert.equal(isReason('there is no data before 1980-01-01T00:00:00+00:00'), true);
});

test('fieldReasons keeps only the reasons of one field', () => {
  const details = { startDate: ['2008-07-01T00:00:00+00:00'], endDate: ['2008-01-01T00:00:00+00:00'], password: ['use at least 10 characters'], limitBytes: 100 };
  assert.deepEqual(fieldReasons(details, 'startDate', { startDate: '2008-07-01' }), []);
  assert.deepEqual(fieldReasons(details, 'password', { password: 'short' }), ['use at least 10 characters']);
  assert.deepEqual(fieldReasons(details, 'limitBytes'), [], 'a figure, not a list of reasons');
  assert.deepEqual(fieldReasons(undefined, 'email'), []);
});
