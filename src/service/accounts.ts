import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AccountRow, AccountsStore, KeyRow } from '../store/accounts-store.js';
import { ValidationError } from './errors.js';

/** Keys look like `sk_<8-char prefix><32 random chars>`; the prefix finds the row, the hash proves the key. */
const PREFIX_LEN = 8;

export function hashKey(key: string): string {
  // Keys are 190+ bits of randomness, so a fast hash is enough (no password-style stretching needed).
  return createHash('sha256').update(key).digest('hex');
}

function keyPrefix(key: string): string {
  return key.startsWith('sk_') ? key.slice(3, 3 + PREFIX_LEN) : key.slice(0, PREFIX_LEN);
}

export function generateKey(): string {
  return 'sk_' + randomBytes(30).toString('base64url');
}

export interface Principal { accountId: string; keyId: string }

export class AccountsService {
  private readonly cache = new Map<string, { principal: Principal; until: number }>();

  constructor(private readonly store: AccountsStore, private readonly cacheMs = 5000) {}

  /** Resolves an api-key to its account, or undefined. Cached briefly so predict calls skip the database. */
  async authenticate(key: string | undefined): Promise<Principal | undefined> {
    if (!key || key.length < 8 || key.length > 200) return undefined;
    const hash = hashKey(key);
    const hit = this.cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.principal;
    const candidates = await this.store.keysByPrefix(keyPrefix(key));
    const want = Buffer.from(hash, 'hex');
    const match = candidates.find((k) => {
      const have = Buffer.from(k.hash, 'hex');
      return have.length === want.length && timingSafeEqual(have, want);
    });
    if (!match) return undefined;
    const principal = { accountId: match.accountId, keyId: match.id };
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(hash, { principal, until: Date.now() + this.cacheMs });
    return principal;
  }

  async createAccount(email: string | null): Promise<AccountRow> {
    if (email !== null && !/^[^@\s]+@[^@\s]+$/.test(email)) throw ValidationError.of('email', `'${email}' is not an e-mail address`);
    return this.store.createAccount(randomUUID(), email);
  }

  /** Creates a key (random, or the given one) for an account; the clear key is returned once and never stored. */
  async createKey(accountId: string, label: string | null = null, key = generateKey()): Promise<{ key: string; row: Omit<KeyRow, 'hash'> }> {
    if (key.length < 8) throw ValidationError.of("key", "an api key needs at least 8 characters");
    const id = randomUUID();
    const prefix = keyPrefix(key);
    await this.store.insertKey({ id, accountId, prefix, hash: hashKey(key), label });
    return { key, row: { id, accountId, prefix, label, createdAt: new Date(), revokedAt: null } };
  }

  async revokeKey(idOrPrefix: string): Promise<number> {
    this.cache.clear();
    return this.store.revokeKey(idOrPrefix);
  }

  listKeys(accountId?: string) { return this.store.listKeys(accountId); }
  listAccounts() { return this.store.listAccounts(); }
  findAccount(idOrEmail: string) { return this.store.findAccount(idOrEmail); }

  /**
   * First start: with no account, create one. SIBYL_API_KEY (if set) becomes its key; otherwise a
   * random key is returned so the caller can print it once.
   */
  async bootstrap(configuredKey: string | undefined): Promise<{ created: boolean; key?: string; accountId?: string }> {
    if ((await this.store.countAccounts()) > 0) return { created: false };
    const account = await this.createAccount(null);
    const { key } = await this.createKey(account.id, 'bootstrap', configuredKey ?? generateKey());
    return { created: true, key: configuredKey ? undefined : key, accountId: account.id };
  }
}
