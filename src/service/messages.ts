/**
 * The account's messages as the late dashboard read them (`GET /v1/messages`, compat-notes §3.10):
 * every status its sessions and imports entered (severity `status`, its "Progress Log") and the
 * messages stored on them, newest first.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import { MessagesStore, type AccountMessage, type MessageFilter } from '../store/messages-store.js';
import type { Page, PageOf } from '../store/paging.js';
import { isoOffset } from './sessions/session-view.js';

/** The levels a client may ask for, as the original's severities (`status` only in /messages). */
export const MESSAGE_LEVELS = ['status', 'debug', 'informational', 'warning', 'error'] as const;

export interface MessageView {
  messageId: string;
  content: string;
  severity: string;
  userId: string;
  organizationId: string;
  createdAt: string;
  relatedId: string;
  relatedTo: string;
}

const SUBJECT = { session: 'Session', import: 'Import' } as const;

/**
 * A GUID derived from where the message is kept (RFC 4122 name-based, SHA-1): the same message keeps
 * its id on every read, and no id needs storing.
 */
function messageId(m: AccountMessage): string {
  const b = createHash('sha1').update(`${m.relatedTo}/${m.relatedId}/${m.source}/${m.ordinal}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One account owns everything it made, so it is both the user and the organisation the original named. */
function messageView(accountId: string, m: AccountMessage): MessageView {
  return {
    messageId: messageId(m),
    content: m.source === 'status' ? `${SUBJECT[m.relatedTo]} ${m.text}` : m.text,
    severity: m.severity,
    userId: accountId,
    organizationId: accountId,
    createdAt: isoOffset(m.createdAt),
    relatedId: m.relatedId,
    relatedTo: m.relatedTo,
  };
}

export class MessagesService {
  private readonly store: MessagesStore;

  constructor(db: Db) {
    this.store = new MessagesStore(db);
  }

  async list(accountId: string, filter: MessageFilter, page: Page): Promise<PageOf<MessageView>> {
    const r = await this.store.list(accountId, filter, page);
    return { totalCount: r.totalCount, items: r.items.map((m) => messageView(accountId, m)) };
  }
}
