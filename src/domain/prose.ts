/**
 * Whether a column of words holds prose (reviews, descriptions, complaints) rather than categories.
 * The rule is AutoGluon's for a text feature (check_if_nlp_feature): in a sample of the column's cells
 * more than 1 % are different values, and those different values average at least three words. Read
 * as categories, a column of reviews is one level per row: a session left it out as an identifier
 * and, with nothing else to learn from, failed; read as text, its words and word pairs are features.
 *
 * The sample is the first PROSE_SAMPLE present cells (AutoGluon draws 5,000 at random; an upload is a
 * stream, read once). Values are told apart by a 32-bit hash, so the state stays a few thousand numbers
 * however long the cells are: two values of one hash count once, which can only lower the share.
 */
export const PROSE_SAMPLE = 5000;
/** More than this share of the sample's cells different values (AutoGluon's unique_ratio > 0.01). */
const PROSE_DISTINCT_SHARE = 0.01;
/** At least this many words in a different value, on average (AutoGluon's avg_words ≥ 3). */
const PROSE_MEAN_WORDS = 3;
/**
 * Not in AutoGluon's rule: a column of fewer different values is categories however long they are
 * (a licence or a source named in a sentence, 2 values in a table of 104 rows, is over 1 % of it).
 */
const PROSE_MIN_DISTINCT = 20;

/** Evidence that a column holds prose: its sample's size, different values and their mean word count. */
export interface ProseEvidence {
  sampled: number;
  distinct: number;
  meanWords: number;
}

export class ProseTally {
  private cells = 0;
  private words = 0;
  private readonly seen = new Set<number>();

  /** One present cell, as text. */
  add(s: string): void {
    if (this.cells >= PROSE_SAMPLE) return;
    this.cells++;
    const h = fnv1a(s);
    if (this.seen.has(h)) return;
    this.seen.add(h);
    this.words += wordCount(s);
  }

  evidence(): ProseEvidence | undefined {
    const distinct = this.seen.size;
    if (distinct < PROSE_MIN_DISTINCT || distinct <= PROSE_DISTINCT_SHARE * this.cells) return undefined;
    const meanWords = this.words / distinct;
    return meanWords >= PROSE_MEAN_WORDS ? { sampled: this.cells, distinct, meanWords } : undefined;
  }
}

/** Runs of characters other than white space (Python's str.split()). */
export function wordCount(s: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x2028 || c === 0x2029 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
