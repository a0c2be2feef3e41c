import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Pages of a data set's rows read in any order give the rows of that page: a page after one already
 * read starts where that one ended (store/page-checkpoints.ts), across appended segments, in time
 * order with and without a date range, and not from an earlier version of the rows.
 */
const PAGE = 700;

function keylessCsv(from: number, to: number): string {
  const lines = ['id,value'];
  for (let i = from; i < to; i++) lines.push(`${i},${(i * 7) % 13}`);
  return lines.join('\n') + '\n';
}

/** Hours 0..n−1 of 2020 in a scrambled order, so that storage order is not time order. */
function hourlyCsv(n: number, valueOf: (hour: number) => number): string {
  const lines = ['time,load'];
  for (let k = 0; k < n; k++) {
    const hour = (k * 2_003) % n;
    lines.push(`${new Date(Date.UTC(2020, 0, 1) + hour * 3_600_000).toISOString()},${valueOf(hour)}`);
  }
  return lines.join('\n') + '\n';
}

async function pageIds(s: TestServer, path: string, page: number, column: string): Promise<{ ids: string[]; total: number }> {
  const r = await s.call('GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=${PAGE}`);
  assert.equal(r.status, 200, r.text);
  return { ids: r.json.data.map((row: Record<string, string>) => row[column]), total: r.json.totalCount };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

for (const backend of await backends()) {
  describe(`data set pages in any order (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('across two appended uploads: forwards, backwards and jumping', async () => {
      for (const [from, to] of [[0, 2_500], [2_500, 3_800]]) {
        const r = await s.call('PUT', '/v1/data/appended', { body: keylessCsv(from!, to!), headers: { 'content-type': 'text/csv' } });
        assert.ok(r.status === 200 || r.status === 201, r.text);
      }
      const expected = (page: number) => range(page * PAGE, Math.min((page + 1) * PAGE, 3_800)).map(String);
      for (const order of [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [3, 2, 4, 0, 5, 1, 3]]) {
        for (const page of order) {
          const { ids, total } = await pageIds(s, '/v1/data/appended', page, 'id');
          assert.deepEqual(ids, expected(page), `page ${page} in order ${order.join(',')}`);
          assert.equal(total, 3_800);
        }
      }
    });

    it('in time order, with a date range, and after the rows were replaced', async () => {
      const hours = 3_000;
      let r = await s.call('PUT', '/v1/data/hourly?timestampColumn=time', { body: hourlyCsv(hours, (h) => h), headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, r.text);
      const hourAt = (h: number) => new Date(Date.UTC(2020, 0, 1) + h * 3_600_000).toISOString();
      const loads = async (path: string, pages: number[]) => {
        const out = new Map<number, string[]>();
        for (const page of pages) out.set(page, (await pageIds(s, path, page, 'load')).ids);
        return out;
      };
      let got = await loads('/v1/data/hourly', [0, 1, 2, 3, 4, 2, 0]);
      for (const [page, ids] of got) assert.deepEqual(ids, range(page * PAGE, Math.min((page + 1) * PAGE, hours)).map(String), `page ${page}`);

      const window = `/v1/data/hourly?startDate=${hourAt(1_000)}&endDate=${hourAt(2_999)}`;
      got = await loads(window, [0, 1, 2, 1]);
      for (const [page, ids] of got) assert.deepEqual(ids, range(1_000 + page * PAGE, Math.min(1_000 + (page + 1) * PAGE, 3_000)).map(String), `window page ${page}`);
      assert.equal((await pageIds(s, window, 0, 'load')).total, 2_000);

      // New values for every hour: a new version of the rows, read from its own first row.
      r = await s.call('PUT', '/v1/data/hourly', { body: hourlyCsv(hours, (h) => 10_000 + h), headers: { 'content-type': 'text/csv' } });
      assert.ok(r.status === 200 || r.status === 201, r.text);
      got = await loads('/v1/data/hourly', [2, 3, 0]);
      for (const [page, ids] of got) assert.deepEqual(ids, range(page * PAGE, Math.min((page + 1) * PAGE, hours)).map((h) => String(10_000 + h)), `replaced, page ${page}`);
    });
  });
}
