/** POST /v1/sessions/model: request rules, the echoed session, and data problems that fail a session. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { finishedSession, startTestServer, type TestServer } from '../support/server.js';

/** Iris-like rows: three classes separable by the petal measures, one rare class and two rows without a label. */
function flowerCsv(): string {
  const lines = ['id,petal_length,petal_width,colour,species'];
  const kinds = [['setosa', 1.4, 0.2], ['versicolor', 4.3, 1.3], ['virginica', 5.6, 2.0]] as const;
  let id = 0;
  for (let i = 0; i < 30; i++) {
    for (const [name, length, width] of kinds) {
      lines.push(`${id++},${(length + ((i % 7) - 3) * 0.1).toFixed(2)},${(width + ((i % 5) - 2) * 0.05).toFixed(2)},${i % 2 ? 'blue' : 'red'},${name}`);
    }
  }
  for (let i = 0; i < 3; i++) lines.push(`${id++},3.0,1.0,red,hybrid`);
  for (let i = 0; i < 2; i++) lines.push(`${id++},2.0,0.5,blue,`);
  return lines.join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`model sessions over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }); // the callback receiver is on loopback
      const up = await s.call('PUT', '/v1/data/flowers', { body: flowerCsv(), headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201);
    });
    after(async () => { await s.close(); });

    it('rejects bad requests with 400 RequestValidation naming each parameter', async () => {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'clustering', callbackUrl: 'ftp://example.com/x', extraParameters: { balance: 'maybe' } } });
      assert.equal(r.status, 400);
      assert.equal(r.json.errorType, 'RequestValidation');
      assert.deepEqual(Object.keys(r.json.errorDetails).sort(), ['callbackUrl', 'extraParameters.balance', 'predictionDomain']);
      assert.deepEqual(r.json.errorDetails['extraParameters.balance'], ["'maybe' is not a boolean (true or false)"]);
      const noTarget = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification' } });
      assert.equal(noTarget.status, 400);
      assert.ok(noTarget.json.errorDetails.targetColumn);
      const unknownTarget = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification', targetColumn: 'genus' } });
      assert.equal(unknownTarget.status, 400);
      assert.deepEqual(unknownTarget.json.errorDetails.targetColumn, ["Column 'genus' is not in data source 'flowers'."]);
      const misspelt = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification', targetColumn: 'spceies' } });
      assert.deepEqual(misspelt.json.errorDetails.targetColumn, ["Column 'spceies' is not in data source 'flowers'. Did you mean 'species'?"]);
      const noSource = await s.call('POST', '/v1/sessions/model', { json: { dataSetName: 'nowhere', predictionDomain: 'regression', targetColumn: 'x' } });
      assert.equal(noSource.status, 404);
      assert.deepEqual(noSource.json.errorDetails, { itemType: 'dataSource', itemId: 'nowhere' });
    });

    it('creates a session: request echoed, status requested, one history entry, default name, lenient parameters', async () => {
      const r = await s.call('POST', '/v1/sessions/model?predictionDomain=CLASSIFICATION', {
        json: { dataSetName: 'flowers', columns: { species: { Role: 'Target' }, id: { role: 'key' } }, extraParameters: { balance: 'False' }, callbackUrl: 'http://127.0.0.1:9/hook' },
      });
      assert.equal(r.status, 200, r.text);
      const b = r.json;
      assert.equal(b.type, 'model');
      assert.equal(b.status, 'requested');
      assert.equal(b.statusHistory.length, 1);
      assert.equal(b.predictionDomain, 'classification');
      assert.equal(b.targetColumn, 'species', 'the target may come from a column with role target');
      assert.equal(b.balance, false);
      assert.deepEqual(b.extraParameters, { balance: false });
      assert.equal(b.name, 'Classification on flowers');
      assert.equal(b.dataSourceName, 'flowers');
      assert.equal(b.columns.species.role, 'target');
      assert.equal(b.columns.id.role, 'key');
      assert.equal(b.callbackUrl, 'http://127.0.0.1:9/hook');
      assert.ok(r.headers.get('service-webhook-token'), 'a callback URL gets a webhook token');
      assert.equal(r.headers.get('nexosis-session-status'), 'Requested');
      const named = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification', targetColumn: 'species', name: 'petals' } });
      assert.equal(named.json.name, 'petals');
      assert.equal(named.json.balance, true, 'balance defaults to true');
    });

    it('warns when the model leans on a column that numbers rows sorted by the target', async () => {
      // Rows grouped by class, numbered 1…120 in a column not named as an identifier, with features that say little: the row number gives the class away.
      const lines = ['case,noise,colour,kind'];
      const kinds = ['a', 'b', 'c'];
      for (let i = 0; i < 120; i++) lines.push(`${i + 1},${((i * 37) % 11) / 10},${i % 2 ? 'blue' : 'red'},${kinds[Math.floor(i / 40)]}`);
      assert.equal((await s.call('PUT', '/v1/data/sorted', { body: lines.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      const leaning = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'sorted', predictionDomain: 'classification', targetColumn: 'kind' } })).json.sessionId);
      assert.equal(leaning.status, 'completed', JSON.stringify(leaning.messages));
      const said = leaning.messages.filter((m: any) => /numbers the rows/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(leaning.messages));
      assert.equal(said[0].severity, 'warning');
      assert.match(said[0].message, /^Column case numbers the rows .* the model leans on it: \d+ % of the feature importance\. If the rows are ordered by 'kind'/);
      const told = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'sorted', predictionDomain: 'classification', targetColumn: 'kind', columns: { case: { role: 'none' } } } })).json.sessionId);
      assert.ok(!told.messages.some((m: any) => /numbers the rows/.test(m.message)), 'a column left out is not warned about');
    });

    it('leaves out a numeric column named as an identifier, with a warning, in model and anomaly sessions', async () => {
      // The same rows grouped by class, numbered by PatientId: a model that used it would score as if it read the class.
      const lines = ['PatientId,noise,colour,kind'];
      for (let i = 0; i < 120; i++) lines.push(`${1001 + i},${((i * 37) % 11) / 10},${i % 2 ? 'blue' : 'red'},${['a', 'b', 'c'][Math.floor(i / 40)]}`);
      assert.equal((await s.call('PUT', '/v1/data/patients', { body: lines.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      const done = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'patients', predictionDomain: 'classification', targetColumn: 'kind' } })).json.sessionId);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      const warning = done.messages.find((m: any) => m.message.startsWith('Column PatientId '));
      assert.equal(warning?.severity, 'warning', JSON.stringify(done.messages));
      assert.match(warning.message, /^Column PatientId is named as an identifier and holds a different whole number in each of its \d+ training rows; the model leaves it out/);
      assert.ok(!done.messages.some((m: any) => /numbers the rows/.test(m.message)), JSON.stringify(done.messages));
      const importance = await s.call('GET', `/v1/sessions/${done.sessionId}/results/featureimportance`);
      assert.deepEqual(Object.keys(importance.json.featureImportance).sort(), ['colour', 'noise']);
      const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results`);
      assert.ok(results.json.metrics.accuracy < 0.8, `without the row number the features say little: accuracy ${results.json.metrics.accuracy}`);
      const predicted = await s.call('POST', `/v1/models/${done.modelId}/predict`, { json: { data: [{ noise: 0.3, colour: 'red' }] } });
      assert.equal(predicted.status, 200, predicted.text);
      assert.deepEqual(predicted.json.messages, [], 'PatientId is no input: a record without it lacks nothing');
      const anomalies = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'patients', predictionDomain: 'anomalies', columns: { kind: { role: 'none' } } } })).json.sessionId);
      assert.equal(anomalies.status, 'completed', JSON.stringify(anomalies.messages));
      assert.ok(anomalies.messages.some((m: any) => /^Column PatientId is named as an identifier/.test(m.message)), JSON.stringify(anomalies.messages));
      const kept = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'patients', predictionDomain: 'classification', targetColumn: 'kind', columns: { PatientId: { role: 'key' } } } })).json.sessionId);
      assert.ok(!kept.messages.some((m: any) => /PatientId/.test(m.message)), 'a column given role key is not reported');
    });

    it('drops classes with fewer than 5 rows with a warning and completes; sub-resources that do not apply are 404', async () => {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification', targetColumn: 'species', columns: { id: { role: 'key' } } } });
      const done = await finishedSession(s, r.json.sessionId);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      assert.ok(done.messages.some((m: any) => m.severity === 'warning' && /Target class 'hybrid' is only specified on 3 record\(s\)/.test(m.message)));
      assert.ok(done.messages.some((m: any) => m.message === '93 observations were found in the dataset.'), 'rows without a target are left out');
      assert.ok(done.messages.some((m: any) => m.severity === 'informational' && m.message === "2 of the data set's 95 rows have no value in 'species' and were left out: a model learns from rows whose target is known."), JSON.stringify(done.messages));
      const matrix = await s.call('GET', `/v1/sessions/${done.sessionId}/results/confusionMatrix`);
      assert.deepEqual(matrix.json.classes, ['setosa', 'versicolor', 'virginica']);
      assert.equal(matrix.json.sessionId, done.sessionId, 'sub-resources carry the session');
      const scores = await s.call('GET', `/v1/sessions/${done.sessionId}/results/classScores?pageSize=5`);
      assert.equal(scores.json.data.length, 5);
      assert.equal(scores.json.totalCount, 18);
      for (const row of scores.json.data) {
        const best = ['setosa', 'versicolor', 'virginica'].reduce((a, c) => (Number(row[`species:${c}`]) > Number(row[`species:${a}`]) ? c : a));
        assert.equal(row.species, best);
      }
      assert.equal(scores.json.metrics.accuracy, 1, 'the classes are separable');
      // Calibrated probabilities are scored as such: log loss, Brier score and calibration error.
      for (const key of ['logLoss', 'brierScore', 'expectedCalibrationError']) assert.ok(Number.isFinite(scores.json.metrics[key]) && scores.json.metrics[key] >= 0, key);
      for (const row of scores.json.data) assert.ok(Math.abs(['setosa', 'versicolor', 'virginica'].reduce((a, c) => a + Number(row[`species:${c}`]), 0) - 1) < 1e-9);
      assert.ok(!done.messages.some((m: any) => /test rows hold few rows/.test(m.message)), 'six test rows of each class are enough');
      assert.equal((await s.call('GET', `/v1/sessions/${done.sessionId}/results/anomalyscores`)).status, 404);
      const contest = await s.call('GET', `/v1/sessions/${done.sessionId}/contest`);
      assert.equal(contest.json.championMetric, 'logLoss');
      assert.ok(contest.json.contestants.some((c: any) => c.id === contest.json.champion.id));
    });

    it('a class with only a row or two among the test rows: a warning says its test metrics are mostly chance', async () => {
      // 30 setosa, 30 versicolor and 6 virginica: the stratified 20 % holdout keeps one virginica row.
      const lines = flowerCsv().trim().split('\n');
      let virginica = 0;
      const kept = lines.filter((line, i) => i === 0 || !/virginica|hybrid|,$/.test(line) || (/virginica/.test(line) && virginica++ < 6));
      assert.equal((await s.call('PUT', '/v1/data/few-virginica', { body: kept.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'few-virginica', predictionDomain: 'classification', targetColumn: 'species', columns: { id: { role: 'key' } } } });
      const done = await finishedSession(s, r.json.sessionId);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      const warning = done.messages.find((m: any) => /test rows hold few rows/.test(m.message));
      assert.ok(warning && warning.severity === 'warning', JSON.stringify(done.messages));
      assert.match(warning.message, /^The 13 test rows hold few rows of some classes \('virginica' 1\)/);
    });

    it('a string column with a value of its own in each row is left out as an identifier, with a warning, in model and anomaly sessions', async () => {
      const lines = flowerCsv().trim().split('\n').map((line, i) => `${line},${i === 0 ? 'tag' : `F-${1000 + i}`}`);
      assert.equal((await s.call('PUT', '/v1/data/tagged', { body: lines.join('\n') + '\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'tagged', predictionDomain: 'classification', targetColumn: 'species', columns: { id: { role: 'key' } } } });
      const done = await finishedSession(s, r.json.sessionId);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      const warning = done.messages.find((m: any) => m.message.startsWith('Column tag '));
      assert.equal(warning?.severity, 'warning', JSON.stringify(done.messages));
      assert.match(warning.message, /^Column tag holds 72 different values in its 72 training rows, as an identifier does; the model leaves it out/);
      const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results`);
      const { accuracy } = results.json.metricIntervals.metrics;
      assert.ok(accuracy.lower <= results.json.metrics.accuracy && results.json.metrics.accuracy <= accuracy.upper, JSON.stringify(results.json.metricIntervals));
      const reference = results.json.expectedCalibrationErrorReference;
      assert.ok(reference.mean >= 0 && reference.upper95 >= reference.mean && reference.pValue > 0 && reference.pValue <= 1 && reference.draws === 200, JSON.stringify(reference));
      const importance = await s.call('GET', `/v1/sessions/${done.sessionId}/results/featureimportance`);
      assert.deepEqual(Object.keys(importance.json.featureImportance).sort(), ['colour', 'petal_length', 'petal_width']);
      const predicted = await s.call('POST', `/v1/models/${done.modelId}/predict`, { json: { data: [{ petal_length: 5.6, petal_width: 2.0, colour: 'red', tag: 'F-9999' }] } });
      assert.equal(predicted.json.data[0].species, 'virginica');
      assert.deepEqual(predicted.json.messages, [], 'the tag is no input: nothing to say about it');
      const anomalies = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'tagged', predictionDomain: 'anomalies', columns: { id: { role: 'key' }, species: { role: 'none' } } } })).json.sessionId);
      assert.equal(anomalies.status, 'completed', JSON.stringify(anomalies.messages));
      assert.ok(anomalies.messages.some((m: any) => /^Column tag holds 95 different values in its 95 training rows, as an identifier does/.test(m.message)), JSON.stringify(anomalies.messages));
    });

    it('fails a session with fewer than 2 valid classes, and one without feature columns', async () => {
      const featureless = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', predictionDomain: 'classification', targetColumn: 'colour', columns: { species: { role: 'none' }, petal_length: { role: 'none' }, petal_width: { role: 'none' }, id: { role: 'key' } } } });
      const noFeatures = await finishedSession(s, featureless.json.sessionId);
      assert.equal(noFeatures.status, 'failed');
      assert.match(noFeatures.messages.at(-1).message, /no usable feature columns/);
      await s.call('PUT', '/v1/data/mono', { body: 'x,label\n' + Array.from({ length: 30 }, (_, i) => `${i},${i < 27 ? 'a' : 'b'}`).join('\n') + '\n', headers: { 'content-type': 'text/csv' } });
      const mono = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'mono', predictionDomain: 'classification', targetColumn: 'label' } });
      const failed = await finishedSession(s, mono.json.sessionId);
      assert.equal(failed.status, 'failed');
      assert.deepEqual(failed.messages.at(-1), { severity: 'error', message: "Dataset has only one valid target class. At least 2 target classes are required to build a model. 'label' holds 2 classes in 30 rows, but only 'a' has enough rows: 'b' in 3 rows. A class needs at least 5 rows, some to train the model on and some to test it with: add rows until each class has 5 or more." });
      // Two classes, neither with enough rows (the dashboard's probe: a, a, b).
      await s.call('PUT', '/v1/data/tiny', { body: 'x,label\n1,a\n2,a\n3,b\n', headers: { 'content-type': 'text/csv' } });
      const tiny = await finishedSession(s, (await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'tiny', predictionDomain: 'classification', targetColumn: 'label' } })).json.sessionId);
      assert.equal(tiny.status, 'failed');
      assert.equal(tiny.messages.at(-1).message, "Dataset has only one valid target class. At least 2 target classes are required to build a model. 'label' holds 2 classes in 3 rows, neither with enough rows: 'a' in 2 rows and 'b' in 1 row. A class needs at least 5 rows, some to train the model on and some to test it with: add rows until each class has 5 or more.");
      assert.equal((await s.call('GET', `/v1/sessions/${failed.sessionId}/results/confusionmatrix`)).status, 404);
    });

    it('deleting a data set with cascade=session,model removes its sessions and models', async () => {
      await s.call('PUT', '/v1/data/flowers2', { body: flowerCsv(), headers: { 'content-type': 'text/csv' } });
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers2', predictionDomain: 'classification', targetColumn: 'species' } });
      const done = await finishedSession(s, r.json.sessionId);
      assert.equal(done.status, 'completed');
      assert.equal((await s.call('GET', `/v1/models/${done.modelId}`)).status, 200);
      assert.equal((await s.call('DELETE', '/v1/data/flowers2?cascade=session&cascade=model')).status, 204);
      assert.equal((await s.call('GET', `/v1/models/${done.modelId}`)).status, 404);
      assert.equal((await s.call('GET', `/v1/sessions/${done.sessionId}`)).status, 404);
      assert.equal((await s.call('GET', '/v1/sessions?dataSourceName=flowers')).json.totalCount > 0, true, 'other data sets keep theirs');
    });
  });
}
