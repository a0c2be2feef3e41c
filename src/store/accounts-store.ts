import type { Db } from './db.js';

export interface AccountRow {
  id: string;
  email: string | null;
  plan: string;
  createdAt: Date;
  emailVerifiedAt: Date | null;
  notifySessionEmail: boolean;
  hasPassword: boolean;
}
export interface KeyRow { id: string; accountId: string; prefix: string; hash: string; label: string | null; createdAt: Date; revokedAt: Date | null }

export class AccountsStore {
  constructor(private readonly db: Db) {}

  async countAccounts(): Promise<number> {
    const r = await this.db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async createAccount(id: string, email: string | null, plan?: string): Promise<AccountRow> {
    // An address the operator gives (CLI, SIBYL_ADMIN_EMAIL) needs no verification link.
    const now = new Date();
    const r = await this.db.kysely.insertInto('accounts').values({ id, email, created_at: now, email_verified_at: email ? now : null, ...(plan ? { plan } : {}) }).returningAll().executeTakeFirstOrThrow();
    return toAccount(r);
  }

  /** An account made by sign-up: address, password hash and plan in one insert. */
  async createWithPassword(a: { id: string; email: string; passwordHash: string; plan: string; emailVerified: boolean }): Promise<AccountRow> {
    const now = new Date();
    const r = await this.db.kysely.insertInto('accounts')
      .values({ id: a.id, email: a.email, password_hash: a.passwordHash, plan: a.plan, created_at: now, email_verified_at: a.emailVerified ? now : null })
      .returningAll().executeTakeFirstOrThrow();
    return toAccount(r);
  }

  /** The account with this address (any letter case) and its password hash, for sign-in. */
  async credentials(email: string): Promise<{ account: AccountRow; passwordHash: string | null } | undefined> {
    const r = await this.db.kysely.selectFrom('accounts').selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
    return r && { account: toAccount(r), passwordHash: r.password_hash };
  }

  async passwordHash(accountId: string): Promise<string | null> {
    const r = await this.db.kysely.selectFrom('accounts').select('password_hash').where('id', '=', accountId).executeTakeFirst();
    return r?.password_hash ?? null;
  }

  async setPassword(accountId: string, passwordHash: string): Promise<void> {
    await this.db.kysely.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
  }

  /** A new address starts unverified unless the operator gave it. */
  async setEmail(accountId: string, email: string, verified: boolean): Promise<void> {
    await this.db.kysely.updateTable('accounts').set({ email, email_verified_at: verified ? new Date() : null }).where('id', '=', accountId).execute();
  }

  /** Marks the address verified, if it is still the one the link was sent to. */
  async markVerified(accountId: string, email: string): Promise<boolean> {
    const r = await this.db.kysely.updateTable('accounts').set({ email_verified_at: new Date() })
      .where('id', '=', accountId).where('email', '=', email).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async setSettings(accountId: string, s: { notifySessionEmail?: boolean }): Promise<void> {
    if (s.notifySessionEmail === undefined) return;
    await this.db.kysely.updateTable('accounts').set({ notify_session_email: s.notifySessionEmail }).where('id', '=', accountId).execute();
  }

  async setPlan(accountId: string, plan: string): Promise<number> {
    const r = await this.db.kysely.updateTable('accounts').set({ plan }).where('id', '=', accountId).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** The oldest account: the one the first start created. */
  async first(): Promise<AccountRow | undefined> {
    const r = await this.db.kysely.selectFrom('accounts').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
    return r && toAccount(r);
  }

  async findAccount(idOrEmail: string): Promise<AccountRow | undefined> {
    const isUuid = /^[0-9a-f-]{36}$/i.test(idOrEmail);
    const r = await this.db.kysely.selectFrom('accounts').selectAll()
      .where(isUuid ? 'id' : 'email', '=', idOrEmail).executeTakeFirst();
    return r && toAccount(r);
  }

  async listAccounts(): Promise<AccountRow[]> {
    const rows = await this.db.kysely.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map(toAccount);
  }

  async insertKey(k: { id: string; accountId: string; prefix: string; hash: string; label: string | null }): Promise<void> {
    await this.db.kysely.insertInto('api_keys')
      .values({ id: k.id, account_id: k.accountId, prefix: k.prefix, hash: k.hash, label: k.label, created_at: new Date() })
      .execute();
  }

  async keysByPrefix(prefixes: string[]): Promise<KeyRow[]> {
    const rows = await this.db.kysely.selectFrom('api_keys').selectAll().where('prefix', 'in', prefixes).where('revoked_at', 'is', null).execute();
    return rows.map(toKey);
  }

  async listKeys(accountId?: string): Promise<KeyRow[]> {
    let q = this.db.kysely.selectFrom('api_keys').selectAll().orderBy('created_at');
    if (accountId) q = q.where('account_id', '=', accountId);
    return (await q.execute()).map(toKey);
  }

  /** Active keys with this id or prefix; with `accountId`, only that account's. */
  async countActiveKeys(idOrPrefix: string, accountId?: string): Promise<number> {
    let q = this.db.kysely.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n'))
      .where(keyColumn(idOrPrefix), '=', idOrPrefix).where('revoked_at', 'is', null);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** Revokes by key id or prefix; with `accountId`, only that account's keys match. */
  async revokeKey(idOrPrefix: string, accountId?: string): Promise<number> {
    let q = this.db.kysely.updateTable('api_keys').set({ revoked_at: new Date() })
      .where(keyColumn(idOrPrefix), '=', idOrPrefix).where('revoked_at', 'is', null);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}

function toAccount(r: { id: string; email: string | null; plan: string; created_at: Date; email_verified_at: Date | null; notify_session_email: boolean; password_hash: string | null }): AccountRow {
  return {
    id: r.id, email: r.email, plan: r.plan, createdAt: r.created_at, emailVerifiedAt: r.email_verified_at,
    notifySessionEmail: r.notify_session_email, hasPassword: r.password_hash !== null,
  };
}

function keyColumn(idOrPrefix: string): 'id' | 'prefix' {
  return /^[0-9a-f-]{36}$/i.test(idOrPrefix) ? 'id' : 'prefix';
}

function toKey(r: { id: string; account_id: string; prefix: string; hash: string; label: string | null; created_at: Date; revoked_at: Date | null }): KeyRow {
  return { id: r.id, accountId: r.account_id, prefix: r.prefix, hash: r.hash, label: r.label, createdAt: r.created_at, revokedAt: r.revoked_at };
}
