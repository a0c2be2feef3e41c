import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guessContentType } from '../../src/outbound/content-type.js';

test('explicit format wins over extension and header', () => {
  assert.equal(guessContentType('http://h/a.csv', 'text/csv', 'json'), 'json');
});

test('extension of the URL path decides next, including .gz files', () => {
  assert.equal(guessContentType('http://h/a.CSV?x=.json', 'application/json'), 'csv');
  assert.equal(guessContentType('http://h/a.csv.gz', 'application/gzip'), 'csv');
  assert.equal(guessContentType('http://h/dir/a.json.gz', undefined), 'json');
  assert.equal(guessContentType('http://h/a.json', 'text/plain'), 'json');
});

test('Content-Type header decides when the path has no known extension', () => {
  assert.equal(guessContentType('http://h/export', 'text/csv; charset=utf-8'), 'csv');
  assert.equal(guessContentType('http://h/export', 'application/vnd.api+json'), 'json');
  assert.equal(guessContentType('http://h/export', 'Application/JSON'), 'json');
});

test('undefined when nothing says, leaving sniffing to the caller', () => {
  assert.equal(guessContentType('http://h/export', 'application/octet-stream'), undefined);
  assert.equal(guessContentType('http://h/data.txt', undefined), undefined);
});
