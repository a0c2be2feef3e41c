/**
 * Column metadata: the vocabulary of data types, roles and missing-value/aggregation strategies
 * (compat-notes §4.5), and reading it leniently from any client.
 */
import { isAbsent, isPlainObject, parseEnum, pick, wrongType } from './lenient.js';

export const DATA_TYPES = ['numeric', 'numericMeasure', 'string', 'logical', 'date', 'text'] as const;
export const ROLES = ['target', 'feature', 'timestamp', 'key', 'none'] as const;
export const IMPUTATIONS = ['zeroes', 'mean', 'median', 'mode', 'min', 'max'] as const;
export const AGGREGATIONS = ['sum', 'mean', 'median', 'mode', 'min', 'max'] as const;

export type DataType = (typeof DATA_TYPES)[number];
export type Role = (typeof ROLES)[number];
export type Imputation = (typeof IMPUTATIONS)[number];
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The two numeric data types: numeric (whole numbers, as inferred) and numericMeasure (decimals). */
export function isNumericType(t: string): boolean {
  return t === 'numeric' || t === 'numericMeasure';
}

// The .NET client serialises these enums as integers (Api.Client/Model/ColumnMetadata.cs).
const DOTNET_DATA_TYPES: Record<number, DataType> = { [-1]: 'numericMeasure', 0: 'string', 1: 'numeric', 2: 'logical', 3: 'date', 4: 'text' };
const DOTNET_IMPUTATIONS: Record<number, Imputation> = { 0: 'zeroes', 1: 'mean', 2: 'median', 3: 'mode' };
const DOTNET_AGGREGATIONS: Record<number, Aggregation> = { 0: 'sum', 1: 'mean', 2: 'median', 3: 'mode', 4: 'min', 5: 'max' };

/** Metadata in effect for a column. Null strategies: the type has none (date, text). */
export interface ColumnMetadata {
  dataType: DataType;
  role: Role | null;
  imputation?: Imputation | null;
  aggregation?: Aggregation | null;
}

export type ColumnMap = Record<string, ColumnMetadata>;

/** What a client declared for a column: any subset of the fields. */
export interface ColumnPatch {
  dataType?: DataType;
  role?: Role;
  imputation?: Imputation;
  aggregation?: Aggregation;
}

export type ColumnPatchMap = Record<string, ColumnPatch>;

export interface NormalizedColumns {
  columns: ColumnPatchMap;
  /** Column name → messages naming the field and the rejected value. Empty when all is well. */
  errors: Record<string, string[]>;
}

/**
 * Reads a `columns` object as any client sends it: property names in any case (`DataType`,
 * `Role`), enum values in any case or as .NET integers. Null or empty fields mean "not declared"
 * (Python sends every field, unset ones as null), as does a null or absent map; unknown fields
 * are ignored.
 */
export function normalizeColumnMap(input: unknown): NormalizedColumns {
  const columns: ColumnPatchMap = {};
  const errors: Record<string, string[]> = {};
  if (isAbsent(input)) return { columns, errors };
  if (!isPlainObject(input)) return { columns, errors: { columns: [`columns ${wrongType('an object mapping column names to metadata', input)}`] } };
  for (const [name, raw] of Object.entries(input)) {
    if (isAbsent(raw)) {
      columns[name] = {};
      continue;
    }
    if (!isPlainObject(raw)) {
      errors[name] = [`metadata for column '${name}' ${wrongType('an object (dataType, role, imputation, aggregation)', raw)}`];
      continue;
    }
    const patch: ColumnPatch = {};
    const problems: string[] = [];
    const read = <T extends string>(field: keyof ColumnPatch, allowed: readonly T[], ints?: Record<number, T>): T | undefined => {
      const r = parseEnum(pick(raw, field), allowed, ints);
      if (r.ok) return r.value;
      problems.push(`${field} of column '${name}': ${r.error}`);
      return undefined;
    };
    const dataType = read('dataType', DATA_TYPES, DOTNET_DATA_TYPES);
    const role = read('role', ROLES);
    const imputation = read('imputation', IMPUTATIONS, DOTNET_IMPUTATIONS);
    const aggregation = read('aggregation', AGGREGATIONS, DOTNET_AGGREGATIONS);
    if (dataType) patch.dataType = dataType;
    if (role) patch.role = role;
    if (imputation) patch.imputation = imputation;
    if (aggregation) patch.aggregation = aggregation;
    if (problems.length) errors[name] = problems;
    else columns[name] = patch;
  }
  return { columns, errors };
}

export interface Strategies {
  imputation: Imputation | null;
  aggregation: Aggregation | null;
}

/** Defaults by data type (docs column-metadata.md; asserted by the Python and .NET suites). */
export function defaultStrategies(dataType: DataType): Strategies {
  switch (dataType) {
    case 'numeric': return { imputation: 'zeroes', aggregation: 'sum' };
    case 'numericMeasure': return { imputation: 'mean', aggregation: 'mean' };
    case 'logical':
    case 'string': return { imputation: 'mode', aggregation: 'mode' };
    case 'date':
    case 'text': return { imputation: null, aggregation: null };
  }
}

/**
 * Wire form of a column map: types without strategies (date, text) omit the two fields, as in
 * `{"time":{"dataType":"date","role":"timestamp"}}`; `role` stays, null when none was inferred.
 */
export function columnsToJson(columns: ColumnMap): Record<string, Record<string, string | null>> {
  const out: Record<string, Record<string, string | null>> = {};
  for (const [name, c] of Object.entries(columns)) {
    const json: Record<string, string | null> = { dataType: c.dataType, role: c.role };
    if (c.imputation) json.imputation = c.imputation;
    if (c.aggregation) json.aggregation = c.aggregation;
    out[name] = json;
  }
  return out;
}

/**
 * The column a client means by `name`: the one of that name, else the only one whose name differs
 * in letter case (the original service matched `targetColumn` that way: the Python client trains
 * on `profit` for a column `Profit`). Undefined when there is none or the case is ambiguous.
 */
export function columnNamed(columns: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(columns, name)) return name;
  const lower = name.toLowerCase();
  const matches = Object.keys(columns).filter((c) => c.toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}
