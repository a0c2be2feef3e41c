import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { effectInWords, formatNumber, formatSignificant, isFractionMetric, listInWords, metricLabel, pValueInWords } from '../../web/src/lib/words.js';
import { curlSnippet, nexosisClientSnippet } from '../../web/src/lib/snippets.js';
import { parseTime } from '../../web/src/lib/time.js';

describe('dashboard words and snippets', () => {
  it('says a p-value plainly, with the strength of evidence at the usual levels', () => {
    assert.equal(pValueInWords(0.0012), 'p = 0.0012: if the event had changed nothing, a difference at least this large would turn up by chance about 1 time in 830. That is strong evidence that the event had an effect.');
    assert.match(pValueInWords(0.0004), /very strong evidence/);
    assert.match(pValueInWords(0.03), /about 1 time in 33\. That is evidence that/);
    assert.match(pValueInWords(0.07), /weak evidence, not enough at the usual 5 % level/);
    assert.match(pValueInWords(0.62), /about 62 times in 100\. That is no real evidence/);
    assert.match(pValueInWords(NaN), /no p-value/);
  });

  it('names prediction-interval coverage by its level, as a share', () => {
    assert.equal(metricLabel('predictionIntervalCoverage80'), '80 % interval coverage');
    assert.equal(metricLabel('predictionIntervalCoverage95'), '95 % interval coverage');
    assert.equal(isFractionMetric('predictionIntervalCoverage95'), true);
  });

  it('lists things in words', () => {
    assert.equal(listInWords(['a']), 'a');
    assert.equal(listInWords(['a', 'b', 'c']), 'a, b and c');
  });

  it('rounds scores and probabilities to a few significant digits, without an exponent', () => {
    assert.equal(formatSignificant(0.015604681404421327), '0.0156');
    assert.equal(formatSignificant(-8.071e-5), '-0.0000807');
    assert.equal(formatSignificant(-0.07828623282687108), '-0.0783');
  });

  it('says the whole-window effect with its direction and share', () => {
    assert.equal(effectInWords('sales', -526.28, -0.1858), 'Over the event window, sales totalled 526.3 less than the model expected without the event (−18.6 %).');
    assert.match(effectInWords('visits', 12, 0.05), /12 more .* \(\+5 %\)/);
  });

  it('formats numbers and names metrics', () => {
    assert.equal(formatNumber(0.98323272), '0.9832');
    assert.equal(formatNumber(1234567), '1.235e+6');
    assert.equal(metricLabel('macroAverageF1Score'), 'Macro-average F1');
    assert.equal(metricLabel('someNewMetric'), 'Some new metric');
  });

  it('reads the API dates, seven fractional digits included', () => {
    assert.equal(parseTime('2008-06-01T00:00:00.0000000Z'), Date.UTC(2008, 5, 1));
    assert.equal(parseTime('1983-02-01'), Date.UTC(1983, 1, 1));
    assert.equal(parseTime('2017-04-01T00:00:00+02:00'), Date.UTC(2017, 2, 31, 22));
  });

  it('writes runnable code with the columns, quoting for the shell', () => {
    const curl = curlSnippet('http://127.0.0.1:8080', 'abc', { "it's": '1', b: 'x' });
    assert.match(curl, /^curl -X POST 'http:\/\/127\.0\.0\.1:8080\/v1\/models\/abc\/predict'/);
    assert.ok(curl.includes(`"it'\\''s": "1"`), 'a quote in a column name survives the shell');
    const js = nexosisClientSnippet('http://h', 'abc', { a: '1' });
    assert.match(js, /require\('nexosis-api-client'\)\.default/);
    assert.match(js, /endpoint: "http:\/\/h\/v1"/);
    assert.match(js, /client\.Models\.predict\("abc", \[\n  \{\n    "a": "1"\n  \},\n\]\)/);
  });
});
