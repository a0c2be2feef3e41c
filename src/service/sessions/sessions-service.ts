import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { SessionsStore, type SessionFilter, type SessionRecord, type SessionResults, type SessionResultsToSave, type SessionSort, type SessionStatus, type SessionType } from '../../store/sessions-store.js';
import { OutboxStore } from '../../store/outbox-store.js';
import { AccountsStore } from '../../store/accounts-store.js';
import { UsageStore } from '../../store/usage-store.js';
import type { Message } from '../../store/schema.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../../store/paging.js';
import { sessionView } from './session-view.js';
import { outboundRefusal } from '../../outbound/index.js';

/** What a session request decides; the rest of the record (id, status, history, token…) is the engine's. */
export type SessionDraft = Pick<SessionRecord, 'type' | 'predictionDomain' | 'datasetName' | 'targetColumn' | 'name' | 'request' | 'columns' | 'callbackUrl'> & {
  messages?: Message[];
};

/**
 * Session lifecycle shared by model, forecast and impact sessions. Every status change is one
 * transaction that also writes its notifications to the outbox (callback to callbackUrl with the
 * session body; e-mail when a model session ends), so none is lost and none blocks the session.
 */
export class SessionsService {
  /** Checked before a session is created (the plan's sessions a month); set when the services are wired. */
  beforeCreate: (accountId: string) => Promise<void> = async () => {};

  constructor(private readonly db: Db, private readonly publicBase: () => string, private readonly allowHosts: Set<string> = new Set()) {}

  async create(accountId: string, draft: SessionDraft): Promise<SessionRecord> {
    await this.beforeCreate(accountId);
    if (draft.callbackUrl) {
      const refusal = await outboundRefusal(draft.callbackUrl, this.allowHosts);
      if (refusal) throw ValidationError.of('callbackUrl', refusal);
    }
    const now = new Date();
    const s: SessionRecord = {
      id: randomUUID(), accountId, type: draft.type, status: 'requested', predictionDomain: draft.predictionDomain,
      datasetName: draft.datasetName, targetColumn: draft.targetColumn, name: draft.name, request: draft.request,
      columns: draft.columns, statusHistory: [{ date: now.toISOString(), status: 'requested' }], messages: draft.messages ?? [],
      callbackUrl: draft.callbackUrl, webhookToken: draft.callbackUrl ? randomBytes(24).toString('base64url') : null,
      modelId: null, algorithm: null, requestedAt: now, updatedAt: now,
    };
    await this.db.tx(async (tx) => {
      await new SessionsStore(tx).insert(s);
      await new UsageStore(tx).addSession(accountId, now);
      await this.announce(tx, s);
    });
    return s;
  }

  async get(accountId: string, id: string): Promise<SessionRecord> {
    const s = isUuid(id) ? await new SessionsStore(this.db).get(accountId, id) : undefined;
    if (!s) throw new NotFoundError('session', id);
    return s;
  }

  list(accountId: string, f: SessionFilter, page: Page, sort?: { by?: SessionSort; desc?: boolean }): Promise<PageOf<SessionRecord>> {
    return new SessionsStore(this.db).list(accountId, f, page, sort);
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.get(accountId, id);
    await new SessionsStore(this.db).delete(accountId, [id]);
  }

  /** Bulk delete; at least one filter is required so nobody deletes everything by accident. */
  async deleteMatching(accountId: string, f: SessionFilter): Promise<number> {
    if (Object.values(f).every((v) => v === undefined)) {
      throw new ValidationError({ filter: ['give at least one of dataSourceName, eventName, type, requestedAfterDate, requestedBeforeDate'] }, 'Some session selection parameters are required.', 'SomeParametersRequired');
    }
    const store = new SessionsStore(this.db);
    return store.delete(accountId, await store.ids(accountId, f));
  }

  async results(accountId: string, id: string): Promise<{ session: SessionRecord; results: SessionResults | undefined }> {
    const session = await this.get(accountId, id);
    return { session, results: await new SessionsStore(this.db).results(id) };
  }

  /** Moves a session (held by `owner`'s lease) to a status and announces it; undefined if the lease was lost. */
  async transition(id: string, owner: string | null, status: SessionStatus, opts: { messages?: Message[]; modelId?: string; algorithm?: Record<string, unknown>; results?: SessionResultsToSave } = {}): Promise<SessionRecord | undefined> {
    const results = opts.results;
    // Result pages first, in short statements under a fresh generation no reader sees yet; the
    // transaction below publishes them with the status. Killed in between: the pages are orphans,
    // dropped when the session's next attempt publishes its own.
    const generation = results ? randomUUID() : null;
    const store = new SessionsStore(this.db);
    if (results && generation) {
      try {
        await store.saveResultPages(id, generation, results);
      } catch (e) {
        // The session was deleted while it ran: its pages have no session to belong to.
        if ((await store.getById(id)) === undefined) return undefined;
        throw e;
      }
    }
    const done = await this.db.tx(async (tx) => {
      const txStore = new SessionsStore(tx);
      // Transition first: a session deleted while it ran (or re-claimed by another worker) has no row to take results.
      const s = await txStore.transition(id, owner, status, opts);
      if (!s) throw new LeaseLost(id);
      if (results && generation) await txStore.saveResultsHeader(id, generation, results);
      await this.announce(tx, s);
      return s;
    }).catch((e) => {
      if (e instanceof LeaseLost) return undefined;
      throw e;
    });
    // Published: earlier attempts' pages go. Not published (lease lost): this attempt's pages go.
    if (generation) await store.dropResultPages(id, generation, done ? 'others' : 'this').catch(() => {});
    return done;
  }

  private async announce(tx: Db, s: SessionRecord): Promise<void> {
    const outbox = new OutboxStore(tx);
    if (s.callbackUrl && s.webhookToken) {
      await outbox.enqueue({
        accountId: s.accountId, kind: 'callback', sessionId: s.id, target: s.callbackUrl,
        payload: JSON.stringify(sessionView(s, this.publicBase())),
        headers: { 'Service-Webhook-Token': s.webhookToken, 'Nexosis-Webhook-Token': s.webhookToken },
      });
    }
    if (s.type === 'model' && (s.status === 'completed' || s.status === 'failed')) {
      const account = await new AccountsStore(tx).findAccount(s.accountId);
      // Only to an address its owner proved (or the operator gave), and only if they want these.
      if (account?.email && account.emailVerifiedAt && account.notifySessionEmail) {
        await outbox.enqueue({
          accountId: s.accountId, kind: 'email', sessionId: s.id, target: account.email,
          payload: JSON.stringify(sessionView(s, this.publicBase())), headers: {},
        });
      }
    }
  }
}

class LeaseLost extends Error {}

export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}
