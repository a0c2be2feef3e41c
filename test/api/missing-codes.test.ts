/**
 * Missing values written as numbers or words. A code for a missing value stored as a number: a station's daily temperatures with the days it did
 * not report written -9999, as NOAA's files write them (fpp2 elecdaily's Melbourne temperatures, seven
 * days coded). The upload warns, and so do the forecast it would otherwise skew without a word and a
 * model that takes a coded column as a feature; the same file with those cells empty says nothing.
 * And a column of numbers with a word for its gaps (auto mpg's horsepower, 'unknown' for the six it
 * lacks) stays one of numbers, the upload saying so, and a model uses it as numbers.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

const CODED_DAYS = new Set([40, 41, 42, 120, 200, 201, 300]);
const temperatures = readFixture('forecast', 'fpp2', 'elecdaily_Temperature.csv').rows;
const file = (code: string) => ['date,value', ...temperatures.map(([date, v], i) => `${date},${CODED_DAYS.has(i) ? code : v}`)].join('\n') + '\n';
const csv = { headers: { 'content-type': 'text/csv' } };
const WARNING = /^Column 'value' holds -9999 in 7 of 365 rows, far from its other values \(9\.8 to 43\.2\), as data sources write a code for a missing value\./;

describe('missing values written as codes or words among numbers', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.close(); });

  it('the upload, the forecast and a model using the column warn; the file with empty cells does not', async () => {
    const up = await s.call('PUT', '/v1/data/coded', { body: file('-9999'), ...csv });
    assert.equal(up.status, 201, up.text);
    const warnings = up.json.messages.filter((m: { severity: string }) => m.severity === 'warning');
    assert.equal(warnings.length, 1, up.text);
    assert.match(warnings[0].message, WARNING);
    assert.match(warnings[0].message, /name it among the data set's markers for a missing value \(PUT the data set with \{"missingValues": \["-9999"\]\}\), or send those cells empty\./);

    const forecast = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'coded', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-14', resultInterval: 'day' } });
    assert.equal(forecast.status, 200, forecast.text);
    const done = await completedSession(s, forecast.json.sessionId);
    const said = done.messages.filter((m: { message: string }) => WARNING.test(m.message));
    assert.equal(said.length, 1, JSON.stringify(done.messages));
    assert.match(said[0].message, /This session took it for a number/);

    // The temperature as a feature of a regression (of the day of year): the model's session says it too.
    const rows = temperatures.map(([date, v], i) => ({ day: i + 1, temperature: CODED_DAYS.has(i) ? -9999 : Number(v), weekday: new Date(`${date}T00:00:00Z`).getUTCDay() }));
    assert.equal((await s.call('PUT', '/v1/data/coded-table', { json: { data: rows } })).status, 201);
    const model = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'coded-table', targetColumn: 'day', predictionDomain: 'regression' } });
    assert.equal(model.status, 200, model.text);
    const trained = await completedSession(s, model.json.sessionId);
    assert.ok(trained.messages.some((m: { message: string }) => /^Column 'temperature' holds -9999 in 7 of 365 rows/.test(m.message)), JSON.stringify(trained.messages));

    const clean = await s.call('PUT', '/v1/data/clean', { body: file(''), ...csv });
    assert.equal(clean.status, 201, clean.text);
    assert.deepEqual(clean.json.messages.filter((m: { severity: string }) => m.severity === 'warning'), []);
  });

  it("a column of numbers with 'unknown' for its gaps stays numbers, the upload says so, and predict reads the word as the gap it was", async () => {
    const mpg = readFixture('regression', 'auto_mpg.csv');
    const at = mpg.header.indexOf('Horsepower');
    const body = [mpg.header.join(','), ...mpg.rows.map((r) => r.map((v, j) => (j === at && v === '' ? 'unknown' : /,/.test(v) ? `"${v}"` : v)).join(','))].join('\n') + '\n';
    const up = await s.call('PUT', '/v1/data/mpg-unknown', { body, ...csv });
    assert.equal(up.status, 201, up.text);
    assert.equal(up.json.columns.Horsepower.dataType, 'numericMeasure');
    assert.deepEqual(up.json.messages.filter((m: { severity: string }) => m.severity === 'warning').map((m: { message: string }) => m.message), [
      "Column 'Horsepower' holds numbers, and words in 6 of its 406 cells: 'unknown' (6). It is read as a column of numbers, with those cells missing. If the words are values, declare the column's dataType string.",
    ]);
    const stats = await s.call('GET', '/v1/data/mpg-unknown/stats/Horsepower');
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.json.columns.Horsepower.min, 46);

    // A model of the table reads 'unknown' as the gap it was in training, without a warning; another word is warned of.
    const model = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'mpg-unknown', targetColumn: 'Miles_per_Gallon', predictionDomain: 'regression' } });
    assert.equal(model.status, 200, model.text);
    const trained = await completedSession(s, model.json.sessionId);
    const record = { ...Object.fromEntries(mpg.header.map((h, j) => [h, mpg.rows[0]![j]])), Miles_per_Gallon: undefined };
    const predict = async (horsepower: string) => (await s.call('POST', `/v1/models/${trained.modelId}/predict`, { json: { data: [{ ...record, Horsepower: horsepower }] } })).json;
    const [gap, other] = [await predict('unknown'), await predict('lots')];
    assert.deepEqual((gap.messages ?? []).filter((m: { message: string }) => /Horsepower/.test(m.message)), [], JSON.stringify(gap.messages));
    assert.match(JSON.stringify(other.messages), /Column Horsepower takes numbers/);
    assert.equal(gap.data[0].Miles_per_Gallon, other.data[0].Miles_per_Gallon, 'both read as missing');
  });

  it("the data set's own markers (missingValues): set after the upload, the code is missing in statistics and sessions; the rows keep it", async () => {
    assert.equal((await s.call('PUT', '/v1/data/marked', { body: file('-9999'), ...csv })).status, 201);
    const bad = await s.call('PUT', '/v1/data/marked', { json: { missingValues: '-9999' } });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.json.errorDetails.missingValues, bad.text);
    assert.equal((await s.call('GET', '/v1/data/marked/stats/value')).json.columns.value.min, -9999, 'a refused request changes nothing');

    const set = await s.call('PUT', '/v1/data/marked', { json: { missingValues: ['-9999', 'n/k'] } });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual([set.json.rowCount, set.json.missingValues], [365, ['-9999', 'n/k']]);
    assert.deepEqual(set.json.messages.map((m: { message: string }) => m.message), [
      "Cells reading '-9999' or 'n/k' are missing values in every column: in column types, statistics and sessions, which impute them as they do empty cells. The rows keep them as sent. The types of the columns, read from the 365 rows stored before, are unchanged: declare a column's dataType to change how it is read.",
    ]);
    assert.deepEqual((await s.call('GET', '/v1/data/marked')).json.missingValues, ['-9999', 'n/k']);
    const stats = (await s.call('GET', '/v1/data/marked/stats/value')).json.columns.value;
    assert.deepEqual([stats.missingCount, stats.min, stats.max], [7, 9.8, 43.2]);
    const rows = (await s.call('GET', '/v1/data/marked?pageSize=50')).json.data;
    assert.equal(rows[40].value, '-9999');

    const forecast = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'marked', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-14', resultInterval: 'day' } });
    assert.equal(forecast.status, 200, forecast.text);
    const done = await completedSession(s, forecast.json.sessionId);
    assert.deepEqual(done.messages.filter((m: { message: string }) => /holds -9999/.test(m.message)), []);
    // The 90 % band (the 0.05 and 0.95 quantiles): with the code taken for a number it ran from −2,244 to 2,296.
    const quantile = async (q: string) => (await s.call('GET', `/v1/sessions/${done.sessionId}/results?predictionInterval=${q}`)).json.data.map((r: Record<string, string>) => Number(r.value));
    const band = [...(await quantile('0.05')), ...(await quantile('0.95'))];
    assert.ok(band.length === 28 && band.every((v: number) => v > -5 && v < 60), `Melbourne in January, degrees: ${band.map((v: number) => v.toFixed(0))}`);
  });

  it('markers sent with the rows decide the column types: a CSV with the query, JSON numbers by value', async () => {
    const mpg = readFixture('regression', 'auto_mpg.csv');
    const at = mpg.header.indexOf('Horsepower');
    // One horsepower in four unknown: too many words for a column of numbers, unless they are named.
    const body = [mpg.header.join(','), ...mpg.rows.map((r, i) => r.map((v, j) => (j === at && (v === '' || i % 4 === 0) ? 'n/k' : /,/.test(v) ? `"${v}"` : v)).join(','))].join('\n') + '\n';
    const plain = await s.call('PUT', '/v1/data/mpg-nk', { body, ...csv });
    assert.equal(plain.json.columns.Horsepower.dataType, 'string');
    const marked = await s.call('PUT', '/v1/data/mpg-nk-marked?missingValues=n/k', { body, ...csv });
    assert.equal(marked.status, 201, marked.text);
    assert.equal(marked.json.columns.Horsepower.dataType, 'numericMeasure');
    assert.deepEqual(marked.json.messages.filter((m: { severity: string }) => m.severity === 'warning'), []);

    const rows = temperatures.map(([date, v], i) => ({ date, value: CODED_DAYS.has(i) ? -9999.0 : Number(v) }));
    const json = await s.call('PUT', '/v1/data/marked-json', { json: { data: rows, missingValues: ['-9999.0'] } });
    assert.equal(json.status, 201, json.text);
    assert.deepEqual(json.json.messages.filter((m: { severity: string }) => m.severity === 'warning'), []);
    assert.equal((await s.call('GET', '/v1/data/marked-json/stats/value')).json.columns.value.missingCount, 7);
  });

  it("a session's own markers (missingValues in the request) count beside its data set's; a bad list is a 400", async () => {
    assert.equal((await s.call('PUT', '/v1/data/session-marked', { body: file('-9999'), ...csv })).status, 201);
    const bad = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'session-marked', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-14', missingValues: [{}] } });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.json.errorDetails.missingValues, bad.text);
    const forecast = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'session-marked', targetColumn: 'value', startDate: '2015-01-01', endDate: '2015-01-14', missingValues: ['-9999'] } });
    assert.equal(forecast.status, 200, forecast.text);
    const done = await completedSession(s, forecast.json.sessionId);
    assert.deepEqual(done.messages.filter((m: { message: string }) => /holds -9999/.test(m.message)), []);
    const upper = (await s.call('GET', `/v1/sessions/${done.sessionId}/results?predictionInterval=0.95`)).json.data.map((r: Record<string, string>) => Number(r.value));
    assert.ok(upper.length === 14 && upper.every((v: number) => v < 60), `0.95 quantiles: ${upper}`);

    const rows = temperatures.map(([, v], i) => ({ day: i + 1, temperature: CODED_DAYS.has(i) ? -9999 : Number(v) }));
    assert.equal((await s.call('PUT', '/v1/data/session-marked-table', { json: { data: rows } })).status, 201);
    const model = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'session-marked-table', targetColumn: 'day', predictionDomain: 'regression', missingValues: ['-9999'] } });
    assert.equal(model.status, 200, model.text);
    const trained = await completedSession(s, model.json.sessionId);
    assert.deepEqual(trained.messages.filter((m: { message: string }) => /holds -9999/.test(m.message)), []);
  });

  it('a model keeps its data set\'s markers: predict reads -9999 as the missing value it was in training', async () => {
    const rows = temperatures.map(([date, v], i) => ({ day: i + 1, temperature: CODED_DAYS.has(i) ? -9999 : Number(v), weekday: new Date(`${date}T00:00:00Z`).getUTCDay() }));
    assert.equal((await s.call('PUT', '/v1/data/marked-table', { json: { data: rows, missingValues: ['-9999'] } })).status, 201);
    const model = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'marked-table', targetColumn: 'day', predictionDomain: 'regression' } });
    assert.equal(model.status, 200, model.text);
    const trained = await completedSession(s, model.json.sessionId);
    assert.deepEqual(trained.messages.filter((m: { message: string }) => /holds -9999/.test(m.message)), []);
    const predict = async (temperature: unknown) => (await s.call('POST', `/v1/models/${trained.modelId}/predict`, { json: { data: [{ temperature, weekday: 3 }] } })).json;
    const [coded, empty] = [await predict(-9999), await predict('')];
    assert.equal(coded.data[0].day, empty.data[0].day);
    assert.deepEqual((coded.messages ?? []).filter((m: { message: string }) => /temperature/.test(m.message)), [], JSON.stringify(coded.messages));
  });
});
