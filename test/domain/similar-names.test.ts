import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestName, editDistance } from '../../src/domain/similar-names.js';

test('edit distance counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
  assert.equal(editDistance('weight', 'weight'), 0);
  assert.equal(editDistance('weight', 'wieght'), 1);
  assert.equal(editDistance('displacement', 'displacment'), 1);
  assert.equal(editDistance('colour', 'color'), 1);
  assert.equal(editDistance('age', 'sex'), 3);
  assert.equal(editDistance('', 'abc'), 3);
});

test('the closest name: letter case, a slip or two in long names, nothing for short or distant names or a tie', () => {
  assert.equal(closestName('Cylinders', ['cylinders', 'id']), 'cylinders');
  assert.equal(closestName('Displacement', ['Displacment', 'Horsepower']), 'Displacment');
  assert.equal(closestName('Acceleration', ['Acelleration']), 'Acelleration', 'two edits in a long name');
  assert.equal(closestName('weight', ['wieght']), 'wieght');
  assert.equal(closestName('weight', ['height']), 'height', 'one edit is a slip; whether it is the meant column the message leaves to the reader');
  assert.equal(closestName('age', ['sex', 'ago']), undefined, 'names under four letters take no edits');
  assert.equal(closestName('AGE', ['age']), 'age', 'letter case is no edit');
  assert.equal(closestName('colour', ['color', 'colours']), undefined, 'two candidates equally close: no guess');
  assert.equal(closestName('price', ['id', 'name']), undefined);
});
