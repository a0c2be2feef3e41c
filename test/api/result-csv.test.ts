/**
 * `Accept: text/csv` on the per-row results sub-resources (compat-notes §3.6: the Elm client's
 * getDistanceMetricsCsv reads /results/mahalanobisdistances as a CSV string): the same rows as the
 * JSON answer's `data`, paged the same way, for class scores, anomaly scores and Mahalanobis distances.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../../bench/lib/csv.js';
import { readFixture, type CsvTable } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

function csvText(t: CsvTable, rows: string[][]): string {
  return [t.header, ...rows].map((r) => r.join(',')).join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`results sub-resources as CSV (${backend})`, () => {
    let s: TestServer;
    let anomalies: string;
    let classification: string;
    before(async () => {
      s = await startTestServer(backend);
      const iris = readFixture('classification', 'iris.csv');
      const breastw = readFixture('anomaly', 'breastw_odds.csv');
      assert.equal((await s.call('PUT', '/v1/data/iris', { body: csvText(iris, iris.rows), headers: { 'content-type': 'text/csv' } })).status, 201);
      assert.equal((await s.call('PUT', '/v1/data/breastw', { body: csvText(breastw, breastw.rows.slice(0, 60)), headers: { 'content-type': 'text/csv' } })).status, 201);
      const started = await Promise.all([
        s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', targetColumn: iris.header.at(-1), predictionDomain: 'classification' } }),
        s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'breastw', predictionDomain: 'anomalies', columns: { is_anomaly: { role: 'none' } } } }),
      ]);
      classification = (await completedSession(s, started[0].json.sessionId)).sessionId;
      anomalies = (await completedSession(s, started[1].json.sessionId)).sessionId;
    });
    after(async () => { await s.close(); });

    /** The JSON page and the CSV page of one sub-resource hold the same rows, fields and values. */
    async function sameRowsAsJson(path: string): Promise<void> {
      const json = await s.call('GET', path);
      assert.equal(json.status, 200, json.text);
      const csv = await s.call('GET', path, { headers: { accept: 'text/csv' } });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8', path);
      const table = parseCsv(csv.text);
      const data = json.json.data as Record<string, string>[];
      assert.ok(data.length > 0, path);
      assert.deepEqual(table.header, Object.keys(data[0]!), path);
      assert.deepEqual(table.rows, data.map((row) => table.header.map((c) => row[c] ?? '')), path);
    }

    it('mahalanobisdistances, anomalyscores and classscores answer CSV of the page asked for', async () => {
      await sameRowsAsJson(`/v1/sessions/${anomalies}/results/mahalanobisdistances?page=1&pageSize=7`);
      await sameRowsAsJson(`/v1/sessions/${anomalies}/results/anomalyScores?page=0&pageSize=5`);
      await sameRowsAsJson(`/v1/sessions/${classification}/results/classscores?page=2&pageSize=4`);
      const distances = parseCsv((await s.call('GET', `/v1/sessions/${anomalies}/results/mahalanobisdistances?pageSize=3`, { headers: { accept: 'text/csv' } })).text);
      assert.ok(distances.header.includes('mahalanobis_distance') && distances.header.includes('anomaly'), distances.header.join(','));
      assert.equal(distances.rows.length, 3);
    });

    it('a sub-resource that does not apply is still a 404 in the error shape when CSV is asked for', async () => {
      const r = await s.call('GET', `/v1/sessions/${classification}/results/mahalanobisdistances`, { headers: { accept: 'text/csv' } });
      assert.equal(r.status, 404);
      assert.equal(r.json.errorType, 'NotFound');
    });
  });
}
