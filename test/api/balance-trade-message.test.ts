/**
 * Balanced decisions (`balance`, on by default) trade accuracy for the rarer classes' recall; on an
 * imbalanced set the session says so. glass_odds (ODDS recipe on mlbench's Glass: 214 rows, 9 of
 * them anomalies, 4.2 %) with default parameters: the balanced decisions are right less often than
 * always answering the most frequent class, and the session warns with the test rows' figures, says
 * the class scores do not change, and names the parameter that turns it off. Its figures are checked
 * against the results and against the same session with balance off, which says nothing.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

const TRADE = /^Balanced decisions \(balance, on by default\) cost accuracy here: on the (\d+) test rows the model is right ([\d.]+) % of the time, less than the ([\d.]+) % of always answering '(\w+)', the most frequent class, and the ([\d.]+) % of answering each row's most probable class/;

describe('a classification whose balanced decisions cost accuracy says so', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  const session = async (extraParameters: Record<string, unknown>) => {
    const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'glass', targetColumn: 'is_anomaly', predictionDomain: 'classification', extraParameters } });
    assert.equal(created.status, 200, created.text);
    const done = await completedSession(s, created.json.sessionId);
    const results = await s.call('GET', `/v1/sessions/${done.sessionId}/results?pageSize=1000&includeClassScores=true`);
    return { messages: done.messages as { severity: string; message: string }[], results: results.json };
  };

  it('warns with the test rows\' figures and how to turn balance off; with balance off it says nothing', async () => {
    const csv = readFileSync(fixturePath('anomaly', 'glass_odds.csv'), 'utf8');
    assert.equal((await s.call('PUT', '/v1/data/glass', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
    const balanced = await session({});
    const trade = balanced.messages.filter((m) => TRADE.test(m.message));
    assert.equal(trade.length, 1, JSON.stringify(balanced.messages));
    assert.equal(trade[0]!.severity, 'warning');
    const [, n, accuracy, majorityRate, majority, probable] = TRADE.exec(trade[0]!.message)!;
    assert.match(trade[0]!.message, /the class scores are the same either way, probabilities calibrated to the data's class mix/);
    assert.match(trade[0]!.message, /"extraParameters": \{"balance": false\}/);

    const rows: Record<string, string>[] = balanced.results.data;
    assert.equal(Number(n), rows.length);
    assert.equal(Number(accuracy), round(100 * balanced.results.metrics.accuracy), 'the session\'s own accuracy');
    assert.equal(majority, '0');
    assert.equal(Number(majorityRate), round(100 * rows.filter((r) => r['is_anomaly:actual'] === majority).length / rows.length));
    assert.ok(Number(accuracy) < Number(majorityRate));

    const plain = await session({ balance: false });
    assert.deepEqual(plain.results.classScores, balanced.results.classScores, 'balance leaves the class scores as they are');
    assert.equal(Number(probable), round(100 * plain.results.metrics.accuracy), 'the most probable class\'s accuracy is the session\'s with balance off');
    assert.ok(!plain.messages.some((m) => /Balanced decisions/.test(m.message)), JSON.stringify(plain.messages));
  });
});

function round(percent: number): number {
  return Number(percent.toFixed(1));
}
