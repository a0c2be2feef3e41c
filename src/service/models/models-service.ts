/**
 * Models: the artifacts of completed model sessions, listing/deleting them, and prediction. Loaded
 * models stay in a bounded in-memory cache, so a predict after the first does no database read on
 * its path. Another API process may delete a model (PostgreSQL mode), so a cached model is checked
 * for existence in the background every few seconds (as api keys are): a delete anywhere stops its
 * predicts everywhere within MODEL_CHECK_MS.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { ModelsStore, type ModelFilter, type ModelRecord, type ModelSort } from '../../store/models-store.js';
import { NotFoundError, TooLargeError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../../store/paging.js';
import type { Message } from '../../store/schema.js';
import type { Services } from '../services.js';
import { isUuid } from '../sessions/sessions-service.js';
import type { ModelArtifact } from './model-artifact.js';
import { LruCache } from './model-cache.js';
import { aliveRefreshingAhead, type Expiring } from '../refresh-ahead.js';
import { PredictionCounter } from './prediction-counter.js';
import { Predictor, type PredictOptions } from './predictor.js';
import { ScoringThreads } from './scoring-threads.js';
import type { ExplanationsView } from './record-explanations.js';
import { ExplanationUnavailable } from '../../ml/explain/explanation.js';

const CACHED_MODELS = 64;
/** How long a cached model is served without checking that it still exists (the api-key cache's life too). */
export const MODEL_CHECK_MS = 5000;
/**
 * Batches of at least this many records are scored on a scoring thread (scoring-threads.ts); smaller
 * ones in-thread, where a single record answers fastest (a thread round trip costs ~0.1–0.3 ms).
 */
const OFF_THREAD_RECORDS = 128;
/**
 * Explanations of at least this much TreeSHAP work (tree-shap.ts pathWork steps, ~1.5–1.9 ns each) are
 * computed on the scoring threads, the work split between them (by trees, or by rows for blends); less
 * stays in-thread. One record of a 100-tree GBDT is ~3·10⁴ steps, of a fully grown 300-tree forest 4·10⁵–1.4·10⁶.
 */
const OFF_THREAD_EXPLANATION_STEPS = 2_000_000;

interface LoadedModel extends Expiring {
  model: ModelRecord;
  predictor: Predictor;
}

export class ModelsService {
  private readonly store: ModelsStore;
  private readonly cache = new LruCache<string, LoadedModel>(CACHED_MODELS);
  readonly predictions: PredictionCounter;
  private readonly threads: ScoringThreads;

  constructor(db: Db, private readonly maxPredictRecords: number, scoringThreads = 0) {
    this.store = new ModelsStore(db);
    this.threads = new ScoringThreads(scoringThreads);
    this.predictions = new PredictionCounter(this.store);
  }

  async save(m: Omit<ModelRecord, 'id' | 'createdAt' | 'lastUsedAt'>, artifact: ModelArtifact): Promise<ModelRecord> {
    const model: ModelRecord = { ...m, id: randomUUID(), createdAt: new Date(), lastUsedAt: null };
    await this.store.insert(model, JSON.stringify(artifact));
    return model;
  }

  async get(accountId: string, id: string): Promise<ModelRecord> {
    const m = await this.store.get(accountId, checkModelId(id));
    if (!m) throw new NotFoundError('model', id);
    return m;
  }

  list(accountId: string, f: ModelFilter, page: Page, sort: { by?: ModelSort; desc?: boolean } = {}): Promise<PageOf<ModelRecord>> {
    return this.store.list(accountId, f, page, sort);
  }

  async delete(accountId: string, id: string): Promise<void> {
    if ((await this.store.delete(accountId, [checkModelId(id)])) === 0) throw new NotFoundError('model', id);
    this.cache.delete(id);
  }

  /** Bulk delete; at least one filter is required so nobody deletes every model by accident. */
  async deleteMatching(accountId: string, f: ModelFilter): Promise<void> {
    if (Object.values(f).every((v) => v === undefined)) {
      throw new ValidationError({ filter: ['give at least one of dataSourceName, createdAfterDate, createdBeforeDate'] }, 'Some model selection parameters are required.', 'SomeParametersRequired');
    }
    const ids = await this.store.ids(accountId, f);
    await this.store.delete(accountId, ids);
    for (const id of ids) this.cache.delete(id);
  }

