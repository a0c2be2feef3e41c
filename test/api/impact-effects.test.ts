import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { IGNORE_TRUTH, nottemCsv, WINDOW } from '../support/nottem.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';


async function results(s: TestServer, body: Record<string, unknown>): Promise<any> {
  const created = await s.call('POST', '/v1/sessions/impact', { json: { resultInterval: 'month', targetColumn: 'y', eventName: 'warm spell', ...WINDOW, ...body } });
  assert.equal(created.status, 200, created.text);
  const id = created.json.sessionId;
  await completedSession(s, id);
  return (await s.call('GET', `/v1/sessions/${id}/results`)).json;
}

for (const backend of await backends()) {
  describe(`impact session results over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, multiplier] of [['nottem', 1], ['nottem_plus15', 1.15]] as const) {
        const r = await s.call('PUT', `/v1/data/${name}?timestampColumn=date`, { body: nottemCsv(multiplier), headers: { 'content-type': 'text/csv' } });
        assert.equal(r.status, 201, r.text);
      }
    });
    after(async () => { await s.close(); });
    // The first two tests read the same session's results: it runs once.
    let plus15: Promise<any> | undefined;
    const plus15Results = () => (plus15 ??= results(s, { dataSourceName: 'nottem_plus15', columns: IGNORE_TRUTH }));

    it('finds an injected +15 % effect (p < 0.05) and reports per-period counterfactual rows', async (t) => {
      const r = await plus15Results();
      assert.deepEqual(Object.keys(r.metrics).sort(), ['absoluteEffect', 'pValue', 'relativeEffect']);
      t.diagnostic(`p ${r.metrics.pValue}, relative effect ${r.metrics.relativeEffect} (truth 0.15)`);
      assert.ok(r.metrics.pValue < 0.05, `p ${r.metrics.pValue}`);
      // Without controls the counterfactual comes from the pre-period alone: 0.15 within a few points.
      assert.ok(Math.abs(r.metrics.relativeEffect - 0.15) < 0.06, `relative effect ${r.metrics.relativeEffect}`);
      assert.equal(r.data.length, 6);
      assert.equal(r.data[0].date, '1938-01-01T00:00:00.0000000Z');
      const observed = readFixture('impact', 'semisynthetic', 'nottem_placebo.csv').rows.filter((row) => row[4] === '1').map((row) => Number(row[1]) * 1.15);
      let sum = 0;
      r.data.forEach((row: any, t: number) => {
        assert.ok(Math.abs(Number(row.y) - observed[t]!) < 1e-9);
        assert.ok(Number(row['y:lower']) <= Number(row['y:predicted']) && Number(row['y:predicted']) <= Number(row['y:upper']));
        sum += Number(row.y) - Number(row['y:predicted']);
      });
      assert.ok(Math.abs(sum - r.metrics.absoluteEffect) < 1e-6, 'absoluteEffect is the sum of observed − predicted');
    });

    it('carries the effect intervals beside the metrics and the cumulative effect with its band in each row', async () => {
      const r = await plus15Results();
      assert.equal(r.effectIntervalLevel, 0.95);
      assert.ok(r.absoluteEffectLower < r.metrics.absoluteEffect && r.metrics.absoluteEffect < r.absoluteEffectUpper);
      assert.ok(r.relativeEffectLower < r.metrics.relativeEffect && r.metrics.relativeEffect < r.relativeEffectUpper);
      // A +15 % effect found at p < 0.05: its interval excludes zero and covers the truth.
      const truth = readFixture('impact', 'semisynthetic', 'nottem_placebo.csv').rows.filter((row) => row[4] === '1').reduce((a, row) => a + 0.15 * Number(row[1]), 0);
      assert.ok(r.absoluteEffectLower > 0 && r.absoluteEffectLower <= truth && truth <= r.absoluteEffectUpper, `[${r.absoluteEffectLower}, ${r.absoluteEffectUpper}] vs ${truth}`);
      let cumulative = 0;
      for (const row of r.data) {
        cumulative += Number(row.y) - Number(row['y:predicted']);
        assert.ok(Math.abs(Number(row['y:cumulativeEffect']) - cumulative) < 1e-6);
        assert.ok(Number(row['y:cumulativeEffect:lower']) <= cumulative && cumulative <= Number(row['y:cumulativeEffect:upper']));
      }
      const last = r.data[r.data.length - 1];
      assert.equal(Number(last['y:cumulativeEffect:lower']), r.absoluteEffectLower);
      assert.equal(Number(last['y:cumulativeEffect:upper']), r.absoluteEffectUpper);
      assert.deepEqual(r.messages, [], 'a long pre-period and a good fit: no warning');
    });

    it('does not find an effect in the placebo (p ≥ 0.05); a window cutting through months is taken in whole months, and the session says so', async () => {
      const r = await results(s, { dataSourceName: 'nottem', columns: IGNORE_TRUTH });
      assert.ok(r.metrics.pValue >= 0.05, `p ${r.metrics.pValue}`);
      assert.ok(Math.abs(r.metrics.relativeEffect) < 0.1);
      const mid = await results(s, { dataSourceName: 'nottem', columns: IGNORE_TRUTH, startDate: '1938-01-15', endDate: '1938-06-10' });
      assert.equal(mid.metrics.pValue, r.metrics.pValue, 'the same months');
      assert.deepEqual(mid.messages.map((m: { message: string }) => m.message.slice(0, 70)), ['The event window is analysed in whole months, 1938-01-01 to 1938-06-30']);
    });

    it('names the months missing from the data, what filled them, and the one inside the event window', async () => {
      const csv = nottemCsv(1).split('\n').filter((line) => !line.startsWith('1930-03-01,') && !line.startsWith('1938-03-01,')).join('\n');
      assert.equal((await s.call('PUT', '/v1/data/nottem-gaps?timestampColumn=date', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      const r = await results(s, { dataSourceName: 'nottem-gaps', columns: IGNORE_TRUTH });
      const said = r.messages.filter((m: { message: string }) => /has no value for/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(r.messages));
      assert.equal(said[0].severity, 'warning');
      // Decimal temperatures are a numericMeasure, imputed by their mean (49.0 °F over the 220 months).
      assert.match(said[0].message, /^The target 'y' has no value for 2 months of the 222 months analysed \(1930-03-01 and 1938-03-01\): they were filled with 48\.97\d*, by the column's imputation \(mean\)\. 1 of them lies in the event window, where a filled value counts as observed/);
    });

    it('uses the features left in play as controls, and says which it left out', async () => {
      // The untouched series as a control: the counterfactual is exact, so the effect is exactly the injected 15 %.
      // 'post' (0 before the event) tells nothing about the pre-period: it is left out, and the session says so.
      const r = await results(s, { dataSourceName: 'nottem_plus15', columns: { true_effect: { role: 'none' }, post: { role: 'feature' }, y_counterfactual: { role: 'feature' } } });
      assert.ok(Math.abs(r.metrics.relativeEffect - 0.15) < 0.005, `relative effect ${r.metrics.relativeEffect}`);
      const note = r.messages.find((m: { severity: string }) => m.severity === 'informational');
      assert.match(note?.message ?? '', /leaves out the control column 'post'/);
    });
  });
}
