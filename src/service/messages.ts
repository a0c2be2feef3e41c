/**
 * The account's messages as the late dashboard read them (`GET /v1/messages`, compat-notes §3.10):
 * every status its sessions and imports entered (severity `status`, its "Progress Log"), the
 * messages stored on them and those of each data set's latest upload, newest first.
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

const SUBJECT = { session: 'Session', import: 'Import', dataSet: 'Data set' } as const;

/**
 * A GUID derived from where the message is kept (RFC 4122 name-based, SHA-1): the same message keeps
 * its id on every read, and no id needs storing. A data set's messages are replaced by its next
 * upload, so their text is part of their place.
 */
function messageId(m: AccountMessage): string {
  const place = m.relatedTo === 'dataSet' ? `dataSet/${m.ownerKey}/${m.source}/${m.ordinal}/${m.text}` : `${m.relatedTo}/${m.ownerKey}/${m.source}/${m.ordinal}`;
  const b = createHash('sha1').update(place).digest().subarray(0, 16);
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
