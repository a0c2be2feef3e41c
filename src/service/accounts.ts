import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AccountRow, AccountsStore, KeyRow } from '../store/accounts-store.js';
import { ConflictError, ValidationError } from './errors.js';
import { aliveRefreshingAhead, type Expiring } from './refresh-ahead.js';

/**
 * Generated keys look like `sk_<40 random base64url chars>`: their first 8 random characters are the
 * listing prefix that finds the row (the hash proves the key), and showing them gives nothing away.
 * A key the operator chose (SIBYL_API_KEY) is listed and found by a fingerprint of its hash instead,
 * `~` and 7 hex digits: its first characters are part of the secret, perhaps a guessable part.
 */
const PREFIX_LEN = 8;
const GENERATED_KEY = /^sk_[A-Za-z0-9_-]{40}$/;
/** Shortest key the operator may choose (SIBYL_API_KEY): a short chosen key can be guessed. Generated keys are 43. */
export const MIN_KEY_LENGTH = 16;
/** Shortest key looked up at all: keys chosen before the minimum was raised still sign requests. */
const MIN_STORED_KEY_LENGTH = 8;

export function hashKey(key: string): string {
  // Keys are 190+ bits of randomness, so a fast hash is enough (no password-style stretching needed).
  return createHash('sha256').update(key).digest('hex');
}

/** `~` and the first 7 hex digits of the key's hash (migration 12 computes the same in SQL from the stored hash). */
function fingerprint(key: string): string {
  return '~' + hashKey(key).slice(0, 7);
}

function keyPrefix(key: string): string {
  return GENERATED_KEY.test(key) ? key.slice(3, 3 + PREFIX_LEN) : fingerprint(key);
}

/**
 * The prefixes a key's row may be stored under: its own, and the other form, since migration 12
 * could not tell a chosen first key from a generated one and gave both the fingerprint.
 */
function storedPrefixes(key: string): string[] {
  return [key.startsWith('sk_') ? key.slice(3, 3 + PREFIX_LEN) : key.slice(0, PREFIX_LEN), fingerprint(key)];
}

/** How a key is shown in lists: a generated key's `sk_` and prefix, a chosen key's fingerprint as it is. */
export function shownPrefix(prefix: string): string {
  return prefix.startsWith('~') ? prefix : `sk_${prefix}`;
}

export function generateKey(): string {
  return 'sk_' + randomBytes(30).toString('base64url');
}

export interface Principal { accountId: string; keyId: string }

export class AccountsService {
  private readonly cache = new Map<string, Expiring & { principal: Principal }>();

  constructor(private readonly store: AccountsStore, private readonly cacheMs = 5000) {}

  /** Resolves an api-key to its account, or undefined. Cached briefly so predict calls skip the database. */
  async authenticate(key: string | undefined): Promise<Principal | undefined> {
    if (!key || key.length < MIN_STORED_KEY_LENGTH || key.length > 200) return undefined;
    const hash = hashKey(key);
    const hit = aliveRefreshingAhead(this.cache.get(hash), this.cacheMs, (stale) => this.lookup(key, hash, stale));
    return hit ? hit.principal : this.lookup(key, hash);
  }

  /** The key's principal from the database, cached; a refresh (`replacing`) lands only if its entry is still there. */
  private async lookup(key: string, hash: string, replacing?: Expiring): Promise<Principal | undefined> {
    const candidates = await this.store.keysByPrefix(storedPrefixes(key));
    const want = Buffer.from(hash, 'hex');
    const match = candidates.find((k) => {
      const have = Buffer.from(k.hash, 'hex');
      return have.length === want.length && timingSafeEqual(have, want);
    });
    // A revocation in the meantime cleared the cache: the refresh must not bring the key back.
    if (replacing && this.cache.get(hash) !== replacing) return undefined;
    if (!match) {
      this.cache.delete(hash);
      return undefined;
    }
    const principal = { accountId: match.accountId, keyId: match.id };
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(hash, { principal, until: Date.now() + this.cacheMs });
    return principal;
  }

