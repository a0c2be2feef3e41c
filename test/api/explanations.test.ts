/**
 * Explanations through the real server: predict with includeExplanations on models trained from
 * fixture data (servo: regression with categorical columns; pima_diabetes: binary with missing values),
 * contributions adding up to the prediction, the feature-importance page's mean |contribution|, and
 * the clear 400 of a model that gives none (anomalies).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { backends } from '../support/backends.js';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';

async function train(s: TestServer, dataSourceName: string, predictionDomain: string, targetColumn?: string): Promise<{ sessionId: string; modelId: string }> {
  const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName, predictionDomain, targetColumn } });
  assert.equal(r.status, 200, r.text);
  const done = await eventually(async () => {
    const g = await s.call('GET', `/v1/sessions/${r.json.sessionId}`);
    return g.json.status === 'completed' || g.json.status === 'failed' ? g.json : undefined;
  }, 300_000, 250);
  assert.equal(done.status, 'completed', JSON.stringify(done.messages));
  return { sessionId: done.sessionId, modelId: done.modelId };
}

function records(csv: string, drop: string): Record<string, string>[] {
  const [head, ...lines] = csv.trim().split('\n');
  const names = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i]!, v]).filter(([n]) => n !== drop)));
}

for (const backend of (await backends()).slice(0, 1)) {
  describe(`per-record explanations over HTTP (${backend})`, () => {
    let s: TestServer;
    const servo = readFileSync(fixturePath('regression', 'servo.csv'), 'utf8');
    const pima = readFileSync(fixturePath('classification', 'pima_diabetes.csv'), 'utf8');
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, body] of [['servo', servo], ['pima', pima]]) {
        assert.equal((await s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } })).status, 201);
      }
    });
    after(async () => { await s.close(); });

    it('regression: every input column gets a contribution, and base + contributions = the predicted value', async () => {
      const { modelId, sessionId } = await train(s, 'servo', 'regression', 'Class');
      const data = records(servo, 'Class').slice(0, 40);
      const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data, extraParameters: { includeExplanations: true } } });
      assert.equal(r.status, 200, r.text);
      const e = r.json.explanations;
      assert.equal(e.scale, 'value');
      assert.equal(e.records.length, data.length);
      for (let i = 0; i < data.length; i++) {
        const [out] = e.records[i].outputs;
        assert.equal(out.class, null);
        assert.deepEqual(Object.keys(out.contributions).sort(), ['Motor', 'Pgain', 'Screw', 'Vgain']);
        const sum = out.baseValue + Object.values(out.contributions as Record<string, number>).reduce((a, b) => a + b, 0);
        const predicted = Number(r.json.data[i].Class);
        assert.ok(Math.abs(sum - predicted) <= 1e-9 * Math.max(1, Math.abs(predicted)), `record ${i}: ${sum} vs ${predicted}`);
        assert.ok(Math.abs(out.prediction - predicted) <= 1e-9 * Math.max(1, Math.abs(predicted)));
      }
      // Without the flag the answer is as before.
      const plain = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: data.slice(0, 1) } });
      assert.equal(plain.json.explanations, undefined);
      const fi = await s.call('GET', `/v1/sessions/${sessionId}/results/featureimportance`);
      assert.equal(fi.status, 200, fi.text);
      assert.deepEqual(Object.keys(fi.json.meanAbsoluteContributions).sort(), Object.keys(fi.json.featureImportance).sort());
      assert.equal(fi.json.contributionScale, 'value');
      assert.ok(Object.values(fi.json.meanAbsoluteContributions as Record<string, number>).some((v) => v > 0));
      assert.equal(fi.json.supportsFeatureImportance, true);
    });

    it('binary classification: log-odds (or probability) contributions per record, ordered like the class scores', async () => {
      const { modelId } = await train(s, 'pima', 'classification', 'diabetes');
      // 15 records: a champion forest of fully grown trees may allow only ~20 per request (the work limit).
      const data = records(pima, 'diabetes').slice(0, 15);
      const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data, extraParameters: { includeExplanations: 'true', includeClassScores: true } } });
      assert.equal(r.status, 200, r.text);
      const e = r.json.explanations;
      assert.ok(['logOdds', 'margin', 'probability'].includes(e.scale), e.scale);
      assert.match(e.description, /baseValue/);
      const explained = (i: number) => e.records[i].outputs.find((o: any) => o.class === 'pos') ?? e.records[i].outputs[0];
      for (let i = 0; i < data.length; i++) {
        const out = explained(i);
        const sum = out.baseValue + Object.values(out.contributions as Record<string, number>).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - out.prediction) < 1e-9);
        assert.equal(Object.keys(out.contributions).length, 8);
      }
      // The class score is a monotone (calibration) map of the explained output: same order.
      if (e.scale !== 'margin' && e.records[0].outputs[0].class === 'pos') {
        for (let i = 0; i < data.length; i++) {
          for (let j = 0; j < data.length; j++) {
            if (explained(i).prediction < explained(j).prediction - 1e-9) {
              assert.ok(Number(r.json.data[i]['diabetes:pos']) <= Number(r.json.data[j]['diabetes:pos']) + 1e-12, `records ${i}, ${j}`);
            }
          }
        }
      }
    });

    it('a model that gives no explanations answers 400 in the error shape, naming the parameter', async () => {
      const { modelId } = await train(s, 'servo', 'anomalies');
      const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data: records(servo, 'Class').slice(0, 2), extraParameters: { includeExplanations: true } } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.errorType, 'RequestValidation');
      assert.match(r.json.errorDetails.includeExplanations[0], /no per-record explanations/);
    });
  });
}
