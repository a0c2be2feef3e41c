import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/store/db.js';

/** A model session row of a new account, inserted straight into the store; its id. */
export async function insertSessionRow(db: Db, status: 'requested' | 'completed'): Promise<string> {
  const account = randomUUID();
  const id = randomUUID();
  await db.query('INSERT INTO accounts (id, email) VALUES ($1, $2)', [account, `${account}@example.test`]);
  await db.query("INSERT INTO sessions (id, account_id, type, status, dataset_name) VALUES ($1, $2, 'model', $3, 'd')", [id, account, status]);
  return id;
}
