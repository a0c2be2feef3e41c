import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** R's Seatbelts (monthly, 1969–1984); with `holes`, the control kms blank in 1970-09..11, 1974-01 and 1983-08 (inside the window). */
function seatbelts(holes: boolean): string {
  const lines = readFileSync(fixturePath('impact', 'seatbelts_uk.csv'), 'utf8').trim().split('\n');
  const kms = lines[0]!.split(',').indexOf('kms');
  const blank = new Set(['1970-09-01', '1970-10-01', '1970-11-01', '1974-01-01', '1983-08-01']);
  return lines.map((l) => {
    const cells = l.split(',');
    if (holes && blank.has(cells[0]!)) cells[kms] = '';
    return cells.join(',');
  }).join('\n');
}

const roles = (header: string[]) => Object.fromEntries(header.map((h) => [h,
  h === 'date' ? { dataType: 'date', role: 'timestamp' } : h === 'drivers' ? { dataType: 'numeric', role: 'target' } : h === 'kms' || h === 'PetrolPrice' ? { dataType: 'numeric', role: 'feature' } : { dataType: 'numeric', role: 'none' }]));

for (const backend of await backends()) {
  describe(`an impact analysis whose control has blank cells (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, holes] of [['clean', false], ['holes', true]] as const) {
        assert.equal((await s.call('PUT', `/v1/data/${name}`, { body: seatbelts(holes), headers: { 'content-type': 'text/csv' } })).status, 201);
      }
    });
    after(async () => { await s.close(); });

    async function impact(dataset: string): Promise<{ predicted: Map<string, number>; messages: string[] }> {
      const header = seatbelts(false).split('\n')[0]!.split(',');
      const r = await s.call('POST', '/v1/sessions/impact', { json: { dataSourceName: dataset, targetColumn: 'drivers', resultInterval: 'month', eventName: 'law', startDate: '1983-02-01', endDate: '1984-12-01', columns: roles(header) } });
      assert.equal(r.status, 200, r.text);
      const { messages } = await completedSession(s, r.json.sessionId);
      const got = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.equal(got.status, 200, got.text);
      return { predicted: new Map(got.json.data.map((row: Record<string, string>) => [row.date!.slice(0, 10), Number(row['drivers:predicted'])])), messages: messages.map((m: { message: string }) => m.message) };
    }

    it('blank control cells are interpolated, not taken as 0: the counterfactual of the blank month stays the clean one, and a message names the blanks', async () => {
      const clean = await impact('clean');
      const holes = await impact('holes');
      // Taken as 0, kms moved the counterfactual of 1983-08 by 159 drivers (1,553 → 1,394).
      const a = clean.predicted.get('1983-08-01')!, b = holes.predicted.get('1983-08-01')!;
      assert.ok(Math.abs(b - a) / a < 0.02, `1983-08: ${b} against ${a} on the clean data`);
      const said = holes.messages.filter((m) => /Feature 'kms' is blank/.test(m));
      assert.equal(said.length, 1, JSON.stringify(holes.messages));
      assert.match(said[0]!, /^Feature 'kms' is blank in 5 rows \(1970-09-01, 1970-10-01, 1970-11-01 and 2 more\): where a month has no value of it, it was interpolated from the months beside it, not taken as 0/);
      assert.ok(!clean.messages.some((m) => /is blank/.test(m)), JSON.stringify(clean.messages));
    });
  });
}
