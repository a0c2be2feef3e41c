/**
 * Messages stored on a session or an import, each with the time it was written (`date`, ISO text, as
 * status entries have): GET /v1/messages dates them by it (messages-store.ts), where they took their
 * owner's last change, so a warning given when a session was requested read as written when it ended.
 * Readers of the session or import see them as they were given, without it.
 */
import type { Message } from './schema.js';

/** The messages as stored: each with `date`. */
export function datedMessagesJson(messages: readonly Message[], date: Date | string): string {
  const at = typeof date === 'string' ? date : date.toISOString();
  return JSON.stringify(messages.map((m) => ({ ...m, date: at })));
}

/** Stored messages as their readers see them: severity and text. */
export function undatedMessages(stored: readonly (Message & { date?: string })[] | null | undefined): Message[] {
  return (stored ?? []).map(({ severity, message }) => ({ severity, message }));
}
