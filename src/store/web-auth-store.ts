import { sql } from 'kysely';
import type { Db } from './db.js';

export interface WebSessionRow { accountId: string; csrfToken: string; createdAt: Date; expiresAt: Date }
export type TokenPurpose = 'verify-email' | 'reset-password';

/** SQL for signed-in browsers, one-time e-mailed links and the attempt counters behind rate limits. */
export class WebAuthStore {
  constructor(private readonly db: Db) {}

  async insertSession(tokenHash: string, accountId: string, csrfToken: string, expiresAt: Date): Promise<void> {
    await this.db.kysely.insertInto('web_sessions')
      .values({ token_hash: tokenHash, account_id: accountId, csrf_token: csrfToken, created_at: new Date(), expires_at: expiresAt })
      .execute();
  }

  async session(tokenHash: string): Promise<WebSessionRow | undefined> {
    const r = await this.db.kysely.selectFrom('web_sessions').selectAll()
      .where('token_hash', '=', tokenHash).where('expires_at', '>', new Date()).executeTakeFirst();
    return r && { accountId: r.account_id, csrfToken: r.csrf_token, createdAt: r.created_at, expiresAt: r.expires_at };
  }

  async extendSession(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.kysely.updateTable('web_sessions').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.kysely.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Signs an account out everywhere (a new password), except the browser that made the change. */
  async deleteSessionsOf(accountId: string, exceptTokenHash?: string): Promise<void> {
    let q = this.db.kysely.deleteFrom('web_sessions').where('account_id', '=', accountId);
    if (exceptTokenHash) q = q.where('token_hash', '!=', exceptTokenHash);
    await q.execute();
  }

  async insertToken(t: { tokenHash: string; accountId: string; purpose: TokenPurpose; email: string | null; expiresAt: Date }): Promise<void> {
    await this.db.kysely.insertInto('account_tokens')
      .values({ token_hash: t.tokenHash, account_id: t.accountId, purpose: t.purpose, email: t.email, expires_at: t.expiresAt })
      .execute();
  }

  /** Marks an unused, unexpired token of that purpose used and returns what it was for; a second use finds nothing. */
  async useToken(tokenHash: string, purpose: TokenPurpose): Promise<{ accountId: string; email: string | null } | undefined> {
    const r = await this.db.kysely.updateTable('account_tokens').set({ used_at: new Date() })
      .where('token_hash', '=', tokenHash).where('purpose', '=', purpose)
      .where('used_at', 'is', null).where('expires_at', '>', new Date())
      .returning(['account_id', 'email']).executeTakeFirst();
    return r && { accountId: r.account_id, email: r.email };
  }

  /** Records one attempt in each bucket and returns, per bucket, the attempts within the window (this one included). */
  async countAttempt(buckets: string[], windowMs: number): Promise<number[]> {
    const now = new Date();
    const since = new Date(now.getTime() - windowMs);
    await this.db.kysely.insertInto('auth_attempts').values(buckets.map((bucket) => ({ bucket, at: now }))).execute();
    const rows = await this.db.kysely.selectFrom('auth_attempts').select(['bucket', (eb) => eb.fn.countAll<number>().as('n')])
      .where('bucket', 'in', buckets).where('at', '>', since).groupBy('bucket').execute();
    return buckets.map((b) => Number(rows.find((r) => r.bucket === b)?.n ?? 0));
  }

  /** Forgets attempts (a successful sign-in clears its address's failures). */
  async clearAttempts(bucket: string): Promise<void> {
    await this.db.kysely.deleteFrom('auth_attempts').where('bucket', '=', bucket).execute();
  }

  /** Housekeeping: old attempts, expired sessions and tokens. */
  async prune(olderThan: Date): Promise<void> {
    await this.db.kysely.deleteFrom('auth_attempts').where('at', '<', olderThan).execute();
    await this.db.kysely.deleteFrom('web_sessions').where('expires_at', '<', new Date()).execute();
    await this.db.kysely.deleteFrom('account_tokens').where(sql<boolean>`expires_at < now()`).execute();
  }
}
