/**
 * Dashboard accounts: sign-up and sign-in with an e-mail address and a password, browser sessions,
 * e-mail verification and password reset by one-time links sent through the outbox (SIBYL_SMTP_URL),
 * account settings. API keys stay the credential of API clients (service/accounts.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { AccountsStore, type AccountRow } from '../../store/accounts-store.js';
import { WebAuthStore, type TokenPurpose } from '../../store/web-auth-store.js';
import { OutboxStore } from '../../store/outbox-store.js';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import { isEmail, normaliseEmail } from '../accounts.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { AttemptLimiter, LIMITS } from './attempt-limits.js';
import { passwordResetMail, verificationMail, type AccountMail } from './account-mail.js';

const DAY_MS = 86_400_000;
/** A browser stays signed in this long after its last use. */
export const SESSION_TTL_MS = 30 * DAY_MS;
const TOKEN_TTL_MS: Record<TokenPurpose, number> = { 'verify-email': 2 * DAY_MS, 'reset-password': 60 * 60_000 };
/** Links the operator hands out (first start, `sibyl accounts create`) last longer than e-mailed ones. */
const OPERATOR_LINK_TTL_MS = 7 * DAY_MS;

export interface AuthOptions {
  signupOpen: boolean;
  /** E-mail can be sent (SIBYL_SMTP_URL): verification and reset links are offered. */
  mailEnabled: boolean;
  /** Base of the links in e-mails: SIBYL_PUBLIC_URL, else the configured listen address (never a request's Host header). */
  linkBase: () => string;
}

