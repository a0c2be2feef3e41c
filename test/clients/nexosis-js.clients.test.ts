/**
 * The original JavaScript client (`nexosis-api-client` from npm, unmodified) driven live against a
 * started Sibyl: every method of its data-set, import, session, contest and model clients and the
 * account balance. Run with `npm run test:clients` (it trains sessions, so it is not in `npm test`).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startTestServer, type TestServer } from '../support/server.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { default: NexosisClient } = require('nexosis-api-client') as { default: new (o: { key: string; endpoint: string }) => any };
// NexosisClient has no Views getter (a quirk of 3.0.0); its own tests construct the ViewClient directly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { default: ViewClient } = require('nexosis-api-client/dist/lib/ViewClient.js') as { default: new (o: { key: string; endpoint: string }) => any };

const DAY = 86_400_000;
/** 150 days of a weekly pattern with a trend (deterministic). */
function series(): Record<string, string>[] {
  const start = Date.UTC(2017, 0, 1);
  return Array.from({ length: 150 }, (_, i) => ({ time: new Date(start + i * DAY).toISOString(), sales: String(100 + i * 0.5 + [0, 5, 9, 12, 9, 4, -8][i % 7]!) }));
}
/** 80 rows where y = 3·a − 2·b + a small deterministic wobble; `kind` is a two-class label. */
function table(): Record<string, string>[] {
  return Array.from({ length: 80 }, (_, i) => {
    const a = (i * 37) % 23;
    const b = (i * 11) % 17;
    return { a: String(a), b: String(b), y: String(3 * a - 2 * b + ((i * 7) % 5) / 10), kind: a > b ? 'high' : 'low' };
  });
}

async function finished(client: any, id: string): Promise<string> {
  for (let i = 0; i < 2400; i++) {
    const status = await client.Sessions.status(id);
    if (['Completed', 'Failed', 'Cancelled'].includes(status.status ?? status)) return status.status ?? status;
    await new Promise((f) => setTimeout(f, 250));
  }
  throw new Error(`session ${id} did not finish`);
}

