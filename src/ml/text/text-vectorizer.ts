/**
 * Tf-idf features of one text column, learned from training rows only:
 * 1. every term (1- and 2-grams, stop words removed: tokenize.ts) counted by document frequency;
 *    terms in fewer than `minDocs` documents or in more than `maxDocShare` of them are dropped;
 * 2. the rest ranked against the target: χ² of term presence × class (classification), or the
 *    squared correlation of presence with the value (regression); by document frequency when
 *    there is no target (anomalies); the best `maxTerms` are kept, rank 0 = strongest, as the original service numbered them;
 * 3. each document becomes (1 + ln tf) · idf per kept term, idf = ln((1 + n) / (1 + df)) + 1
 *    (scikit-learn's smoothed idf), the row scaled to unit length.
 * The fitted vocabulary (terms, idf, ranks, stop words met) is plain JSON, saved with the model so
 * prediction applies exactly the same features.
 */
import { tokenize } from './tokenize.js';

export interface TextTarget {
  /** Class index or value per training row (NaN = unknown). */
  y: ArrayLike<number>;
  /** Number of classes; 0 for regression. */
  classes: number;
}

export interface TextVectorizerOptions {
  minDocs?: number;
  maxDocShare?: number;
  /** Default: half the documents, between 50 and 1,000, and at most MAX_CELLS / documents. */
  maxTerms?: number;
}

export interface SerializedTextVectorizer {
  /** Kept terms, strongest first (rank = position). */
  terms: string[];
  idf: number[];
  /** The selection score of each kept term (χ², r², or document frequency). */
  scores: number[];
  /** Stop words that occurred in the training text. */
  stopWords: string[];
  selection: 'chi2' | 'r2' | 'documentFrequency';
}

/** A term of a vocabulary: `word` = a feature of the model (rank 0 = strongest); `stopWord` = not used (no rank, as the original service wrote it). */
export interface VocabularyWord {
  text: string;
  type: 'word' | 'stopWord';
  rank?: number;
}

/** At most this many of the terms left out by the ranking are listed as stop words (the strongest first). */
const MAX_LISTED_DROPPED = 2000;
/** Dense tf-idf columns cost rows × terms cells: at most this many per text column (160 MB of doubles). */
const MAX_CELLS = 20_000_000;

export class TextVectorizer {
  private readonly index: Map<string, number>;

  /**
   * `dropped`: terms that passed the document-frequency filter but not the ranking (known only
   * right after fitting; listed in the vocabulary, not saved with the model, which never uses them).
   */
  constructor(readonly state: SerializedTextVectorizer, private readonly dropped: string[] = []) {
    this.index = new Map(state.terms.map((t, j) => [t, j]));
  }

  get terms(): string[] {
    return this.state.terms;
  }

  /** Dense columns, one per kept term (documents × terms is small once selected). */
  transform(texts: ArrayLike<string | null | undefined>, n: number): Float64Array[] {
    const k = this.state.terms.length;
    const cols = Array.from({ length: k }, () => new Float64Array(n));
    const counts = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const text = texts[i];
      if (text == null || text === '') continue;
      counts.clear();
      for (const term of tokenize(text).terms) {
        const j = this.index.get(term);
        if (j !== undefined) counts.set(j, (counts.get(j) ?? 0) + 1);
      }
      let norm = 0;
      for (const [j, tf] of counts) {
        const v = (1 + Math.log(tf)) * this.state.idf[j]!;
        counts.set(j, v);
        norm += v * v;
      }
      norm = Math.sqrt(norm);
      for (const [j, v] of counts) cols[j]![i] = v / norm;
    }
    return cols;
  }

  /** The kept terms by rank, then what the model does not use: the stop words met and the terms the ranking left out. */
  vocabulary(): VocabularyWord[] {
    return [
      ...this.state.terms.map((text, j) => ({ text, type: 'word' as const, rank: j })),
      ...this.state.stopWords.map((text) => ({ text, type: 'stopWord' as const })),
      ...this.dropped.map((text) => ({ text, type: 'stopWord' as const })),
    ];
  }

  toJSON(): SerializedTextVectorizer {
    return this.state;
  }
}

