/**
 * How many columns a data set may have, and how long a column's name may be (and that it is not blank). Much of the work on a
 * data set is per column and some of it per pair of columns (profiles, types, statistics, the
 * metadata every answer about it carries): 250,000 columns in a 3.5 MB CSV held the process for
 * minutes. Uploads are refused with a 400 naming the limit as soon as their header (CSV) or a
 * record (JSON) passes it, before their rows are worked on.
 */
import { ValidationError } from '../errors.js';

export interface ColumnLimits {
  /** Columns per data set (SIBYL_MAX_COLUMNS). */
  maxColumns: number;
  /** Characters per column name. */
  maxNameChars: number;
}

/** Wider than any table a model session learns from in reasonable time, narrow enough for every page about it. */
export const DEFAULT_MAX_COLUMNS = 5_000;
/** Names are labels: a few words, not a cell's worth of text. */
export const MAX_COLUMN_NAME_CHARS = 1_000;

/**
 * Columns described in one page of the data set list: those of four of the widest data sets (20,000
 * by default, a few MB of JSON). The rest are left out; each data set's own page has them.
 */
export function listColumnBudget(limits: ColumnLimits): number {
  return 4 * limits.maxColumns;
}

export const DEFAULT_COLUMN_LIMITS: ColumnLimits = { maxColumns: DEFAULT_MAX_COLUMNS, maxNameChars: MAX_COLUMN_NAME_CHARS };

/** The columns of a data set as an upload adds to them; throws on the name or the column that passes a limit. */
export class ColumnCounter {
  private readonly names: Set<string>;

  constructor(private readonly limits: ColumnLimits, known: Iterable<string> = []) {
    this.names = new Set(known);
  }

  add(name: string): void {
    if (this.names.has(name)) return;
    if (name.trim() === '') throw unnamed(name);
    if (name.length > this.limits.maxNameChars) throw nameTooLong(name, this.limits.maxNameChars);
    this.names.add(name);
    if (this.names.size > this.limits.maxColumns) throw tooManyColumns(this.limits.maxColumns);
  }

  addAll(names: Iterable<string>): void {
    for (const name of names) this.add(name);
  }
}

/** Throws when `names` (with the `known` ones) pass a limit. */
export function checkColumns(names: Iterable<string>, limits: ColumnLimits, known: Iterable<string> = []): void {
  new ColumnCounter(limits, known).addAll(names);
}

/**
 * A CSV header's blank names are named by their position before they get here (csv-rows.ts); a
 * JSON record's blank key would make a column no list of names could show or ask for.
 */
function unnamed(name: string): ValidationError {
  return new ValidationError(
    { columns: [`a column is named ${JSON.stringify(name)}: give every column a name (a JSON record's keys are its column names)`] },
    'A column has no name');
}

function tooManyColumns(max: number): ValidationError {
  return new ValidationError(
    { columns: [`a data set may have at most ${max} columns`] },
    `The data set would have more than ${max} columns, the limit`, 'TooManyColumns');
}

function nameTooLong(name: string, max: number): ValidationError {
  return new ValidationError(
    { columns: [`the column name beginning '${name.slice(0, 40)}…' is ${name.length} characters long; a name may have at most ${max}`] },
    `A column name is longer than ${max} characters, the limit`, 'ColumnNameTooLong');
}
