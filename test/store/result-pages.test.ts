import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { SessionsStore } from '../../src/store/sessions-store.js';
import { insertSessionRow } from '../support/session-row.js';
import { pageResults, RESULT_PAGE_ROWS } from '../../src/store/result-pages.js';
import { scratchEmbeddedPool } from '../support/scratch-db.js';

const N = 2 * RESULT_PAGE_ROWS + 345;
const dataRows = Array.from({ length: N }, (_, i) => ({ id: String(i), y: i % 3 === 0 ? 'a' : 'b', 'y:predicted': 'a' }));
const scores = Array.from({ length: N }, (_, i) => [i / N, 1 - i / N]);
const level = (q: number) => Array.from({ length: 40 }, (_, i) => ({ t: String(i), v: String(i * q) }));

/** Every row of a part, read through the store in API-sized pages (crossing stored page boundaries). */
async function readAll(store: SessionsStore, id: string, part: string, size: number): Promise<unknown[]> {
  const r = (await store.results(id))!;
  const out: unknown[] = [];
  for (let start = 0; start < (r.parts[part] ?? 0); start += size) out.push(...await r.rows(part, start, start + size));
  return out;
}

test('results written in pages are read back by row range, across stored page boundaries', async () => {
  const db = new Db(await scratchEmbeddedPool());
  await migrate(db.pool);
  try {
    const id = await insertSessionRow(db, 'completed');
    const store = new SessionsStore(db);
    const paged = pageResults({ accuracy: 0.9 }, dataRows, { classes: ['a', 'b'], classScores: scores, intervals: { '0.5': level(1), '0.9': level(2) }, contest: { z: 1, a: 2 } });
    await store.saveResultPages(id, 'g1', paged);
    assert.equal(await store.results(id), undefined, 'pages alone publish nothing');
    await store.saveResultsHeader(id, 'g1', paged);
    const r = (await store.results(id))!;
    assert.deepEqual(r.metrics, { accuracy: 0.9 });
    assert.deepEqual(r.extra, { classes: ['a', 'b'], contest: { z: 1, a: 2 } });
    assert.deepEqual(Object.keys(r.extra.contest as object), ['z', 'a']);
    assert.deepEqual(r.parts, { data: N, classScores: N, 'intervals:0.5': 40, 'intervals:0.9': 40 });
    assert.deepEqual(await r.rows('data', 995, 1005), dataRows.slice(995, 1005));
    assert.deepEqual(await readAll(store, id, 'data', 333), dataRows);
    assert.deepEqual(await readAll(store, id, 'classScores', 1000), scores);
    assert.deepEqual(await r.rows('intervals:0.9', 30, 80), level(2).slice(30));
    assert.deepEqual(await r.rows('nothing', 0, 10), []);
    assert.deepEqual(await r.rows('data', N, N + 10), []);
    // Another attempt publishes its own generation; the earlier pages are dropped, the new ones read.
    const again = pageResults({ accuracy: 0.8 }, dataRows.slice(0, 10), {});
    await store.saveResultPages(id, 'g2', again);
    await store.saveResultsHeader(id, 'g2', again);
    await store.dropResultPages(id, 'g2', 'others');
    assert.deepEqual(await readAll(store, id, 'data', 50), dataRows.slice(0, 10));
    const left = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM session_result_pages WHERE session_id = $1', [id]);
    assert.equal(left[0]!.n, 1);
    await store.delete((await store.getById(id))!.accountId, [id]);
    assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM session_result_pages'))[0]!.n, 0);
  } finally {
    await db.close();
  }
});

test('migration 7 pages results stored whole before it, keeping row and key order', async () => {
  const db = new Db(await scratchEmbeddedPool());
  try {
    await migrate(db.pool, 6);
    const id = await insertSessionRow(db, 'completed');
    const forecast = await insertSessionRow(db, 'completed');
    const extra = { zeta: 1, classScores: scores, intervals: { '0.9': level(2), '0.5': level(1) }, outliers: level(3), holdout: level(4), alpha: { b: 1, a: 2 } };
    await db.query("INSERT INTO session_results (session_id, metrics, data, extra) VALUES ($1, '{\"m\": 1}', $2, $3)", [id, JSON.stringify(dataRows), JSON.stringify(extra)]);
    await db.query("INSERT INTO session_results (session_id, metrics, data, extra) VALUES ($1, '{}', '[]', '{}')", [forecast]);
    await migrate(db.pool);
    const store = new SessionsStore(db);
    const r = (await store.results(id))!;
    assert.deepEqual(r.metrics, { m: 1 });
    assert.deepEqual(Object.keys(r.extra), ['zeta', 'holdout', 'alpha']);
    assert.deepEqual(r.extra.alpha, { b: 1, a: 2 });
    assert.deepEqual(Object.keys(r.extra.alpha as object), ['b', 'a']);
    assert.deepEqual(r.parts, { data: N, classScores: N, 'intervals:0.9': 40, 'intervals:0.5': 40, outliers: 40 });
    assert.deepEqual(Object.keys(r.parts), ['data', 'classScores', 'intervals:0.9', 'intervals:0.5', 'outliers']);
    assert.deepEqual(await readAll(store, id, 'data', 1000), dataRows);
    assert.deepEqual(await readAll(store, id, 'classScores', 700), scores);
    assert.deepEqual(await readAll(store, id, 'intervals:0.5', 7), level(1));
    assert.deepEqual(await readAll(store, id, 'outliers', 50), level(3));
    const empty = (await store.results(forecast))!;
    assert.deepEqual(empty.parts, { data: 0 });
    assert.deepEqual(empty.extra, {});
  } finally {
    await db.close();
  }
});
