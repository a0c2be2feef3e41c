import type { Db } from '../store/db.js';
import { DatasetsStore } from '../store/datasets-store.js';
import { QuotaError } from './errors.js';

/** What an account may hold. Self-hosted accounts are on `community` unless changed in the database. */
export const PLANS: Record<string, { dataSets: number; sessionsPerMonth: number; predictionsPerMonth: number }> = {
  community: { dataSets: 1000, sessionsPerMonth: 10000, predictionsPerMonth: 10_000_000 },
  unlimited: { dataSets: 1_000_000, sessionsPerMonth: 1_000_000_000, predictionsPerMonth: 1_000_000_000 },
};

interface Counts { dataSets: number; sessions: number; predictions: number }

/** Counter sources added by later features (sessions, predictions). */
export type UsageCounter = (accountId: string) => Promise<Partial<Counts>>;

/**
 * The account quota headers the original service sent on every answer (compat-notes §2.5):
 * clients read them for "account balance". Counts are cached briefly so hot paths (predict) do
 * not query the database for headers.
 */
export class UsageService {
  private readonly cache = new Map<string, { headers: Record<string, string>; counts: Counts; until: number }>();
  private readonly counters: UsageCounter[] = [];

  constructor(private readonly db: Db, private readonly ttlMs = 5000) {}

  addCounter(c: UsageCounter): void {
    this.counters.push(c);
  }

  invalidate(accountId: string): void {
    this.cache.delete(accountId);
  }

  async headers(accountId: string): Promise<Record<string, string>> {
    return (await this.snapshot(accountId)).headers;
  }

  async assertCanCreateDataset(accountId: string): Promise<void> {
    this.invalidate(accountId);
    const { counts, plan } = await this.snapshot(accountId);
    if (counts.dataSets >= plan.dataSets) throw new QuotaError(`The account holds ${counts.dataSets} data sets, the most its plan allows`, { allotted: plan.dataSets });
  }

  private async snapshot(accountId: string) {
    const hit = this.cache.get(accountId);
    const plan = PLANS.community!;
    if (hit && hit.until > Date.now()) return { ...hit, plan };
    const counts: Counts = { dataSets: await new DatasetsStore(this.db).count(accountId), sessions: 0, predictions: 0 };
    for (const c of this.counters) Object.assign(counts, await c(accountId));
    const headers = {
      'Nexosis-Account-DataSetCount-Allotted': String(plan.dataSets),
      'Nexosis-Account-DataSetCount-Current': String(counts.dataSets),
      'Nexosis-Account-PredictionCount-Allotted': String(plan.predictionsPerMonth),
      'Nexosis-Account-PredictionCount-Current': String(counts.predictions),
      'Nexosis-Account-SessionCount-Allotted': String(plan.sessionsPerMonth),
      'Nexosis-Account-SessionCount-Current': String(counts.sessions),
      'Nexosis-Account-Balance': '0.00 USD',
      'Nexosis-Request-Cost': '0.00 USD',
    };
    const entry = { headers, counts, until: Date.now() + this.ttlMs };
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(accountId, entry);
    return { ...entry, plan };
  }
}
