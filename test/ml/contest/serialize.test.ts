import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../../src/ml/tabular/serialize.js';

test('loadModel names what it cannot restore', () => {
  assert.throws(() => loadModel({ format: 'sibyl-model', version: 1, kind: 'svm' }), /unknown model kind "svm"/);
  assert.throws(() => loadModel({ format: 'other', version: 1, kind: 'gbdt' } as never), /not a sibyl model/);
});