  /** Records over the configured limit are refused before any work (the original service timed out instead). */
  checkBatchSize(count: number): void {
    if (count > this.maxPredictRecords) {
      throw new TooLargeError(`A prediction request may hold at most ${this.maxPredictRecords} records; this one holds ${count}. Split it into smaller batches.`, { maxRecords: this.maxPredictRecords, records: count });
    }
  }

  async predict(accountId: string, id: string, records: Record<string, unknown>[], opts: PredictOptions): Promise<{ model: ModelRecord; data: Record<string, string>[]; messages: Message[]; explanations?: ExplanationsView }> {
    this.checkBatchSize(records.length);
    const loaded = await this.load(accountId, id);
    if (opts.predictionIntervals?.length) {
      const problem = loaded.predictor.intervalsUnavailable(opts.predictionIntervals);
      if (problem) throw ValidationError.of('predictionIntervals', problem);
    }
    if (opts.includeExplanations) {
      const problem = loaded.predictor.explanationsUnavailable(records.length);
      if (problem) throw ValidationError.of('includeExplanations', problem);
    }
    const { data, messages } = this.threads.available && records.length >= OFF_THREAD_RECORDS
      ? await loaded.predictor.predictWith(records, opts, (frame) => this.threads.scores(id, () => loaded.predictor.artifact.learner, frame))
      : loaded.predictor.predict(records, opts);
    let explanations: ExplanationsView | undefined;
    try {
      if (opts.includeExplanations) {
        const predictor = loaded.predictor;
        explanations = this.threads.available && records.length >= 2 && predictor.explanationSteps(records.length) >= OFF_THREAD_EXPLANATION_STEPS
          ? await predictor.explainWith(records, (frame) => this.threads.explain(id, () => predictor.artifact.learner, frame, predictor.explainsByTreeParts))
          : predictor.explain(records);
      }
    } catch (e) {
      if (e instanceof ExplanationUnavailable) throw ValidationError.of('includeExplanations', e.message);
      throw e;
    }
    this.predictions.add(accountId, records.length);
    return { model: loaded.model, data, messages, ...(explanations ? { explanations } : {}) };
  }

  private async load(accountId: string, id: string): Promise<LoadedModel> {
    const hit = this.cache.get(id);
    if (hit) {
      if (hit.model.accountId !== accountId) throw new NotFoundError('model', id);
      if (aliveRefreshingAhead(hit, MODEL_CHECK_MS, (stale) => this.recheck(id, stale))) return hit;
      // Not checked for a while (no recent predicts): check before serving it.
      if (await this.recheck(id, hit)) return hit;
      throw new NotFoundError('model', id);
    }
    const r = await this.store.getWithArtifact(accountId, checkModelId(id));
    if (!r) throw new NotFoundError('model', id);
    const loaded: LoadedModel = { model: r.model, predictor: new Predictor(JSON.parse(r.artifact) as ModelArtifact), until: Date.now() + MODEL_CHECK_MS };
    this.cache.set(id, loaded);
    return loaded;
  }

  /** Whether a cached model still exists; a deleted one leaves the cache, a present one is good for another MODEL_CHECK_MS. */
  private async recheck(id: string, entry: LoadedModel): Promise<boolean> {
    const exists = await this.store.exists(entry.model.accountId, id);
    if (!exists) {
      if (this.cache.get(id) === entry) this.cache.delete(id);
      return false;
    }
    entry.until = Date.now() + MODEL_CHECK_MS;
    entry.refreshing = false;
    return true;
  }
}

/** Model ids in paths must be GUIDs (400 RequestValidation, as the original service answered). */
function checkModelId(id: string): string {
  if (!isUuid(id)) throw new ValidationError({ modelId: [`The value '${id}' is not valid for Guid.`] });
  return id;
}

const byServices = new WeakMap<Services, ModelsService>();
const live = new Set<ModelsService>();

/** The models service of a wired process (created on first use; registers the prediction usage counter). */
export function modelsOf(services: Services): ModelsService {
  let m = byServices.get(services);
  if (!m) {
    const created = new ModelsService(services.db, services.config.maxPredictRecords, services.config.predictThreads);
    services.usage.addCounter(async (accountId) => ({ predictions: await created.predictions.current(accountId) }));
    byServices.set(services, created);
    live.add(created);
    m = created;
  }
  return m;
}

/** Writes pending prediction counts of every models service (process shutdown). */
export async function flushAllPredictionCounts(): Promise<void> {
  await Promise.all([...live].map((m) => m.predictions.flush()));
}
