import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import pg from 'pg';
import { isConnectionLoss } from '../../src/store/connection-loss.js';
import { PostgresPool } from '../../src/store/postgres-pool.js';
import { ADMIN_URL, freshDatabase, postgresReachable } from '../support/backends.js';

const reachable = await postgresReachable();

/** The errors node-postgres really raises when the database goes away, told apart from a statement's own failure. */
describe('isConnectionLoss', () => {
  it('a refused connection is a loss', async () => {
    const port = await new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
    const pool = new PostgresPool(`postgres://postgres@127.0.0.1:${port}/postgres`);
    const err = await pool.connect().then(() => undefined, (e: unknown) => e);
    await pool.end();
    assert.ok(err, 'connecting to a closed port failed');
    assert.equal(isConnectionLoss(err), true, String(err));
  });

  it('a terminated backend is a loss; a bad statement or a constraint violation is not', { skip: !reachable && `PostgreSQL not reachable at ${ADMIN_URL}` }, async () => {
    const db = await freshDatabase();
    const pool = new PostgresPool(db.url);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const c = await pool.connect();
      const syntax = await c.query('SELEC 1').then(() => undefined, (e: unknown) => e);
      assert.equal(isConnectionLoss(syntax), false, String(syntax));
      await c.query('CREATE TABLE t (id int PRIMARY KEY)');
      await c.query('INSERT INTO t VALUES (1)');
      const duplicate = await c.query('INSERT INTO t VALUES (1)').then(() => undefined, (e: unknown) => e);
      assert.equal(isConnectionLoss(duplicate), false, String(duplicate));
      c.release();
      // A pooled connection whose backend is terminated: its next query fails, whether the client
      // noticed the loss before the query (an error event) or through it.
      const victim = await pool.connect();
      const [{ pid }] = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 5; i++) {
        const lost = await victim.query('SELECT 1').then(() => undefined, (e: unknown) => e);
        assert.ok(lost, `query ${i} on a terminated connection failed`);
        assert.equal(isConnectionLoss(lost), true, String(lost));
        await new Promise((r) => setTimeout(r, 20));
      }
      victim.release();
      // The pool dropped the broken connection: the next one works.
      const next = await pool.connect();
      assert.equal((await next.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
      next.release();
    } finally {
      await admin.end();
      await pool.end();
      await db.drop();
    }
  });
});
