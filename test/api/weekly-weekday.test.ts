import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`).getUTCDay();

/**
 * fpp2 hyndsight (daily page views, 2014-04-30..2015-04-29) summed over the seven days up to each date
 * on `weekday` (0 Sunday, 3 Wednesday): 52 weekly rows dated on that day, as weekly reports are.
 */
function weeklyOn(weekdayNumber: number): { date: string; value: string }[] {
  const t = readFixture('forecast', 'fpp2', 'hyndsight.csv');
  const values = column(t, 'value').map(Number);
  const times = column(t, 'date').map((d) => Date.parse(`${d}T00:00:00Z`));
  const rows: { date: string; value: string }[] = [];
  for (let i = 6; i < times.length; i++) {
    if (new Date(times[i]!).getUTCDay() !== weekdayNumber) continue;
    rows.push({ date: day(times[i]!), value: String(values.slice(i - 6, i + 1).reduce((a, v) => a + v, 0)) });
  }
  return rows;
}

for (const backend of await backends()) {
  describe(`a weekly series keeps its own weekday (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, d] of [['sundays', 0], ['wednesdays', 3]] as const) {
        const put = await s.call('PUT', `/v1/data/${name}`, { json: { data: weeklyOn(d), columns: { date: { dataType: 'date', role: 'timestamp' }, value: { dataType: 'numeric', role: 'target' } } } });
        assert.equal(put.status, 201, put.text);
      }
      // One Sunday row keyed on the Wednesday after it (2015-03-15 → 2015-03-18), as a late report is.
      const oneOff = weeklyOn(0).map((row) => (row.date === '2015-03-15' ? { ...row, date: '2015-03-18' } : row));
      assert.ok(oneOff.some((row) => row.date === '2015-03-18'));
      const put = await s.call('PUT', '/v1/data/sundays-one-wednesday', { json: { data: oneOff, columns: { date: { dataType: 'date', role: 'timestamp' }, value: { dataType: 'numeric', role: 'target' } } } });
      assert.equal(put.status, 201, put.text);
    });
    after(async () => { await s.close(); });

    async function results(kind: 'forecast' | 'impact', json: Record<string, unknown>): Promise<any> {
      const r = await s.call('POST', `/v1/sessions/${kind}`, { json: { targetColumn: 'value', resultInterval: 'week', ...json } });
      assert.equal(r.status, 200, r.text);
      await completedSession(s, r.json.sessionId);
      const got = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.equal(got.status, 200, got.text);
      return got.json;
    }

    it('a Sunday series with one row dated on a Wednesday stays on Sundays, the odd row counted in its week and named in a message', async () => {
      const r = await results('forecast', { dataSourceName: 'sundays-one-wednesday' });
      const dates: string[] = r.data.map((row: { date: string }) => row.date.slice(0, 10));
      assert.ok(dates.length > 0);
      assert.ok(dates.every((d) => weekday(d) === 0), `forecast dates not on Sundays: ${JSON.stringify(dates)}`);
      for (const row of r.holdout) assert.equal(weekday(row.date), 0, `holdout row ${row.date} is not on a Sunday`);
      const moved = r.messages.filter((m: { message: string }) => m.message.includes('2015-03-18'));
      assert.equal(moved.length, 1, JSON.stringify(r.messages));
      assert.match(moved[0].message, /dated on Sundays/);
      assert.match(moved[0].message, /2015-03-18 \(a Wednesday\) counts in the week of Sunday 2015-03-15/);
      // The series on Sundays alone says nothing of the kind.
      const plain = await results('forecast', { dataSourceName: 'sundays' });
      assert.ok(!plain.messages.some((m: { message: string }) => /another day/.test(m.message)), JSON.stringify(plain.messages));
    });

    it("an impact analysis of that series gives its rows on Sundays, the Wednesday row's week among them", async () => {
      const r = await results('impact', { dataSourceName: 'sundays-one-wednesday', eventName: 'e', startDate: '2015-03-01', endDate: '2015-03-29' });
      const rows: { date: string; actual?: number; value?: number }[] = r.data;
      assert.ok(rows.every((row) => weekday(row.date) === 0), JSON.stringify(rows.map((row) => row.date)));
      assert.ok(rows.some((row) => row.date.startsWith('2015-03-15')), JSON.stringify(rows.map((row) => row.date)));
    });

    it('a forecast of Sunday-dated weeks, without a start date, continues on the Sundays after the last one, and its holdout rows are the data\'s Sundays', async () => {
      const data = weeklyOn(0);
      const last = Date.parse(`${data.at(-1)!.date}T00:00:00Z`);
      const r = await results('forecast', { dataSourceName: 'sundays' });
      const dates: string[] = r.data.map((row: { date: string }) => row.date.slice(0, 10));
      assert.ok(dates.length > 0);
      assert.deepEqual(dates, dates.map((_, k) => day(last + (k + 1) * 7 * DAY_MS)));
      const observed = new Set(data.map((row) => row.date));
      assert.ok(r.holdout.length > 0);
      for (const row of r.holdout) assert.ok(observed.has(row.date.slice(0, 10)), `holdout row ${row.date} is not one of the data's dates`);
    });

    it('a forecast of Wednesday-dated weeks from a given Wednesday gives Wednesdays', async () => {
      const r = await results('forecast', { dataSourceName: 'wednesdays', startDate: '2015-05-06', endDate: '2015-06-03' });
      const dates: string[] = r.data.map((row: { date: string }) => row.date.slice(0, 10));
      assert.deepEqual(dates, ['2015-05-06', '2015-05-13', '2015-05-20', '2015-05-27', '2015-06-03']);
    });

    it('an impact analysis of Sunday-dated weeks gives its rows on the data\'s Sundays', async () => {
      const r = await results('impact', { dataSourceName: 'sundays', eventName: 'e', startDate: '2015-03-01', endDate: '2015-03-29' });
      const dates: string[] = r.data.map((row: { date: string }) => row.date.slice(0, 10));
      assert.ok(dates.length > 0);
      assert.ok(dates.every((d) => weekday(d) === 0), JSON.stringify(dates));
      assert.ok(dates.includes('2015-03-01') && dates.includes('2015-03-29'), JSON.stringify(dates));
    });
  });
}
