import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** The UK seat-belt law (February 1983): drivers killed or seriously injured fell by about a fifth. */
const LAW = { dataSourceName: 'seatbelts', targetColumn: 'drivers', eventName: 'seat-belt law', startDate: '1983-02-01', endDate: '1984-12-01', resultInterval: 'month' };
const COLUMNS = ['DriversKilled', 'front', 'rear', 'kms', 'PetrolPrice', 'VanKilled', 'law'];

/** The columns given as controls; the others (and the law's own indicator) have role none. */
function controls(...names: string[]): Record<string, { role: string }> {
  return Object.fromEntries(COLUMNS.map((c) => [c, { role: names.includes(c) ? 'feature' : 'none' }]));
}

async function impact(s: TestServer, columns: Record<string, { role: string }>): Promise<any> {
  const created = await s.call('POST', '/v1/sessions/impact', { json: { ...LAW, columns } });
  assert.equal(created.status, 200, created.text);
  await completedSession(s, created.json.sessionId, 240_000);
  return (await s.call('GET', `/v1/sessions/${created.json.sessionId}/results`)).json;
}

const sensitivityWarnings = (r: any): string[] => r.messages.map((m: { message: string }) => m.message).filter((m: string) => /rests on the control columns/.test(m));

describe('impact analysis beside the same analysis without its controls', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const r = await s.call('PUT', '/v1/data/seatbelts?timestampColumn=date', { body: readFileSync(fixturePath('impact', 'seatbelts_uk.csv')), headers: { 'content-type': 'text/csv' } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await s.close(); });

  it('warns when controls the event also changed hide its effect, and names them', async (t) => {
    // Front-seat passengers and the drivers killed (a subset of the target) fell with the law too.
    const r = await impact(s, controls('DriversKilled', 'front'));
    t.diagnostic(`with controls ${r.metrics.relativeEffect} (p ${r.metrics.pValue}); without ${r.withoutControls.relativeEffect} (p ${r.withoutControls.pValue})`);
    assert.ok(r.metrics.relativeEffect > -0.1, `with the affected controls the effect shrinks: ${r.metrics.relativeEffect}`);
    assert.ok(r.withoutControls.relativeEffect < -0.12 && r.withoutControls.relativeEffect > -0.28, `without them, near the literature's −20 %: ${r.withoutControls.relativeEffect}`);
    assert.equal(r.withoutControls.disagrees, true);
    assert.deepEqual(r.controlShifts.map((c: { column: string }) => c.column), ['front', 'DriversKilled'], 'the control that moved the counterfactual most comes first');
    assert.ok(r.controlShifts[0].shift < -0.05, `front pulled the counterfactual down: ${r.controlShifts[0].shift}`);
    const [warning, ...more] = sensitivityWarnings(r);
    assert.equal(more.length, 0);
    assert.match(warning!, /with them the effect is −\d+\.\d % \(p = 0\.\d+\), without them −1\d\.\d % \(p = 0\.0\d+, 95 % interval −\d+\.\d % to −\d+\.\d %\)/);
    assert.match(warning!, /moved the counterfactual by 'front' −\d+\.\d %, 'DriversKilled' −\d+\.\d %/);
    assert.match(warning!, /set those columns' role to none/);
  });

  it('says nothing when controls the law did not reach agree with the analysis without them', async () => {
    const r = await impact(s, controls('rear', 'kms', 'PetrolPrice'));
    assert.ok(r.metrics.pValue < 0.05 && r.metrics.relativeEffect < -0.12, `effect ${r.metrics.relativeEffect}, p ${r.metrics.pValue}`);
    assert.equal(r.withoutControls.disagrees, false);
    assert.deepEqual(sensitivityWarnings(r), []);
  });
});
