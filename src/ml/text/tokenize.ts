/**
 * Text → terms: lower-cased words (letters and digits, inner apostrophes kept so "don't" stays one
 * word), HTML line breaks and tags dropped, one-letter words dropped, stop words removed, then the
 * 1-grams and the 2-grams of the words that remain (joined by a space).
 */
import { ENGLISH_STOP_WORDS } from './stop-words.js';

const TAG = /<[^>]{0,200}>/g;
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

export interface Tokens {
  /** 1-grams then 2-grams, in document order, repeated as often as they occur. */
  terms: string[];
  /** Stop words met in the text (each once). */
  stopWords: Set<string>;
}

export function tokenize(text: string, stopWords: ReadonlySet<string> = ENGLISH_STOP_WORDS): Tokens {
  const words: string[] = [];
  const stops = new Set<string>();
  const clean = text.replace(TAG, ' ').replace(/[\u2018\u2019]/g, "'").toLowerCase();
  for (const m of clean.matchAll(WORD)) {
    const w = m[0];
    if (w.length < 2) continue;
    if (stopWords.has(w)) { stops.add(w); continue; }
    words.push(w);
  }
  const terms = words.slice();
  for (let i = 1; i < words.length; i++) terms.push(`${words[i - 1]} ${words[i]}`);
  return { terms, stopWords: stops };
}
