/**
 * The dashboard's account surface under /auth: sign-up, sign-in and out, verification and reset
 * links, the account page (plan, usage, settings) and API keys. Answers use the spec's error shape.
 * Everything but the sign-in family needs the session cookie (and the CSRF token to change state).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { AccountRow } from '../../store/accounts-store.js';
import { shownPrefix } from '../../service/accounts.js';
import type { SignedIn } from '../../service/auth/auth-service.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../service/errors.js';
import { isoOffset } from '../../service/sessions/session-view.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../web-session.js';

const tags = ['account'];
const open = { public: true };
const signedIn = { auth: 'session' as const };

/** Dashboard forms post JSON; anything else (a cross-site HTML form) is no body at all. */
function body(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b) || typeof (b as { pipe?: unknown }).pipe === 'function') {
    throw new ValidationError({ body: ['send a JSON object (Content-Type: application/json)'] });
  }
  return b as Record<string, unknown>;
}

/** The client address that rate limits count per (the socket's; set trustProxy in front of a proxy). */
function client(req: FastifyRequest): string {
  return req.ip;
}

function accountView(a: AccountRow) {
  return {
    accountId: a.id,
    email: a.email,
    emailVerified: a.emailVerifiedAt !== null,
    hasPassword: a.hasPassword,
    plan: a.plan,
    createdDate: isoOffset(a.createdAt),
    settings: { notifySessionEmail: a.notifySessionEmail },
  };
}

export function registerAccountRoutes(app: FastifyInstance, services: Services): void {
  const { auth, accounts, usage } = services;

  const signedInReply = (req: FastifyRequest, reply: FastifyReply, s: SignedIn) => {
    setSessionCookie(req, reply, s.token, app.publicUrl);
    reply.header('cache-control', 'no-store');
    return { account: accountView(s.account), csrfToken: s.csrfToken };
  };

  app.get('/auth/config', { schema: { tags, summary: 'What this installation offers: open sign-up, e-mail' }, config: open }, async () => ({
    signupOpen: auth.options.signupOpen,
    mailEnabled: auth.options.mailEnabled,
  }));

  app.post('/auth/signup', { schema: { tags, summary: 'Create an account with an e-mail address and a password, and sign in' }, config: open }, async (req, reply) => {
    const b = body(req);
    const s = await auth.signUp({ email: b.email, password: b.password }, client(req));
    reply.code(201);
    return signedInReply(req, reply, s);
  });

  app.post('/auth/signin', { schema: { tags, summary: 'Sign in: sets the session cookie; answers with the CSRF token' }, config: open }, async (req, reply) => {
    const b = body(req);
    return signedInReply(req, reply, await auth.signIn({ email: b.email, password: b.password }, client(req)));
  });

  app.post('/auth/signout', { schema: { tags, summary: 'Sign out this browser' }, config: signedIn }, async (req, reply) => {
    await auth.signOut(sessionToken(req));
    clearSessionCookie(req, reply, app.publicUrl);
    return reply.code(204).send();
  });

  app.get('/auth/session', { schema: { tags, summary: 'The signed-in account and the CSRF token for this browser session' }, config: signedIn }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { account: accountView(await auth.account(req.accountId)), csrfToken: req.webSession!.csrfToken };
  });

  app.post('/auth/verify', { schema: { tags, summary: 'Confirm an e-mail address with the token from the link' }, config: open }, async (req, reply) => {
    await auth.verifyEmail(body(req).token);
    return reply.code(204).send();
  });

  app.post('/auth/verify/resend', { schema: { tags, summary: 'Send the verification link again' }, config: signedIn }, async (req, reply) => {
    await auth.resendVerification(req.accountId, client(req));
    return reply.code(202).send();
  });

  app.post('/auth/forgot', { schema: { tags, summary: 'E-mail a password-reset link (the same answer whether or not the address has an account)' }, config: open }, async (req, reply) => {
    await auth.requestPasswordReset(body(req).email, client(req));
    return reply.code(202).send();
  });

  app.post('/auth/reset', { schema: { tags, summary: 'Set a new password with the token from a reset link; signs in' }, config: open }, async (req, reply) => {
    const b = body(req);
    return signedInReply(req, reply, await auth.resetPassword({ token: b.token, password: b.password }));
  });

  app.get('/auth/account', { schema: { tags, summary: 'Plan, usage against its quotas, settings' }, config: signedIn }, async (req) => {
    const account = await auth.account(req.accountId);
    const { plan, usage: used } = await usage.current(req.accountId);
    return {
      ...accountView(account),
      plan: { name: plan.name, dataSets: plan.dataSets, sessionsPerMonth: plan.sessionsPerMonth, predictionsPerDay: plan.predictionsPerDay, uploadBytes: plan.uploadBytes },
      usage: { dataSets: used.dataSets, sessionsThisMonth: used.sessions, predictionsToday: used.predictions },
      mailEnabled: auth.options.mailEnabled,
    };
  });

  app.patch('/auth/account', { schema: { tags, summary: 'Change settings: notifySessionEmail' }, config: signedIn }, async (req) => {
    return accountView(await auth.updateSettings(req.accountId, { notifySessionEmail: body(req).notifySessionEmail }));
  });

  app.post('/auth/account/email', { schema: { tags, summary: 'Change the e-mail address (needs the current password)' }, config: signedIn }, async (req) => {
    const b = body(req);
    return accountView(await auth.changeEmail(req.accountId, { email: b.email, currentPassword: b.currentPassword }, client(req)));
  });

  app.post('/auth/account/password', { schema: { tags, summary: 'Change the password; signs out every other browser' }, config: signedIn }, async (req, reply) => {
    const b = body(req);
    if (!req.webSession) throw new UnauthorizedError('Sign in first', 'NotSignedIn');
    await auth.changePassword(req.webSession, { currentPassword: b.currentPassword, newPassword: b.newPassword }, client(req));
    return reply.code(204).send();
  });

  const keyView = (k: { id: string; prefix: string; label: string | null; createdAt: Date; revokedAt: Date | null }) => ({
    keyId: k.id, prefix: shownPrefix(k.prefix), label: k.label, createdDate: isoOffset(k.createdAt), revokedDate: k.revokedAt ? isoOffset(k.revokedAt) : null,
  });

  app.get('/auth/keys', { schema: { tags, summary: "The account's API keys, by prefix and label (the keys themselves are never shown again)" }, config: signedIn }, async (req) => {
    const keys = await accounts.listKeys(req.accountId);
    return { items: keys.map(keyView).reverse() };
  });

  app.post('/auth/keys', { schema: { tags, summary: 'Create an API key: the answer is the only time it is shown' }, config: signedIn }, async (req, reply) => {
    const label = body(req).label;
    if (label !== undefined && label !== null && (typeof label !== 'string' || label.length > 100)) throw ValidationError.of('label', 'a label is text of at most 100 characters');
    const { key, row } = await accounts.createKey(req.accountId, typeof label === 'string' && label.trim() ? label.trim() : null);
    reply.code(201).header('cache-control', 'no-store');
    return { ...keyView(row), apiKey: key };
  });

  app.delete('/auth/keys/:id', { schema: { tags, summary: 'Revoke an API key' }, config: signedIn }, async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!/^[0-9a-f-]{36}$/i.test(id) || (await accounts.revokeKey(id, req.accountId)) === 0) throw new NotFoundError('apiKey', id);
    return reply.code(204).send();
  });
}