export function fitTextVectorizer(
  texts: ArrayLike<string | null | undefined>,
  target: TextTarget | undefined,
  options: TextVectorizerOptions = {},
): TextVectorizer {
  const n = texts.length;
  const minDocs = options.minDocs ?? Math.max(2, Math.ceil(n * 0.002));
  const maxDocs = Math.floor((options.maxDocShare ?? 0.9) * n);
  const maxTerms = options.maxTerms ?? Math.max(50, Math.min(1000, Math.round(n / 2), Math.floor(MAX_CELLS / Math.max(1, n))));
  // Document sets of every term (indices ascending), to count frequencies and, per class, presence.
  const docs = new Map<string, number[]>();
  const stopWords = new Set<string>();
  for (let i = 0; i < n; i++) {
    const text = texts[i];
    if (text == null || text === '') continue;
    const tokens = tokenize(text);
    for (const s of tokens.stopWords) stopWords.add(s);
    for (const term of new Set(tokens.terms)) {
      const list = docs.get(term);
      if (list) list.push(i);
      else docs.set(term, [i]);
    }
  }
  const candidates = [...docs].filter(([, d]) => d.length >= minDocs && d.length <= maxDocs);
  const usable = target ? usableRows(target.y, n) : null;
  const selection: SerializedTextVectorizer['selection'] = !target || !usable ? 'documentFrequency' : target.classes > 0 ? 'chi2' : 'r2';
  const score = selection === 'chi2' ? chi2Scorer(target!, usable!) : selection === 'r2' ? r2Scorer(target!, usable!) : (d: number[]) => d.length;
  const scored = candidates.map(([term, d]) => ({ term, df: d.length, score: score(d) }));
  // Ties broken by document frequency, then by the term itself: the same data gives the same vocabulary.
  scored.sort((a, b) => b.score - a.score || b.df - a.df || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  const kept = scored.slice(0, maxTerms);
  return new TextVectorizer({
    terms: kept.map((t) => t.term),
    idf: kept.map((t) => Math.log((1 + n) / (1 + t.df)) + 1),
    scores: kept.map((t) => t.score),
    stopWords: [...stopWords].sort(),
    selection,
  }, scored.slice(maxTerms, maxTerms + MAX_LISTED_DROPPED).map((t) => t.term));
}

function usableRows(y: ArrayLike<number>, n: number): Uint8Array | null {
  const ok = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(y[i]!)) { ok[i] = 1; count++; }
  return count >= 2 ? ok : null;
}

/** χ² of the term-present × class table (presence is the binary feature). */
function chi2Scorer(target: TextTarget, ok: Uint8Array): (docs: number[]) => number {
  const k = target.classes;
  const classCount = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < ok.length; i++) if (ok[i]) { classCount[target.y[i]!]!++; total++; }
  const present = new Float64Array(k);
  return (docs) => {
    present.fill(0);
    let a = 0;
    for (const i of docs) if (ok[i]) { present[target.y[i]!]!++; a++; }
    if (a === 0 || a === total) return 0;
    let chi2 = 0;
    for (let c = 0; c < k; c++) {
      if (classCount[c] === 0) continue;
      const e1 = (a * classCount[c]!) / total;
      const e0 = ((total - a) * classCount[c]!) / total;
      const o1 = present[c]!;
      const o0 = classCount[c]! - o1;
      chi2 += ((o1 - e1) ** 2) / e1 + ((o0 - e0) ** 2) / e0;
    }
    return chi2;
  };
}

/** Squared correlation between term presence and the target value. */
function r2Scorer(target: TextTarget, ok: Uint8Array): (docs: number[]) => number {
  let n = 0, sum = 0, sum2 = 0;
  for (let i = 0; i < ok.length; i++) if (ok[i]) { const v = target.y[i]!; n++; sum += v; sum2 += v * v; }
  const varY = sum2 - (sum * sum) / n;
  return (docs) => {
    let a = 0, sy = 0;
    for (const i of docs) if (ok[i]) { a++; sy += target.y[i]!; }
    if (a === 0 || a === n || varY <= 0) return 0;
    // cov(x, y)·n = sy − a·ȳ; var(x)·n = a(n − a)/n
    const cov = sy - (a * sum) / n;
    const varX = (a * (n - a)) / n;
    return (cov * cov) / (varX * varY);
  };
}
