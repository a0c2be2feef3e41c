import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameFromFile } from '../../web/src/lib/upload-name.js';

test('a file name becomes a data set name: its extension off, spaces and punctuation as one hyphen', () => {
  assert.equal(nameFromFile('Sales 2017.csv'), 'Sales-2017');
  assert.equal(nameFromFile('q1 (final) copy.CSV'), 'q1-final-copy');
  assert.equal(nameFromFile('export.json'), 'export');
  assert.equal(nameFromFile('iris_v2.data.csv'), 'iris_v2.data');
});

test('letters of any script stay as they are: a name is not cut to ASCII', () => {
  assert.equal(nameFromFile('Ventes été 2017 données.csv'), 'Ventes-été-2017-données');
  assert.equal(nameFromFile('売上 2020.csv'), '売上-2020');
  assert.equal(nameFromFile('Müller–Daten.csv'), 'Müller-Daten');
  // A letter written as a base and a combining accent keeps its accent.
  assert.equal(nameFromFile('cafe\u0301.csv'), 'cafe\u0301');
});

test('a long name is cut at 100 characters, never inside one', () => {
  const cut = nameFromFile(`${'😀'.repeat(120)}.csv`);
  assert.equal(cut, 'data', 'emoji are not letters: nothing is left, so the default');
  const long = nameFromFile(`${'ü'.repeat(99)}𝒳yz.csv`);
  assert.equal(Array.from(long).length, 100);
  assert.equal(long, `${'ü'.repeat(99)}𝒳`, 'the last character whole, not half a surrogate pair');
});

test('a name that would be only dots or punctuation is the default, since . and .. cannot be addressed', () => {
  assert.equal(nameFromFile('..csv'), 'data');
  assert.equal(nameFromFile('....csv'), 'data');
  assert.equal(nameFromFile('---.csv'), 'data');
  assert.equal(nameFromFile(''), 'data');
});