describe('nexosis-api-client 3.0.0 against Sibyl', () => {
  let s: TestServer;
  let client: any;
  before(async () => {
    s = await startTestServer('pglite');
    client = new NexosisClient({ key: s.key, endpoint: `${s.url}/v1` });
  });
  after(async () => { await s?.close(); });

  it('data sets: create, get, list, remove, and the account balance headers', async () => {
    const created = await client.DataSets.create('sales', { data: series(), columns: { time: { dataType: 'date', role: 'timestamp' }, sales: { dataType: 'numeric', role: 'target' } } });
    assert.equal(created.dataSetName, 'sales');
    await client.DataSets.create('table', { data: table() });
    const got = await client.DataSets.get('sales', undefined, 0, 10);
    assert.equal(got.data.length, 10);
    const list = await client.DataSets.list({ partialName: 'sal' });
    assert.deepEqual(list.items.map((d: any) => d.dataSetName), ['sales']);
    const balance = await client.getAccountBalance();
    assert.equal(balance.dataSetCount.current, 2);
    assert.ok(balance.sessionCount.allotted > 0);
    await client.DataSets.create('scratch', { data: table() });
    const removed = await client.DataSets.remove('scratch');
    assert.ok(removed === undefined || removed.status === 204 || removed.ok !== false);
    await assert.rejects(client.DataSets.get('scratch'), (e: any) => e.statusCode === 404);
  });

  it('views: create (with a data set and a holiday calendar), get with data, list by name and data set, remove', async () => {
    const views = new ViewClient({ key: s.key, endpoint: `${s.url}/v1` });
    await client.DataSets.create('promo', { data: series().map((r, i) => ({ time: r.time!, promo: String(i % 10 === 0 ? 1 : 0) })), columns: { time: { dataType: 'date', role: 'timestamp' } } });
    const made = await views.create('salesPromo', { dataSetName: 'sales', joins: [{ dataSet: { name: 'promo' } }, { calendar: { name: 'Nexosis.Holidays-US' } }] });
    assert.equal(made.viewName, 'salesPromo');
    assert.equal(made.joins[0].dataSet.name, 'promo');
    assert.equal(made.joins[1].calendar.name, 'Nexosis.Holidays-US');
    const got = await views.get('salesPromo', { startDate: '2017-01-01', endDate: '2017-01-31', include: ['promo'] }, 0, 50);
    assert.equal(got.data.length, 31);
    assert.equal(got.data[0].promo, '1');
    const listed = await views.list({ partialName: 'promo', dataSetName: 'sales' });
    assert.deepEqual(listed.items.map((v: any) => v.viewName), ['salesPromo']);
    await views.remove('salesPromo', 'session'); // the client sends `options=session`; ignored
    await assert.rejects(views.get('salesPromo'), (e: any) => e.statusCode === 404);
  });

  it('imports: from a URL, get and list (the transfer itself needs the internet)', async () => {
    const imp = await client.Imports.importFromUrl('imported', 'https://example.com/data.csv');
    assert.ok(imp.importId);
    const got = await client.Imports.get(imp.importId);
    assert.equal(got.dataSetName, 'imported');
    const list = await client.Imports.list({ dataSetName: 'imported' });
    assert.equal(list.items.length, 1);
  });

  it('forecast and impact sessions: create, status, get, results (by interval), outliers, contest, list, remove', async () => {
    const forecast = await client.Sessions.createForecast('sales', '2017-05-31', '2017-06-13', 'sales', 'day');
    assert.equal(forecast.type, 'forecast');
    assert.equal(forecast.startDate, '2017-05-31T00:00:00+00:00', 'the period right after the data is accepted');
    const impact = await client.Sessions.analyzeImpact('sales', '2017-04-01', '2017-04-10', 'promo', 'sales', 'day');
    assert.equal(impact.eventName, 'promo');
    assert.equal(await finished(client, forecast.sessionId), 'Completed');
    assert.equal(await finished(client, impact.sessionId), 'Completed');
    const got = await client.Sessions.get(forecast.sessionId);
    assert.equal(got.status, 'completed');
    const results = await client.Sessions.results(forecast.sessionId);
    assert.equal(results.data.length, 14);
    const interval = await client.Sessions.resultsByInterval(forecast.sessionId, got.availablePredictionIntervals[0]);
    assert.equal(interval.data.length, 14);
    const outliers = await client.Sessions.timeSeriesOutliers(forecast.sessionId, 0, 50);
    assert.ok(Array.isArray(outliers.data));
    const contest = await client.Contests.getContest(forecast.sessionId);
    assert.equal(typeof contest.championMetric, 'string');
    const contestant = await client.Contests.getContestant(forecast.sessionId, contest.contestants[0].id);
    assert.ok(Array.isArray(contestant.data));
    const champion = await client.Contests.getChampion(forecast.sessionId);
    assert.ok(champion.metrics);
    assert.equal(champion.data.length, 14);
    const selection = await client.Contests.getSelection(forecast.sessionId);
    assert.ok(selection.metricSets[0].metrics.testCount >= 1);
    const contestants = await client.Contests.listContestants(forecast.sessionId);
    assert.ok(contestants.items.length >= 1);
    const listed = await client.Sessions.list({ dataSourceName: 'sales', sortBy: 'requestedDate', sortOrder: 'desc' });
    assert.deepEqual(listed.items.map((x: any) => x.sessionId), [impact.sessionId, forecast.sessionId]);
    const removed = await client.Sessions.remove(forecast.sessionId);
    assert.equal(removed.status, 204);
  });

  it('model sessions and models: regression, classification, anomalies; results, models get/list/predict/remove', async () => {
    const regression = await client.Sessions.trainModel('table', 'regression', 'y', { a: { role: 'feature' }, b: { role: 'feature' }, kind: { role: 'none' } });
    assert.equal(regression.startDate, undefined, 'model sessions carry no startDate');
    const classification = await client.Sessions.trainModel({ dataSourceName: 'table', predictionDomain: 'classification', targetColumn: 'kind', columnMetadata: { y: { role: 'none' } }, extraParameters: { balance: true } });
    const anomalies = await client.Sessions.trainModel({ dataSourceName: 'table', predictionDomain: 'anomalies', columnMetadata: {}, extraParameters: { containsAnomalies: true } });
    for (const x of [regression, classification, anomalies]) assert.equal(await finished(client, x.sessionId), 'Completed');
    const matrix = await client.Sessions.confusionMatrixResults(classification.sessionId);
    assert.deepEqual([...matrix.classes].sort(), ['high', 'low']);
    const scores = await client.Sessions.classScoreResults(classification.sessionId, 0, 50);
    assert.equal(typeof scores.metrics.macroAverageF1Score, 'number');
    const anomalyScores = await client.Sessions.anomalyScoreResults(anomalies.sessionId, 0, 50);
    assert.equal(anomalyScores.data.length, 50);
    const distances = await client.Sessions.anomalyDistanceMetrics(anomalies.sessionId, 0, 50);
    assert.ok(Number(distances.data[0].mahalanobis_distance) >= 0);
    const importance = await client.Sessions.featureImportanceResults(regression.sessionId, 0, 50);
    assert.equal(importance.supportsFeatureImportance, true);
    const modelId = (await client.Sessions.get(regression.sessionId)).modelId;
    const model = await client.Models.get(modelId);
    assert.equal(model.dataSourceName, 'table');
    const models = await client.Models.list({ dataSourceName: 'table' });
    assert.equal(models.items.length, 3);
    const predicted = await client.Models.predict(modelId, [{ a: '10', b: '4' }]);
    assert.ok(Math.abs(Number(predicted.data[0].y) - 22) < 8, `prediction ${predicted.data[0].y} near 3·10 − 2·4`);
    const removed = await client.Models.remove(modelId);
    assert.equal(removed.status, 204);
    await assert.rejects(client.Models.get(modelId), (e: any) => e.statusCode === 404);
  });
});
