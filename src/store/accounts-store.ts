import type { Db } from './db.js';

export interface AccountRow { id: string; email: string | null; plan: string; createdAt: Date }
export interface KeyRow { id: string; accountId: string; prefix: string; hash: string; label: string | null; createdAt: Date; revokedAt: Date | null }

export class AccountsStore {
  constructor(private readonly db: Db) {}

  async countAccounts(): Promise<number> {
    const r = await this.db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async createAccount(id: string, email: string | null): Promise<AccountRow> {
    const r = await this.db.kysely.insertInto('accounts').values({ id, email, created_at: new Date() }).returningAll().executeTakeFirstOrThrow();
    return { id: r.id, email: r.email, plan: r.plan, createdAt: r.created_at };
  }

  async findAccount(idOrEmail: string): Promise<AccountRow | undefined> {
    const isUuid = /^[0-9a-f-]{36}$/i.test(idOrEmail);
    const r = await this.db.kysely.selectFrom('accounts').selectAll()
      .where(isUuid ? 'id' : 'email', '=', idOrEmail).executeTakeFirst();
    return r && { id: r.id, email: r.email, plan: r.plan, createdAt: r.created_at };
  }

  async listAccounts(): Promise<AccountRow[]> {
    const rows = await this.db.kysely.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({ id: r.id, email: r.email, plan: r.plan, createdAt: r.created_at }));
  }

  async insertKey(k: { id: string; accountId: string; prefix: string; hash: string; label: string | null }): Promise<void> {
    await this.db.kysely.insertInto('api_keys')
      .values({ id: k.id, account_id: k.accountId, prefix: k.prefix, hash: k.hash, label: k.label, created_at: new Date() })
      .execute();
  }

  async keysByPrefix(prefix: string): Promise<KeyRow[]> {
    const rows = await this.db.kysely.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).where('revoked_at', 'is', null).execute();
    return rows.map(toKey);
  }

  async listKeys(accountId?: string): Promise<KeyRow[]> {
    let q = this.db.kysely.selectFrom('api_keys').selectAll().orderBy('created_at');
    if (accountId) q = q.where('account_id', '=', accountId);
    return (await q.execute()).map(toKey);
  }

  async revokeKey(idOrPrefix: string): Promise<number> {
    const isUuid = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
    const r = await this.db.kysely.updateTable('api_keys').set({ revoked_at: new Date() })
      .where(isUuid ? 'id' : 'prefix', '=', idOrPrefix).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}

function toKey(r: { id: string; account_id: string; prefix: string; hash: string; label: string | null; created_at: Date; revoked_at: Date | null }): KeyRow {
  return { id: r.id, accountId: r.account_id, prefix: r.prefix, hash: r.hash, label: r.label, createdAt: r.created_at, revokedAt: r.revoked_at };
}
