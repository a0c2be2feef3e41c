import { OutboxStore, type OutboxItem } from '../store/outbox-store.js';
import { SessionsStore } from '../store/sessions-store.js';
import type { Services } from '../service/services.js';
import { OutboundRefused, parseAllowedHosts, postJson } from '../outbound/index.js';
import { createMailer, type MailLog } from './mailer.js';
import { sessionEndedEmail } from './session-email.js';
import { retryDelayMs } from './retry-schedule.js';

/** A receiver gets this long to answer one callback before the attempt counts as failed. */
export const CALLBACK_TIMEOUT_MS = 10_000;

export interface DeliveryLog extends MailLog {
  warn(details: object, message: string): void;
}

/** Delivers one claimed outbox item and records the outcome: delivered, retry later, or failed. */
export type Deliver = (item: OutboxItem) => Promise<void>;

/**
 * Callbacks POST the session JSON to the session's callbackUrl (with the same address guard as URL
 * imports); e-mails go through SIBYL_SMTP_URL, or are logged when it is not set. A refused address
 * or a mailbox the SMTP server rejects for good fails at once; anything else is retried on the
 * schedule in retry-schedule.ts.
 */
export function createDeliverer(services: Services, log: DeliveryLog): Deliver {
  const outbox = new OutboxStore(services.db);
  const sessions = new SessionsStore(services.db);
  const allowHosts = parseAllowedHosts(services.config.allowPrivateHosts);
  const mailer = createMailer(services.config.smtpUrl, log);

  const send = async (item: OutboxItem): Promise<void> => {
    if (item.kind === 'callback') {
      const { status } = await postJson(item.target, JSON.parse(item.payload), { allowHosts, timeoutMs: CALLBACK_TIMEOUT_MS, headers: item.headers });
      // postJson does not follow redirects; a 3xx means the receiver did not take the event.
      if (status >= 300) throw new Error(`the callback address answered HTTP ${status} (redirects are not followed)`);
      return;
    }
    if (item.kind === 'mail') {
      const { subject, text } = JSON.parse(item.payload) as { subject: string; text: string };
      await mailer.send({ to: item.target, subject, text });
      return;
    }
    const metrics = item.sessionId ? await sessions.metrics(item.sessionId) : undefined;
    await mailer.send(sessionEndedEmail(item.target, item.payload, metrics));
  };

  return async (item) => {
    try {
      await send(item);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const delay = isPermanent(err) ? null : retryDelayMs(item.attempts);
      const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay);
      await outbox.retry(item.id, reason, nextAttemptAt);
      const about = { outboxId: item.id, kind: item.kind, sessionId: item.sessionId, to: recipientHost(item), attempt: item.attempts, reason: reason.replace(/https?:\/\/\S+/g, hostOf) };
      if (delay === null) log.warn(about, 'notification given up');
      else log.warn({ ...about, nextAttemptAt: nextAttemptAt!.toISOString() }, 'notification delivery failed; it is tried again');
      return;
    }
    await outbox.delivered(item.id);
  };
}

/** Where a notification goes, for the log: a callback's host (its path and query may hold tokens), a mailbox's domain. */
function recipientHost(item: OutboxItem): string {
  if (item.kind !== 'callback') return item.target.slice(item.target.lastIndexOf('@') + 1);
  return hostOf(item.target);
}

function hostOf(url: string): string {
  try { return new URL(url).host; } catch { return 'an unparsable URL'; }
}

/** Errors that another attempt cannot fix: a refused address, an SMTP 5xx reply (no such mailbox). */
function isPermanent(err: unknown): boolean {
  if (err instanceof OutboundRefused) return true;
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500;
}
