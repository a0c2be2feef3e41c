import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { mulberry32 } from '../support/random.js';

/**
 * Two years of daily sales with a known weekly pattern and holidays that cut sales by 80, plus
 * seeded Gaussian noise (σ = 4); then four future weeks whose holiday flags are uploaded in a second
 * PUT holding only the date and the flag.
 */
const DAY_MS = 86_400_000;
const FIRST = Date.UTC(2016, 0, 4); // a Monday
const HISTORY_DAYS = 728;
const FUTURE_DAYS = 28;
const WEEKLY = [20, 25, 25, 20, 10, -40, -60]; // Monday first
const HOLIDAY_EFFECT = -80;
const NOISE_SD = 4;

function scenario() {
  const rand = mulberry32(20240611);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const days = HISTORY_DAYS + FUTURE_DAYS;
  const holiday: boolean[] = [];
  for (let d = 0; d < days; d++) holiday.push(d % 7 < 5 && rand() < 0.05); // about one weekday in twenty
  // A holiday on New Year's Day 2018 (day 728, a Monday) and on a Wednesday two weeks later.
  holiday[HISTORY_DAYS] = true;
  holiday[HISTORY_DAYS + 16] = true;
  const expected = holiday.map((h, d) => 200 + WEEKLY[d % 7]! + (h ? HOLIDAY_EFFECT : 0));
  const date = (d: number) => new Date(FIRST + d * DAY_MS).toISOString().slice(0, 10);
  const history = expected.slice(0, HISTORY_DAYS).map((e, d) => ({ date: date(d), sales: (e + NOISE_SD * gauss()).toFixed(2), holiday: holiday[d] ? 'TRUE' : '' }));
  const future = holiday.slice(HISTORY_DAYS).map((h, k) => ({ date: date(HISTORY_DAYS + k), holiday: h ? 'TRUE' : '' }));
  return { history, future, expected: expected.slice(HISTORY_DAYS), holiday: holiday.slice(HISTORY_DAYS) };
}

async function forecastRows(s: TestServer, body: Record<string, unknown>): Promise<Record<string, string>[]> {
  const created = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'sales', targetColumn: 'sales', ...body } });
  assert.equal(created.status, 200, created.text);
  const id = created.json.sessionId;
  await completedSession(s, id);
  return (await s.call('GET', `/v1/sessions/${id}/results`)).json.data;
}

for (const backend of await backends()) {
  describe(`forecast with a declared holiday feature over HTTP (${backend})`, () => {
    const sc = scenario();
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const columns = { date: { dataType: 'date', role: 'timestamp' }, sales: { dataType: 'numeric', role: 'target' }, holiday: { dataType: 'logical', role: 'feature' } };
      assert.equal((await s.call('PUT', '/v1/data/sales', { json: { data: sc.history, columns } })).status, 201);
    });
    after(async () => { await s.close(); });

    it('refuses the forecast until the holiday flags of the forecast period are uploaded', async () => {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'sales', targetColumn: 'sales', startDate: '2017-12-31', endDate: '2018-01-28' } });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.holiday, JSON.stringify(r.json));
      const put = await s.call('PUT', '/v1/data/sales', { json: sc.future });
      assert.equal(put.status, 201);
    });

    it('forecasts the weekly pattern and the holidays within the noise level', async (t) => {
      const rows = await forecastRows(s, { startDate: '2018-01-01', endDate: '2018-01-28' });
      assert.equal(rows.length, FUTURE_DAYS);
      assert.equal(rows[0]!.date, '2018-01-01T00:00:00.0000000Z');
      const errors = rows.map((r, k) => Number(r.sales) - sc.expected[k]!);
      const mae = errors.reduce((a, e) => a + Math.abs(e), 0) / errors.length;
      // Scored against the noise-free means: with 104 weeks to learn the day effects and the holiday effect
      // from, their estimates are off by about σ/√104 ≈ 0.4.
      t.diagnostic(`MAE ${mae.toFixed(2)} against the noise-free means (noise σ ${NOISE_SD})`);
      assert.ok(mae < 1.5, `MAE ${mae.toFixed(2)} vs the known means; errors ${errors.map((e) => e.toFixed(1))}`);
      sc.holiday.forEach((h, k) => {
        if (h) assert.ok(Math.abs(errors[k]!) < 5, `holiday ${rows[k]!.date}: forecast ${rows[k]!.sales}, expected ${sc.expected[k]}`);
      });

      const without = await forecastRows(s, { startDate: '2018-01-01', endDate: '2018-01-28', columns: { holiday: { role: 'none' } } });
      const missed = sc.holiday.map((h, k) => (h ? Number(without[k]!.sales) - sc.expected[k]! : 0)).filter((e) => e !== 0);
      assert.ok(missed.every((e) => e > 40), `without the feature the holidays are forecast like ordinary days: ${missed}`);
    });

    it('treats a gap between the last record and the start date as no gap', async () => {
      const full = await forecastRows(s, { startDate: '2018-01-01', endDate: '2018-01-14' });
      const later = await forecastRows(s, { startDate: '2018-01-08', endDate: '2018-01-14' });
      assert.deepEqual(later, full.slice(7));
    });
  });
}
