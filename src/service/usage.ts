import type { Db } from '../store/db.js';
import type { PlanLimits } from '../config.js';
import { DatasetsStore } from '../store/datasets-store.js';
import { AccountsStore } from '../store/accounts-store.js';
import { UsageStore, monthKey } from '../store/usage-store.js';
import { QuotaError, TooLargeError } from './errors.js';
import { aliveRefreshingAhead, type Expiring } from './refresh-ahead.js';

export type { PlanLimits };
export interface Plan extends PlanLimits { name: string }

/**
 * The plans an account can be on: `community` (every signed-up account; limits from configuration)
 * and `unlimited` (the first account, and any the operator moves there with `sibyl accounts plan`),
 * which only the server-wide limits bound.
 */
export function plans(community: PlanLimits, serverUploadBytes: number): Record<string, PlanLimits> {
  return {
    community,
    unlimited: { dataSets: 1_000_000_000, sessionsPerMonth: 1_000_000_000, predictionsPerDay: 1_000_000_000, uploadBytes: serverUploadBytes },
  };
}

export interface Usage { dataSets: number; sessions: number; predictions: number }

interface Snapshot extends Expiring { headers: Record<string, string>; counts: Usage; plan: Plan }

/** Counter sources added by later features (predictions, counted by the models service). */
export type UsageCounter = (accountId: string) => Promise<Partial<Usage>>;

/**
 * Quotas and the account headers the original service sent on every answer (compat-notes §2.5;
 * clients read them for "account balance"): data sets held, sessions started this month (UTC),
 * predictions made today (UTC). Counts are cached briefly so hot paths (predict) do not query the
 * database for headers; a quota check that creates something reads fresh counts.
 */
export class UsageService {
  private readonly cache = new Map<string, Snapshot>();
  private readonly counters: UsageCounter[] = [];

  constructor(private readonly db: Db, private readonly plansByName: Record<string, PlanLimits>, private readonly ttlMs = 5000) {}

  addCounter(c: UsageCounter): void {
    this.counters.push(c);
  }

  invalidate(accountId: string): void {
    this.cache.delete(accountId);
  }

  async headers(accountId: string): Promise<Record<string, string>> {
    return (await this.snapshot(accountId)).headers;
  }

  /** Plan and counts, for the account page. */
  async current(accountId: string): Promise<{ plan: Plan; usage: Usage }> {
    this.invalidate(accountId);
    const s = await this.snapshot(accountId);
    return { plan: s.plan, usage: s.counts };
  }

  async plan(accountId: string): Promise<Plan> {
    return (await this.snapshot(accountId)).plan;
  }

  async assertCanCreateDataset(accountId: string): Promise<void> {
    this.invalidate(accountId);
    const { counts, plan } = await this.snapshot(accountId);
    if (counts.dataSets >= plan.dataSets) throw new QuotaError(`The account holds ${counts.dataSets} data sets, the most its ${plan.name} plan allows`, { quota: 'dataSets', allotted: plan.dataSets, current: counts.dataSets });
  }

  async assertCanStartSession(accountId: string): Promise<void> {
    this.invalidate(accountId);
    const { counts, plan } = await this.snapshot(accountId);
    if (counts.sessions >= plan.sessionsPerMonth) {
      throw new QuotaError(`The account has started ${counts.sessions} sessions this month, the most its ${plan.name} plan allows`, { quota: 'sessionsPerMonth', allotted: plan.sessionsPerMonth, current: counts.sessions });
    }
  }

  /** Checks a batch against today's predictions (from the short-lived cache, bumped by each batch). */
  async assertCanPredict(accountId: string, records: number): Promise<void> {
    const snap = await this.snapshot(accountId);
    const { counts, plan } = snap;
    if (counts.predictions + records > plan.predictionsPerDay) {
      throw new QuotaError(`This batch of ${records} would take the account past the ${plan.predictionsPerDay} predictions a day its ${plan.name} plan allows (${counts.predictions} made today)`, { quota: 'predictionsPerDay', allotted: plan.predictionsPerDay, current: counts.predictions });
    }
    counts.predictions += records;
    snap.headers['Nexosis-Account-PredictionCount-Current'] = String(counts.predictions);
  }

  /** 413 for an upload its plan does not allow (checked on the declared length, then while streaming). */
  async uploadLimit(accountId: string): Promise<number> {
    return (await this.snapshot(accountId)).plan.uploadBytes;
  }

  static tooLarge(limit: number): TooLargeError {
    return new TooLargeError(`The upload is larger than the ${limit} bytes the account's plan allows`, { limitBytes: limit });
  }

  private async snapshot(accountId: string) {
    // Quota checks that create something invalidate the entry and read fresh.
    return aliveRefreshingAhead(this.cache.get(accountId), this.ttlMs, (stale) => this.read(accountId, stale)) ?? this.read(accountId);
  }

  /** Plan and counts from the database, cached; a refresh (`replacing`) lands only if its entry is still there. */
  private async read(accountId: string, replacing?: Snapshot): Promise<Snapshot> {
    const account = await new AccountsStore(this.db).findAccount(accountId);
    const name = account && this.plansByName[account.plan] ? account.plan : 'community';
    const plan: Plan = { name, ...this.plansByName[name]! };
    const now = new Date();
    const counts: Usage = {
      dataSets: await new DatasetsStore(this.db).count(accountId),
      sessions: await new UsageStore(this.db).sessions(accountId, monthKey(now)),
      predictions: 0,
    };
    for (const c of this.counters) Object.assign(counts, await c(accountId));
    const headers = {
      'Nexosis-Account-DataSetCount-Allotted': String(plan.dataSets),
      'Nexosis-Account-DataSetCount-Current': String(counts.dataSets),
      'Nexosis-Account-PredictionCount-Allotted': String(plan.predictionsPerDay),
      'Nexosis-Account-PredictionCount-Current': String(counts.predictions),
      'Nexosis-Account-SessionCount-Allotted': String(plan.sessionsPerMonth),
      'Nexosis-Account-SessionCount-Current': String(counts.sessions),
      'Nexosis-Account-DataSetSize-Allotted': String(plan.uploadBytes),
      'Nexosis-Account-Balance': '0.00 USD',
      'Nexosis-Request-Cost': '0.00 USD',
    };
    const entry: Snapshot = { headers, counts, plan, until: Date.now() + this.ttlMs };
    // An entry invalidated meanwhile stays gone (its reader reads fresh). Batches checked against the
    // old entry but not yet counted show in the next refresh, as after an expiry.
    if (replacing && this.cache.get(accountId) !== replacing) return replacing;
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(accountId, entry);
    return entry;
  }
}
