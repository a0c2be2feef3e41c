/**
 * `balance` over HTTP on pima_diabetes (35 % positive): the same data with balance on and off give
 * the same class scores (the learners train unweighted either way), and balance decides differently:
 * the rarer class is predicted more often and recalled better, at a lower accuracy.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { finishedSession, startTestServer, type TestServer } from '../support/server.js';

describe('balance decides, it does not re-weight training', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('the same class scores with balance on and off; balanced decisions recall the rarer class better', async () => {
    const t = readFixture('classification', 'pima_diabetes.csv');
    const rows = t.rows.map((r) => Object.fromEntries(t.header.map((h, j) => [h, r[j] ?? ''])));
    assert.equal((await s.call('PUT', '/v1/data/pima', { json: { data: rows } })).status, 201);
    const run = async (balance: boolean) => {
      const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'pima', targetColumn: 'diabetes', predictionDomain: 'classification', extraParameters: { balance } } });
      assert.equal(created.status, 200, created.text);
      const done = await finishedSession(s, created.json.sessionId);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results?pageSize=1000&includeClassScores=true`);
      return results.json;
    };
    const balanced = await run(true);
    const plain = await run(false);
    assert.equal(balanced.data.length, plain.data.length);
    assert.equal(balanced.metrics.rocAreaUnderCurve, plain.metrics.rocAreaUnderCurve, 'the same scores rank the same');
    assert.deepEqual(balanced.classScores, plain.classScores, 'the same class scores');
    const recallOfPos = (r: any) => {
      const pos = r.data.filter((row: Record<string, string>) => row['diabetes:actual'] === 'pos');
      return pos.filter((row: Record<string, string>) => row.diabetes === 'pos').length / pos.length;
    };
    const predictedPos = (r: any) => r.data.filter((row: Record<string, string>) => row.diabetes === 'pos').length;
    assert.ok(predictedPos(balanced) > predictedPos(plain), `pos predicted ${predictedPos(balanced)} vs ${predictedPos(plain)} times`);
    assert.ok(recallOfPos(balanced) > recallOfPos(plain) + 0.05, `recall of pos ${recallOfPos(balanced)} vs ${recallOfPos(plain)}`);
    assert.ok(balanced.metrics.macroAverageRecall > plain.metrics.macroAverageRecall, `macro recall ${balanced.metrics.macroAverageRecall} vs ${plain.metrics.macroAverageRecall}`);
  });
});