  /** An account the operator makes (CLI, first start): its address needs no verification link. */
  async createAccount(email: string | null, plan?: string): Promise<AccountRow> {
    const address = email === null ? null : normaliseEmail(email);
    if (address !== null && !isEmail(address)) {
      throw ValidationError.of('email', `'${email}' is not an e-mail address: it needs one @ between a name and a domain with a dot, e.g. ana@example.com`);
    }
    const taken = () => new ConflictError(`an account with the e-mail address ${address} exists already; list the accounts with sibyl accounts list`, { email: [address] });
    if (address !== null && (await this.store.credentials(address))) throw taken();
    try {
      return await this.store.createAccount(randomUUID(), address, plan);
    } catch (e) {
      // Two creations with one address at once: the unique index decides.
      if (address !== null && (await this.store.credentials(address))) throw taken();
      throw e;
    }
  }

  /** Creates a key (random, or the given one) for an account; the clear key is returned once and never stored. */
  async createKey(accountId: string, label: string | null = null, key = generateKey()): Promise<{ key: string; row: Omit<KeyRow, 'hash'> }> {
    if (key.length < MIN_KEY_LENGTH) throw ValidationError.of('key', `an api key needs at least ${MIN_KEY_LENGTH} characters`);
    const id = randomUUID();
    const prefix = keyPrefix(key);
    await this.store.insertKey({ id, accountId, prefix, hash: hashKey(key), label });
    return { key, row: { id, accountId, prefix, label, createdAt: new Date(), revokedAt: null } };
  }

  /**
   * Revokes a key by its id, or by the prefix or fingerprint it is listed with (`sk_` and `…` may be
   * included); a prefix that more than one active key shares is refused, so it cannot revoke a key
   * the caller did not mean.
   */
  async revokeKey(idOrPrefix: string, accountId?: string): Promise<number> {
    const which = idOrPrefix.replace(/^sk_/, '').replace(/…$/, '');
    const matching = await this.store.countActiveKeys(which, accountId);
    if (matching > 1) {
      throw new ConflictError(`${matching} active keys are listed as ${shownPrefix(which)}: revoke one by its key id (sibyl keys list shows them)`, { key: [`${matching} keys match`] });
    }
    this.cache.clear();
    return this.store.revokeKey(which, accountId);
  }

  listKeys(accountId?: string) { return this.store.listKeys(accountId); }
  listAccounts() { return this.store.listAccounts(); }
  findAccount(idOrEmail: string) { return this.store.findAccount(idOrEmail); }

  /**
   * First start: with no account, create one on the `unlimited` plan, with SIBYL_ADMIN_EMAIL as its
   * address. SIBYL_API_KEY (if set) becomes its key; otherwise a random key is returned so the caller
   * can print it once. On later starts an admin address set since is given to the first account if
   * it has none.
   */
  async bootstrap(configuredKey: string | undefined, adminEmail?: string): Promise<{ created: boolean; key?: string; accountId?: string; configuredKeyUnknown?: boolean }> {
    if ((await this.store.countAccounts()) > 0) {
      const first = await this.store.first();
      if (first && adminEmail && first.email === null && !(await this.store.credentials(adminEmail))) await this.store.setEmail(first.id, adminEmail, true);
      // An operator who changed SIBYL_API_KEY to rotate the key would otherwise get no sign that it does nothing.
      const configuredKeyUnknown = configuredKey !== undefined && !(await this.authenticate(configuredKey));
      return { created: false, accountId: first?.id, configuredKeyUnknown };
    }
    const account = await this.createAccount(adminEmail ?? null, 'unlimited');
    const { key } = await this.createKey(account.id, 'bootstrap', configuredKey ?? generateKey());
    return { created: true, key: configuredKey ? undefined : key, accountId: account.id };
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(email: string): boolean {
  return email.length <= 254 && /^[^@\s]+@[^@\s]+\.[^@\s]+$|^[^@\s]+@localhost$/.test(email);
}
