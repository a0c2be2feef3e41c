import type { Db } from './db.js';

/** `usage_counters` rows are keyed by period: a month (`2026-11`, sessions) or a day (`2026-11-23`, predictions), UTC. */
export function monthKey(d: Date): string {
  return d.toISOString().slice(0, 7);
}

export function dayKey(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export class UsageStore {
  constructor(private readonly db: Db) {}

  /** Called in the transaction that creates the session, so a deleted session still counts. */
  async addSession(accountId: string, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO usage_counters (account_id, month, sessions) VALUES ($1, $2, 1)
       ON CONFLICT (account_id, month) DO UPDATE SET sessions = usage_counters.sessions + 1`,
      [accountId, monthKey(at)]);
  }

  async sessions(accountId: string, month: string): Promise<number> {
    const r = await this.db.kysely.selectFrom('usage_counters').select('sessions').where('account_id', '=', accountId).where('month', '=', month).executeTakeFirst();
    return Number(r?.sessions ?? 0);
  }
}
