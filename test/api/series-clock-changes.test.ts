import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/**
 * NAB's New York taxi counts, half-hourly in local clock time without offsets, as a logger writing the
 * local clock would have kept them across the two changes of daylight saving time in the file's span:
 * - 2014-11-02 01:00 (New York's clocks went back): NAB's file holds each repeated half-hour once, with
 *   the two real half-hours' rides added; here each is two rows sharing that count, as written twice.
 * - 2014-10-05 02:00 (Sydney's clocks went forward that night): that hour's two rows are left out, as
 *   a clock that skips the hour never writes them.
 * Summed into hours as written, the repeated hour counted its rides twice and the skipped hour took the
 * column's imputation, 0, each an 'effect' an impact analysis then reported.
 */
function localClockRides(from: string, to: string): string {
  const rows = readFixture('anomaly', 'nab', 'realKnownCause', 'nyc_taxi.csv').rows
    .filter(([t]) => t! >= from && t! < to);
  const lines = ['time,rides'];
  for (const [t, v] of rows) {
    if (t!.startsWith('2014-10-05T02:')) continue;
    if (t!.startsWith('2014-11-02T01:')) lines.push(`${t},${Math.floor(Number(v) / 2)}`, `${t},${Math.ceil(Number(v) / 2)}`);
    else lines.push(`${t},${v}`);
  }
  return lines.join('\n') + '\n';
}

const csv = { headers: { 'content-type': 'text/csv' } };
/** An hourly impact analysis is a long fit (18–28 s each on a quiet machine, over 120 s at a load of 20). */
const HOURLY_IMPACT_MS = 360_000;
const ridesAt = (rows: any[], hour: string) => rows.find((r) => r.time === `${hour}:00:00.0000000Z`)?.rides;

for (const backend of await backends()) {
  describe(`hourly series in local clock time across daylight saving changes (${backend})`, () => {
    let s: TestServer;
    const impact = async (dataSourceName: string, startDate: string, endDate: string) => {
      const created = await s.call('POST', '/v1/sessions/impact', {
        json: { dataSourceName, targetColumn: 'rides', eventName: 'night', resultInterval: 'hour', startDate, endDate, columns: { time: { role: 'timestamp' } } },
      });
      assert.equal(created.status, 200, created.text);
      const session = await completedSession(s, created.json.sessionId, HOURLY_IMPACT_MS);
      const results = await s.call('GET', `/v1/sessions/${created.json.sessionId}/results?pageSize=100`);
      return { messages: session.messages.map((m: any) => `[${m.severity}] ${m.message}`), rows: results.json.data, metrics: results.json.metrics };
    };
    before(async () => {
      s = await startTestServer(backend);
      // A week before each night, and the day after it.
      assert.equal((await s.call('PUT', '/v1/data/autumn', { body: localClockRides('2014-10-26', '2014-11-03'), ...csv })).status, 201);
      assert.equal((await s.call('PUT', '/v1/data/spring', { body: localClockRides('2014-09-28', '2014-10-06'), ...csv })).status, 201);
    });
    after(async () => { await s.close(); });

    it('the repeated hour counts as one hour, and the session says so', async () => {
      const r = await impact('autumn', '2014-11-02T00:00:00', '2014-11-02T05:00:00');
      // The rides of the clock's 01:00 (39197 + 35212 over two real hours) as one hour's worth, not their sum.
      assert.equal(Number(ridesAt(r.rows, '2014-11-02T01')), (39197 + 35212) / 2);
      const said = r.messages.find((m: string) => m.includes('2014-11-02 01:00'));
      assert.ok(said?.startsWith('[warning]') && /daylight saving time ends/.test(said) && /4 rows, where an hour has 2/.test(said), r.messages.join('\n'));
    });

    it('the skipped hour is missing, not 0, and the session names it', async () => {
      const r = await impact('spring', '2014-10-05T00:00:00', '2014-10-05T05:00:00');
      assert.equal(ridesAt(r.rows, '2014-10-05T02'), 'NaN');
      const said = r.messages.find((m: string) => m.includes('2014-10-05 02:00'));
      assert.ok(said && /daylight saving time begins/.test(said) && /interpolates it/.test(said), r.messages.join('\n'));
      assert.ok(!r.messages.some((m: string) => /filled with 0/.test(m)), r.messages.join('\n'));
      // Without the hour's 0, the night's rides are no 'effect'.
      assert.ok(Number(r.metrics.pValue) > 0.05, JSON.stringify(r.metrics));
    });
  });
}
