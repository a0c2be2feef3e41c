import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** A fixture CSV with the target cell blanked on the rows of the given dates. */
function blanked(file: string, target: string, dates: string[]): string {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const col = lines[0]!.split(',').indexOf(target);
  return lines.map((line) => {
    const cells = line.split(',');
    if (dates.includes(cells[0]!)) cells[col] = '';
    return cells.join(',');
  }).join('\n');
}

const A10_BLANKS = ['1999-11-01', '2004-01-01', '2005-09-01'];
const SEATBELT_BLANKS = ['1975-03-01', '1979-07-01', '1983-05-01', '1984-02-01'];

for (const backend of await backends()) {
  describe(`blank target cells in a series over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const a10 = fixturePath('forecast', 'fpp2', 'a10.csv');
      const upTo2006 = (csv: string) => csv.split('\n').filter((l) => !l.startsWith('2007') && !l.startsWith('2008')).join('\n');
      const seatbelts = fixturePath('impact', 'seatbelts_uk.csv');
      for (const [name, body] of [
        ['a10', upTo2006(blanked(a10, 'value', []))], ['a10blanks', upTo2006(blanked(a10, 'value', A10_BLANKS))],
        ['seatbelts', blanked(seatbelts, 'drivers', [])], ['seatbeltsblanks', blanked(seatbelts, 'drivers', SEATBELT_BLANKS)],
      ]) {
        const r = await s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });
        assert.equal(r.status, 201, r.text);
      }
    });
    after(async () => { await s.close(); });

    async function session(kind: 'forecast' | 'impact', body: Record<string, unknown>) {
      const created = await s.call('POST', `/v1/sessions/${kind}`, { json: body });
      assert.equal(created.status, 200, created.text);
      const done = await completedSession(s, created.json.sessionId);
      const results = (await s.call('GET', `/v1/sessions/${created.json.sessionId}/results?pageSize=100`)).json;
      return { id: created.json.sessionId as string, messages: done.messages as { severity: string; message: string }[], results };
    }

    it('a10 with 3 blank months: forecast close to the one without blanks, blanks not listed as outliers, the session says they were interpolated', async (t) => {
      const body = { targetColumn: 'value', startDate: '2007-01-01', endDate: '2008-06-01', resultInterval: 'month' };
      const full = await session('forecast', { ...body, dataSourceName: 'a10' });
      const gaps = await session('forecast', { ...body, dataSourceName: 'a10blanks' });
      const diff = full.results.data.reduce((a: number, row: any, i: number) => a + Math.abs(Number(row.value) - Number(gaps.results.data[i].value)), 0) / full.results.data.length;
      t.diagnostic(`mean |difference| of the forecasts ${diff}`);
      // The forecasts' own error on these months is about 2 (MAE against the real 2007–08 values).
      assert.ok(diff < 0.6, `forecasts differ by ${diff} on average`);
      const outliers = (await s.call('GET', `/v1/sessions/${gaps.id}/results/outliers?pageSize=100`)).json.data as Record<string, string>[];
      for (const row of outliers) assert.ok(!A10_BLANKS.some((d) => row.date!.startsWith(d)), `blank ${row.date} listed as outlier ${JSON.stringify(row)}`);
      const said = gaps.messages.find((m) => /blank cell/.test(m.message));
      assert.match(said?.message ?? JSON.stringify(gaps.messages), /has a blank cell for 3 months .*1999-11-01, 2004-01-01 and 2005-09-01.*interpolated/);
      assert.ok(!gaps.messages.some((m) => /filled with 9\.48/.test(m.message)), 'not filled with the mean');
    });

    it('an imputation declared for the target still fills the blank cells', async () => {
      const r = await session('forecast', { dataSourceName: 'a10blanks', targetColumn: 'value', startDate: '2007-01-01', endDate: '2007-03-01', resultInterval: 'month', columns: { value: { imputation: 'median' } } });
      assert.ok(r.messages.some((m) => /has no value for 3 months .*by the column's imputation \(median\)/.test(m.message)), JSON.stringify(r.messages));
    });

    it('seatbelt drivers with blank months before and in the window: effect close to the one without, blanks left out of it', async (t) => {
      const none = Object.fromEntries(['DriversKilled', 'front', 'rear', 'kms', 'PetrolPrice', 'VanKilled', 'law'].map((c) => [c, { role: 'none' }]));
      const body = { targetColumn: 'drivers', eventName: 'seat-belt law', startDate: '1983-02-01', endDate: '1984-12-01', resultInterval: 'month', columns: none };
      const full = await session('impact', { ...body, dataSourceName: 'seatbelts' });
      const gaps = await session('impact', { ...body, dataSourceName: 'seatbeltsblanks' });
      t.diagnostic(`relative effect ${gaps.results.metrics.relativeEffect} (p ${gaps.results.metrics.pValue}) vs ${full.results.metrics.relativeEffect} (p ${full.results.metrics.pValue}) without blanks`);
      assert.ok(Math.abs(gaps.results.metrics.relativeEffect - full.results.metrics.relativeEffect) < 0.02, `${gaps.results.metrics.relativeEffect} vs ${full.results.metrics.relativeEffect}`);
      const said = gaps.messages.find((m) => /blank cell/.test(m.message));
      assert.match(said?.message ?? JSON.stringify(gaps.messages), /has a blank cell for 4 months .*the 2 months of them in the event window are left out of the effect/);
      const windowBlank = gaps.results.data.find((row: any) => row.date.startsWith('1983-05-01'));
      assert.equal(windowBlank.drivers, 'NaN');
    });
  });
}
