/**
 * The prediction domain a target column suggests, so that the model form does not start a
 * classification of a measurement (concrete's compressive strength, 845 different values in 1,030
 * rows: every class too rare to learn, and the session fails). The rule is AutoGluon-Tabular's
 * (infer_problem_type): words and truth values are classes; a number with two values is a class;
 * decimals are a quantity; whole numbers are classes while few of them are different (at most 10 %
 * of the rows, 5 % past 1,000 rows) and a quantity otherwise (counts, prices in whole units).
 */
import type { Column, ColumnStats } from '../types.js';

export type ModelDomain = 'classification' | 'regression';

export interface DomainSuggestion {
  domain: ModelDomain;
  /** Why, in a few words, for the form's hint. */
  reason: string;
}

/** Rows past which the share of different values that still reads as classes is the lower one. */
const LARGE_DATA_ROWS = 1000;

function classShare(rows: number): number {
  return rows > LARGE_DATA_ROWS ? 0.05 : 0.1;
}

/** `stats` may be missing while they load: then whole numbers are taken as classes until counted. */
export function suggestedDomain(column: string, meta: Column, stats?: ColumnStats): DomainSuggestion {
  const numeric = meta.dataType === 'numeric' || meta.dataType === 'numericMeasure';
  if (!numeric) return { domain: 'classification', reason: `'${column}' holds ${meta.dataType === 'logical' ? 'true/false values' : 'words'}: each value is a class.` };
  const rows = stats ? stats.totalCount - stats.missingCount : undefined;
  const distinct = stats?.distinctCount;
  if (distinct !== undefined && distinct <= 2) return { domain: 'classification', reason: `'${column}' holds ${distinct} different values: each is a class.` };
  const counted = distinct !== undefined && rows !== undefined && rows > 0
    ? ` (${distinct.toLocaleString()} different values in ${rows.toLocaleString()} rows)` : '';
  if (meta.dataType === 'numericMeasure') return { domain: 'regression', reason: `'${column}' holds numbers with decimals${counted}: a quantity to predict.` };
  if (distinct === undefined || rows === undefined || rows === 0) return { domain: 'classification', reason: `'${column}' holds whole numbers, taken as classes until its values are counted.` };
  return distinct / rows > classShare(rows)
    ? { domain: 'regression', reason: `'${column}' holds whole numbers${counted}: too many different ones to be classes, so a quantity to predict.` }
    : { domain: 'classification', reason: `'${column}' holds few different whole numbers${counted}: each is a class.` };
}
