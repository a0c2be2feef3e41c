/** Models and predictions over HTTP: list/read/delete, predict from JSON and CSV, limits and errors. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { completedSession, eventually, startTestServer, type TestServer } from '../support/server.js';

const MAX_RECORDS = 50;

/** Fruit: the kind follows from weight and colour; `origin` is noise. */
function fruitCsv(): string {
  const lines = ['weight,colour,origin,kind'];
  for (let i = 0; i < 120; i++) {
    const apple = i % 2 === 0;
    const weight = apple ? 150 + (i % 13) * 3 : 260 + (i % 11) * 4;
    const colour = apple ? (i % 4 === 0 ? 'red' : 'green') : 'yellow';
    lines.push(`${weight},${colour},${['spain', 'chile', 'peru'][i % 3]},${apple ? 'apple' : 'melon'}`);
  }
  return lines.join('\n') + '\n';
}

async function trainModel(s: TestServer, dataSourceName: string): Promise<string> {
  const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName, predictionDomain: 'classification', targetColumn: 'kind' } });
  assert.equal(r.status, 200, r.text);
  return (await completedSession(s, r.json.sessionId)).modelId;
}

for (const backend of await backends()) {
  describe(`models and predictions over HTTP (${backend})`, () => {
    let s: TestServer;
    let modelId: string;
    before(async () => {
      s = await startTestServer(backend, { SIBYL_MAX_PREDICT_RECORDS: String(MAX_RECORDS) });
      assert.equal((await s.call('PUT', '/v1/data/fruit', { body: fruitCsv(), headers: { 'content-type': 'text/csv' } })).status, 201);
      modelId = await trainModel(s, 'fruit');
    });
    after(async () => { await s.close(); });

    it('lists and reads models', async () => {
      const list = await s.call('GET', '/v1/models?dataSourceName=fruit');
      assert.equal(list.json.totalCount, 1);
      const m = list.json.items[0];
      assert.equal(m.modelId, modelId);
      assert.deepEqual(Object.keys(m).sort(), ['algorithm', 'columns', 'createdDate', 'dataSourceName', 'links', 'metrics', 'modelId', 'predictionDomain', 'sessionId'].sort());
      assert.deepEqual(m.links.map((l: any) => l.rel), ['self', 'train']);
      assert.equal((await s.call('GET', '/v1/models?dataSourceName=other')).json.totalCount, 0);
      assert.equal((await s.call('GET', '/v1/models?createdAfterDate=2999-01-01')).json.totalCount, 0);
      const one = await s.call('GET', `/v1/models/${modelId}`);
      assert.equal(one.json.predictionDomain, 'classification');
      assert.equal(one.json.metrics.accuracy, 1);
      assert.equal(one.json.columns.kind.role, 'target');
    });

    it('predicts JSON records: values echoed as strings, unknown columns ignored, unseen and missing values handled, class scores on request', async () => {
      const data = [
        { weight: 155, colour: 'green', origin: 'spain' },
        { weight: 290, colour: 'yellow', origin: 'mars', note: 'unknown column' },
        { weight: 300 },
        { weight: null, colour: 'purple' },
      ];
      const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data, extraParameters: { includeClassScores: 'True' } } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.modelId, modelId);
      assert.deepEqual(r.json.messages.map((m: any) => m.severity), ['warning', 'warning', 'warning']);
      assert.match(r.json.messages[0].message, /^Some of the 4 records lack input columns of the model, which treated them as missing: colour \(absent from 1\), origin \(absent from 2\)\.$/);
      assert.match(r.json.messages[1].message, /^Column colour held a category not seen in training in 1 of 4 records \(the first: record 4, "purple"\)/);
      // A refitted model's categories are still its training rows': a value only in the test rows is new to it, and the message says so.
      assert.match(r.json.messages[1].message, /the model treated it as missing\. A model learns its categories from the session's training rows, so a value found only in its held-back test rows is new to it too\.$/);
      assert.match(r.json.messages[2].message, /^Column origin held a category not seen in training in 1 of 4 records \(the first: record 2, "mars"\)/);
      const rows = r.json.data;
      assert.deepEqual(rows.map((x: any) => x.kind).slice(0, 2), ['apple', 'melon']);
      assert.ok(['apple', 'melon'].includes(rows[2].kind), 'a missing feature still gets a prediction');
      assert.deepEqual(rows[1], { ...rows[1], weight: '290', colour: 'yellow', origin: 'mars', note: 'unknown column' });
      assert.equal(rows[3].weight, '');
      assert.ok(['apple', 'melon'].includes(rows[3].kind));
      for (const row of rows) assert.ok(Math.abs(Number(row['kind:apple']) + Number(row['kind:melon']) - 1) < 1e-6);
      const plain = await s.call('POST', `/v1/model/${modelId}/predict`, { json: { data: data.slice(0, 1) } });
      assert.deepEqual(Object.keys(plain.json.data[0]).sort(), ['colour', 'kind', 'origin', 'weight']);
      assert.deepEqual(plain.json.messages, [], 'a complete record is predicted without a word');
    });

    it('says which inputs the model could not read: a word in a numeric column, misnamed columns', async () => {
      const words = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 150, colour: 'red', origin: 'peru' }, { weight: '150 g', colour: 'red', origin: 'peru' }] } });
      assert.equal(words.status, 200, words.text);
      assert.deepEqual(words.json.messages, [{ severity: 'warning', message: 'Column weight takes numbers; 1 of 2 records held a value that is not one (the first: record 2, "150 g"), which the model treated as missing.' }]);
      const gaps = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: '?', colour: 'red', origin: 'peru' }, { weight: null, colour: 'red', origin: 'peru' }, { weight: '1,150', colour: 'red', origin: 'chile' }, { weight: 1150, colour: 'red', origin: 'chile' }], extraParameters: { includeClassScores: true } } });
      assert.equal(gaps.status, 200, gaps.text);
      // A marker is a gap and '1,150' a number: nothing unread. But 1,150 g is far outside the weights the
      // model was trained on (150 to 300 g), and its answer for them rests on nothing seen in training.
      assert.deepEqual(gaps.json.messages, [{ severity: 'warning', message: 'Column weight held values far outside those the model was trained on (150 to 300) in 2 of 4 records (the first: record 3, 1150): nothing in its training is behind its answers for them. Check the values for a code such as -9999 or a unit the model was not trained in.' }]);
      const near = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 0.3, colour: 'red', origin: 'peru' }, { weight: 449, colour: 'yellow', origin: 'peru' }, { weight: 1, colour: 'red', origin: 'peru' }] } });
      assert.deepEqual(near.json.messages, [], 'up to one training range (150 g) beyond the training values is not far');
      const coded = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: -9999, colour: 'red', origin: 'peru' }, { weight: 160, colour: 'red', origin: 'peru' }] } });
      assert.match(coded.json.messages[0].message, /^Column weight held values far outside those the model was trained on \(150 to 300\) in 1 of 2 records \(the first: record 1, -9999\)/);
      assert.deepEqual(gaps.json.data[0], { ...gaps.json.data[1], weight: '?' });
      assert.deepEqual(gaps.json.data[2], { ...gaps.json.data[3], weight: '1,150' });
      const csv = await s.call('POST', `/v1/models/${modelId}/predict`, { body: 'Weight,Colour\n150,red\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.json.messages.length, 1);
      assert.match(csv.json.messages[0].message, /^None of the model's 3 input columns \(weight, colour, origin\) is in the records, so every prediction is the model's answer for a record whose values are all missing/);
      assert.match(csv.json.messages[0].message, /The records' columns Weight and Colour are not among the model's inputs: did you mean weight and colour\?$/);
      const slip = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ wieght: 150, colour: 'red', origin: 'peru', id: 'x7' }] } });
      assert.deepEqual(slip.json.messages, [{ severity: 'warning', message: "The records lack 1 of the model's 3 input columns (weight); the model treated their values as missing. The records' column wieght is not one of the model's inputs: did you mean weight?" }]);
    });

    it('class scores are probabilities; prediction intervals are refused for a classifier', async () => {
      const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 150, colour: 'red' }], extraParameters: { includeClassScores: true } } });
      const sum = Number(r.json.data[0]['kind:apple']) + Number(r.json.data[0]['kind:melon']);
      assert.ok(Math.abs(sum - 1) < 1e-9, `scores sum to ${sum}`);
      const refused = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 150 }], extraParameters: { predictionIntervals: [0.9] } } });
      assert.equal(refused.status, 400);
      assert.match(refused.json.errorDetails.predictionIntervals[0], /regression/);
    });

    it('predicts a CSV body', async () => {
      const r = await s.call('POST', `/v1/models/${modelId}/predict?includeClassScores=true`, { body: 'weight,colour\n160,red\n280,yellow\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json.data.map((x: any) => x.kind), ['apple', 'melon']);
      assert.ok('kind:melon' in r.json.data[0]);
    });

    it('refuses a batch over the limit with 413 stating it, bad ids with 400, unknown models with 404', async () => {
      const big = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: Array.from({ length: MAX_RECORDS + 1 }, () => ({ weight: 1 })) } });
      assert.equal(big.status, 413);
      assert.match(big.json.message, new RegExp(`at most ${MAX_RECORDS} records`));
      const csv = await s.call('POST', `/v1/models/${modelId}/predict`, { body: 'weight\n' + '1\n'.repeat(MAX_RECORDS + 1), headers: { 'content-type': 'text/csv' } });
      assert.equal(csv.status, 413);
      const bad = await s.call('POST', '/v1/models/id/predict', { json: { data: [] } });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json.errorDetails, { modelId: ["The value 'id' is not valid for Guid."] });
      const missing = '015ee297-af57-47b1-a33c-1d489cba24dd';
      const nf = await s.call('POST', `/v1/models/${missing}/predict`, { json: { data: [{ weight: 1 }] } });
      assert.equal(nf.status, 404);
      assert.equal(nf.json.message, `Item of type model with identifier ${missing} was not found`);
      assert.equal((await s.call('GET', `/v1/models/${missing}`)).status, 404);
      assert.equal((await s.call('DELETE', `/v1/models/${missing}`)).status, 404);
    });

    it('counts predictions in the account headers', async () => {
      const before = Number((await s.call('GET', '/v1/models')).headers.get('nexosis-account-predictioncount-current'));
      await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 150 }, { weight: 280 }, { weight: 200 }] } });
      await eventually(async () => {
        const now = Number((await s.call('GET', '/v1/models')).headers.get('nexosis-account-predictioncount-current'));
        return now >= before + 3 ? true : undefined;
      }, 15_000, 250);
    });

    it('deletes a model (then it no longer predicts) and deletes models by data source', async () => {
      assert.equal((await s.call('PUT', '/v1/data/fruit2', { body: fruitCsv(), headers: { 'content-type': 'text/csv' } })).status, 201);
      const second = await trainModel(s, 'fruit2');
      const ids = (q: string) => s.call('GET', `/v1/models?${q}`).then((r) => r.json.items.map((m: { modelId: string }) => m.modelId));
      assert.deepEqual(await ids(''), [modelId, second], 'oldest first by default');
      assert.deepEqual(await ids('sortBy=createdDate&sortOrder=desc'), [second, modelId]);
      assert.deepEqual(await ids('sortBy=dataSourceName&sortOrder=DESC'), [second, modelId]);
      assert.equal((await s.call('GET', '/v1/models?sortBy=colour')).status, 400);
      assert.equal((await s.call('DELETE', `/v1/models/${modelId}`)).status, 204);
      assert.equal((await s.call('GET', `/v1/models/${modelId}`)).status, 404);
      assert.equal((await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: [{ weight: 1 }] } })).status, 404, 'the cached model is gone too');
      assert.equal((await s.call('DELETE', '/v1/models')).status, 400, 'a bulk delete needs a filter');
      assert.equal((await s.call('DELETE', '/v1/models?dataSourceName=fruit2')).status, 204);
      assert.equal((await s.call('GET', `/v1/models/${second}`)).status, 404);
      assert.equal((await s.call('GET', '/v1/models')).json.totalCount, 0);
    });
  });
}
