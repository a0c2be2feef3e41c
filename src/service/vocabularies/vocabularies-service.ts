/**
 * Vocabularies: the words a model session chose for each text column (ml/text), stored when the
 * session completes, listed by data source or session, read as ranked words (rank 0 = the term
 * that said most about the target in the training rows) and the stop words that were left out.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import type { Page, PageOf } from '../../store/paging.js';
import { VocabulariesStore, type VocabularyFilter, type VocabularyRecord, type VocabularyWordRow } from '../../store/vocabularies-store.js';
import type { ColumnVocabulary } from '../../ml/encode.js';
import { NotFoundError, ValidationError } from '../errors.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class VocabulariesService {
  constructor(private readonly db: Db) {}

  async saveForSession(accountId: string, sessionId: string, dataSourceName: string, vocabularies: ColumnVocabulary[]): Promise<void> {
    const store = new VocabulariesStore(this.db);
    for (const v of vocabularies) {
      await store.insert({ id: randomUUID(), accountId, dataSourceName, dataSourceType: 'dataSet', columnName: v.columnName, sessionId }, v.words);
    }
  }

  list(accountId: string, filter: VocabularyFilter, page: Page): Promise<PageOf<VocabularyRecord>> {
    if (filter.sessionId !== undefined && !GUID.test(filter.sessionId)) return Promise.resolve({ items: [], totalCount: 0 });
    return new VocabulariesStore(this.db).list(accountId, filter, page);
  }

  async words(accountId: string, id: string, type: 'word' | 'stopWord' | undefined, page: Page): Promise<{ record: VocabularyRecord } & PageOf<VocabularyWordRow>> {
    const found = GUID.test(id) ? await new VocabulariesStore(this.db).get(accountId, id) : undefined;
    if (!found) throw new NotFoundError('vocabulary', id);
    const words = type ? found.words.filter((w) => w.type === type) : found.words;
    return { record: found.record, items: words.slice(page.page * page.size, (page.page + 1) * page.size), totalCount: words.length };
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!GUID.test(id) || (await new VocabulariesStore(this.db).delete(accountId, { id })) === 0) throw new NotFoundError('vocabulary', id);
  }

  /** Bulk delete needs a filter, like the original's (400 SomeParametersRequired otherwise). */
  async deleteMatching(accountId: string, filter: VocabularyFilter): Promise<number> {
    if (filter.dataSourceName === undefined && filter.sessionId === undefined) {
      throw new ValidationError({ dataSource: ['a dataSource or createdFromSession filter is required'] }, 'Some vocabulary selection parameters are required.', 'SomeParametersRequired');
    }
    if (filter.sessionId !== undefined && !GUID.test(filter.sessionId)) return 0;
    return new VocabulariesStore(this.db).delete(accountId, filter);
  }
}
