/**
 * Feature columns that identify rows rather than describe them, left out of a model's inputs.
 *
 * Text: nearly every training row holds its own value (at least IDENTIFIER_DISTINCT_SHARE of them
 * distinct, as AutoGluon's DropUniqueFeatureGenerator does for categories, at 0.99). A value seen once
 * tells the model nothing about a new row, which holds a value never seen; but trees and one-hot
 * linear models fit the training rows through it (a customer id took 64 % of a churn model's
 * split-gain importance while moving held-out predictions by 1.6 points of probability).
 *
 * Numbers: a column named as an identifier (isIdentifierName: PassengerId, customer_id, ID, index,
 * 'Unnamed: 0') whose every training value is a different whole number. Distinct whole numbers alone
 * are no sign (a price, a population): the name decides. Trees split such a number into ranges of
 * rows; in a file ordered by its target that gives the label away (pima sorted by outcome with a
 * patient number: test ROC AUC 1.0, 95 % of the importance on it), and the rows with the smallest and
 * largest numbers become easier to isolate (carData Mroz with its row numbers: 31 of 207 flagged rows
 * in the first or last 5 %, 18 of 201 without them).
 */
export interface IdentifierColumn {
  column: string;
  /** 'text': a string column; 'number': a numeric column named as an identifier. */
  kind: 'text' | 'number';
  distinct: number;
  rows: number;
}

const IDENTIFIER_DISTINCT_SHARE = 0.99;
/** Shorter tables are left alone: a handful of rows is distinct by chance. */
const MIN_ROWS_FOR_IDENTIFIER = 20;

/**
 * Names that say a column identifies rows: id, index, idx, row/record ids and numbers, exports'
 * unnamed index columns (pandas 'Unnamed: 0', readr '...1'); and names ending in id after a
 * separator or a lower-case letter or digit (customer_id, 'Customer ID', PassengerId, patientID), so
 * that words ending in the letters id (Lipid, humid, PAID) are not taken.
 */
const IDENTIFIER_NAME = /^(?:id|index|idx|row|rowid|row[ ._-]?(?:id|no|num|number)|record[ ._-]?id|obs|unnamed: ?\d+|\.\.\.\d+)$/i;
const ENDS_IN_ID = /(?:[ ._-][iI][dD]|[a-z0-9](?:Id|ID))$/;
const STARTS_WITH_ID = /^id[ ._-]/i;

export function isIdentifierName(name: string): boolean {
  const s = name.trim();
  return IDENTIFIER_NAME.test(s) || ENDS_IN_ID.test(s) || STARTS_WITH_ID.test(s);
}

/** A string column holding its own value in nearly every row; `texts` are its cells as text (missing: null, undefined or blank). */
export function textIdentifier(column: string, texts: Iterable<string | null | undefined>): { identifier?: IdentifierColumn; levels: string[] } {
  const seen = new Set<string>();
  let present = 0;
  for (const v of texts) {
    if (v == null || v.trim() === '') continue;
    seen.add(v);
    present++;
  }
  if (present >= MIN_ROWS_FOR_IDENTIFIER && seen.size >= IDENTIFIER_DISTINCT_SHARE * present) {
    return { identifier: { column, kind: 'text', distinct: seen.size, rows: present }, levels: [] };
  }
  return { levels: [...seen].sort() };
}

/** A numeric column named as an identifier whose present values (`numbers`, NaN missing) are distinct whole numbers. */
export function numberIdentifier(column: string, numbers: ArrayLike<number>): IdentifierColumn | undefined {
  if (!isIdentifierName(column)) return undefined;
  const seen = new Set<number>();
  for (let i = 0; i < numbers.length; i++) {
    const x = numbers[i];
    if (Number.isNaN(x)) continue;
    if (!Number.isInteger(x) || seen.has(x)) return undefined;
    seen.add(x);
  }
  return seen.size >= MIN_ROWS_FOR_IDENTIFIER ? { column, kind: 'number', distinct: seen.size, rows: seen.size } : undefined;
}