export interface SignedIn { token: string; csrfToken: string; account: AccountRow }
export interface BrowserSession { accountId: string; csrfToken: string; tokenHash: string }

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export class AuthService {
  private readonly accounts: AccountsStore;
  private readonly web: WebAuthStore;
  private readonly limiter: AttemptLimiter;

  constructor(private readonly db: Db, readonly options: AuthOptions) {
    this.accounts = new AccountsStore(db);
    this.web = new WebAuthStore(db);
    this.limiter = new AttemptLimiter(db);
  }

  async signUp(input: { email: unknown; password: unknown }, client: string): Promise<SignedIn> {
    if (!this.options.signupOpen) throw new ForbiddenError('Sign-up is closed on this installation; ask its operator for an account', 'SignUpClosed');
    const email = readEmail(input.email);
    const problem = passwordProblem(input.password, email);
    if (problem) throw ValidationError.of('password', problem);
    await this.limiter.check([[`signup:client:${client}`, LIMITS.signUpPerClient]], 'sign-up');
    if (await this.accounts.credentials(email)) throw new ConflictError('An account with this e-mail address exists; sign in, or reset its password', { email: [email] });
    const passwordHash = await hashPassword(input.password as string);
    let account: AccountRow;
    try {
      account = await this.db.tx(async (tx) => {
        const a = await new AccountsStore(tx).createWithPassword({ id: randomUUID(), email, passwordHash, plan: 'community', emailVerified: false });
        if (this.options.mailEnabled) await this.sendLink(tx, a.id, email, 'verify-email');
        return a;
      });
    } catch (e) {
      // Two sign-ups with one address at once: the unique index decides.
      if (await this.accounts.credentials(email)) throw new ConflictError('An account with this e-mail address exists; sign in, or reset its password', { email: [email] });
      throw e;
    }
    return this.startSession(account);
  }

  async signIn(input: { email: unknown; password: unknown }, client: string): Promise<SignedIn> {
    const email = typeof input.email === 'string' ? normaliseEmail(input.email) : '';
    const password = typeof input.password === 'string' ? input.password : '';
    if (!email || !password) throw new ValidationError({ ...(email ? {} : { email: ['an e-mail address is required'] }), ...(password ? {} : { password: ['a password is required'] }) });
    await this.limiter.check([[`signin:email:${email}`, LIMITS.signInPerEmail], [`signin:client:${client}`, LIMITS.signInPerClient]], 'sign-in');
    const found = await this.accounts.credentials(email);
    // An unknown address costs the same time as a wrong password, so timing does not tell which.
    const ok = await verifyPassword(password, found?.passwordHash ?? null);
    if (!found || !ok) throw new UnauthorizedError('The e-mail address or the password is wrong', 'InvalidCredentials');
    await this.limiter.clear(`signin:email:${email}`);
    return this.startSession(found.account);
  }

  /** The browser session behind a cookie's token, renewed when used (sliding expiry). */
  async session(token: string | undefined): Promise<BrowserSession | undefined> {
    if (!token || token.length > 100) return undefined;
    const tokenHash = sha256(token);
    const s = await this.web.session(tokenHash);
    if (!s) return undefined;
    // Renew at most once a day, so a busy dashboard does not write on every request.
    if (s.expiresAt.getTime() - Date.now() < SESSION_TTL_MS - DAY_MS) await this.web.extendSession(tokenHash, new Date(Date.now() + SESSION_TTL_MS));
    return { accountId: s.accountId, csrfToken: s.csrfToken, tokenHash };
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.web.deleteSession(sha256(token));
  }

  async account(accountId: string): Promise<AccountRow> {
    const a = await this.accounts.findAccount(accountId);
    if (!a) throw new UnauthorizedError();
    return a;
  }

  async changePassword(session: BrowserSession, input: { currentPassword: unknown; newPassword: unknown }, client: string): Promise<void> {
    const account = await this.account(session.accountId);
    await this.requirePassword(account, input.currentPassword, client);
    const problem = passwordProblem(input.newPassword, account.email ?? undefined);
    if (problem) throw ValidationError.of('newPassword', problem);
    await this.accounts.setPassword(account.id, await hashPassword(input.newPassword as string));
    await this.web.deleteSessionsOf(account.id, session.tokenHash);
  }

  /** A new address needs the password, and (with mail) a click on the link sent to it before it receives anything else. */
  async changeEmail(accountId: string, input: { email: unknown; currentPassword: unknown }, client: string): Promise<AccountRow> {
    const account = await this.account(accountId);
    const email = readEmail(input.email);
    await this.requirePassword(account, input.currentPassword, client);
    if (email === account.email) return account;
    const other = await this.accounts.credentials(email);
    if (other) throw new ConflictError('Another account uses this e-mail address', { email: [email] });
    await this.limiter.check([[`mail:email:${email}`, LIMITS.mailPerEmail], [`mail:client:${client}`, LIMITS.mailPerClient]], 'e-mail');
    await this.db.tx(async (tx) => {
      await new AccountsStore(tx).setEmail(accountId, email, false);
      if (this.options.mailEnabled) await this.sendLink(tx, accountId, email, 'verify-email');
    });
    return this.account(accountId);
  }

  async resendVerification(accountId: string, client: string): Promise<void> {
    this.requireMail();
    const account = await this.account(accountId);
    if (!account.email) throw ValidationError.of('email', 'the account has no e-mail address');
    if (account.emailVerifiedAt) return;
    await this.limiter.check([[`mail:email:${account.email}`, LIMITS.mailPerEmail], [`mail:client:${client}`, LIMITS.mailPerClient]], 'e-mail');
    await this.sendLink(this.db, account.id, account.email, 'verify-email');
  }

  async verifyEmail(token: unknown): Promise<void> {
    const used = typeof token === 'string' && token.length <= 100 ? await this.web.useToken(sha256(token), 'verify-email') : undefined;
    if (!used || !used.email || !(await this.accounts.markVerified(used.accountId, used.email))) {
      throw ValidationError.of('token', 'this link is not valid: it was used already, it expired, or the address changed since');
    }
  }

  /** Always answers the same way, whether or not an account has this address. */
  async requestPasswordReset(emailInput: unknown, client: string): Promise<void> {
    this.requireMail();
    const email = readEmail(emailInput);
    await this.limiter.check([[`mail:email:${email}`, LIMITS.mailPerEmail], [`mail:client:${client}`, LIMITS.mailPerClient]], 'password reset');
    const found = await this.accounts.credentials(email);
    if (found) await this.sendLink(this.db, found.account.id, email, 'reset-password');
  }

  /** Sets a new password from a reset link: every other browser is signed out, this one is signed in. */
  async resetPassword(input: { token: unknown; password: unknown }): Promise<SignedIn> {
    const token = typeof input.token === 'string' && input.token.length <= 100 ? input.token : '';
    // The password is checked before the link is spent, so a too-short password can be corrected.
    const problem = passwordProblem(input.password);
    if (problem) throw ValidationError.of('password', problem);
    const used = token ? await this.web.useToken(sha256(token), 'reset-password') : undefined;
    if (!used) throw ValidationError.of('token', 'this link is not valid: it was used already or it expired');
    const account = await this.account(used.accountId);
    await this.accounts.setPassword(account.id, await hashPassword(input.password as string));
    // Receiving the link proves the address.
    if (account.email && used.email === account.email && !account.emailVerifiedAt) await this.accounts.markVerified(account.id, account.email);
    await this.web.deleteSessionsOf(account.id);
    return this.startSession(await this.account(account.id));
  }

  /** A set-password link for the operator to hand over (first start, `sibyl accounts create`): no e-mail needed. */
  async operatorPasswordLink(accountId: string): Promise<string> {
    const account = await this.account(accountId);
    const token = newToken();
    await this.web.insertToken({ tokenHash: sha256(token), accountId, purpose: 'reset-password', email: account.email, expiresAt: new Date(Date.now() + OPERATOR_LINK_TTL_MS) });
    return `${this.options.linkBase()}/reset#token=${token}`;
  }

  async updateSettings(accountId: string, s: { notifySessionEmail?: unknown }): Promise<AccountRow> {
    if (s.notifySessionEmail !== undefined && typeof s.notifySessionEmail !== 'boolean') throw ValidationError.of('notifySessionEmail', 'must be true or false');
    await this.accounts.setSettings(accountId, { notifySessionEmail: s.notifySessionEmail as boolean | undefined });
    return this.account(accountId);
  }

  private async startSession(account: AccountRow): Promise<SignedIn> {
    const token = newToken();
    const csrfToken = newToken();
    await this.web.insertSession(sha256(token), account.id, csrfToken, new Date(Date.now() + SESSION_TTL_MS));
    return { token, csrfToken, account };
  }

  /** Counted before it is checked, like a sign-in: over the limit even the right password waits. */
  private async requirePassword(account: AccountRow, password: unknown, client: string): Promise<void> {
    const bucket = `password:account:${account.id}`;
    await this.limiter.check([[bucket, LIMITS.currentPasswordPerAccount], [`password:client:${client}`, LIMITS.currentPasswordPerClient]], 'current-password');
    const ok = typeof password === 'string' && (await verifyPassword(password, await this.accounts.passwordHash(account.id)));
    if (!ok) throw new ValidationError({ currentPassword: ['the current password is wrong'] });
    await this.limiter.clear(bucket);
  }

  private requireMail(): void {
    if (!this.options.mailEnabled) throw new ConflictError('This installation sends no e-mail (SIBYL_SMTP_URL is not set); ask its operator for a set-password link', { mail: ['not configured'] });
  }

  private async sendLink(db: Db, accountId: string, email: string, purpose: TokenPurpose): Promise<void> {
    const token = newToken();
    await new WebAuthStore(db).insertToken({ tokenHash: sha256(token), accountId, purpose, email, expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]) });
    const base = this.options.linkBase();
    const mail: AccountMail = purpose === 'verify-email' ? verificationMail(`${base}/verify#token=${token}`) : passwordResetMail(`${base}/reset#token=${token}`);
    await new OutboxStore(db).enqueue({ accountId, kind: 'mail', sessionId: null, target: email, payload: JSON.stringify(mail), headers: {} });
  }
}

function readEmail(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw ValidationError.of('email', 'an e-mail address is required');
  const email = normaliseEmail(v);
  if (!isEmail(email)) throw ValidationError.of('email', `'${v}' is not an e-mail address`);
  return email;
}
