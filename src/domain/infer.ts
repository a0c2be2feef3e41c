/**
 * Column metadata in effect for a dataset or session: inferred from the data's profiles, then
 * overridden by what was stored and what the request declares (spec "Column metadata", "Record
 * identity"; compat-notes §4.5 "Inference seen on the wire").
 */
import { defaultStrategies, isNumericType, type ColumnMap, type ColumnMetadata, type ColumnPatch, type ColumnPatchMap, type DataType, type Role } from './columns.js';
import type { ColumnProfile } from './profile.js';

type DeclaredLayer = ColumnMap | ColumnPatchMap;

/**
 * Metadata suggested by the data. `declared` is the stored and requested metadata, lowest priority
 * first ([stored, requested]): declared types steer the roles, and a declared timestamp or
 * key role suppresses timestamp inference, as the spec requires.
 *
 * Roles: the single date column with unique values (and no missing ones) is the timestamp when
 * nothing declares an identity; in such a time series a sole numeric column is the target unless
 * a target is declared (numeric columns declared with role none or key do not count); other
 * numeric, string, logical and text columns are features; other date columns and all-missing
 * columns get no role (null).
 */
export function inferColumns(profiles: Record<string, ColumnProfile>, declared: readonly DeclaredLayer[] = []): ColumnMap {
  const highestFirst = [...declared].reverse();
  const declaredType = (name: string) => firstDefined(highestFirst.map((d) => d[name]?.dataType));
  const declaredRole = (name: string) => firstDefined(highestFirst.map((d) => d[name]?.role));
  const names = Object.keys(profiles);
  const typeOf = (name: string): DataType => declaredType(name) ?? profiles[name].dataType;
  const declaredRoles = [...new Set(declared.flatMap(Object.keys))].map(declaredRole);

  let timestamp: string | undefined = names.find((n) => declaredRole(n) === 'timestamp');
  if (!declaredRoles.includes('timestamp') && !declaredRoles.includes('key')) {
    const candidates = names.filter((n) => typeOf(n) === 'date' && profiles[n].uniqueDates);
    if (candidates.length === 1) timestamp = candidates[0];
  }
  const timeSeries = timestamp !== undefined || declaredRoles.includes('timestamp');
  const numbers = names.filter((n) => n !== timestamp && isNumericType(typeOf(n)) && declaredRole(n) !== 'none' && declaredRole(n) !== 'key');
  const target = timeSeries && numbers.length === 1 && !declaredRoles.includes('target') ? numbers[0] : undefined;

  const out: ColumnMap = {};
  for (const name of names) {
    const profile = profiles[name];
    const type = typeOf(name);
    let role: Role | null;
    if (name === timestamp) role = 'timestamp';
    else if (name === target) role = 'target';
    else if (profile.present === 0 || type === 'date') role = null;
    else role = 'feature';
    const meta: ColumnMetadata = { dataType: profile.dataType, role };
    if (profile.zeroOne) {
      // The original service reported 0/1 columns as numeric but imputed and aggregated them by mode.
      meta.imputation = 'mode';
      meta.aggregation = 'mode';
    }
    out[name] = meta;
  }
  return out;
}

type Layer = ColumnMetadata | ColumnPatch | undefined;

/**
 * Request overrides stored overrides inferred, field by field. Strategies are taken only from
 * the layer that decided the data type or a higher one, so a type change in the request does not
 * keep strategies meant for the old type; missing strategies get the type's defaults. Columns
 * only declared (a metadata-only PUT creating an empty keyed dataset) get type 'date' for a
 * timestamp role, else 'string', the type that accepts any value.
 */
export function mergeColumns(inferred: ColumnMap, stored?: DeclaredLayer, requested?: ColumnPatchMap): ColumnMap {
  const names = [...new Set([...Object.keys(stored ?? {}), ...Object.keys(inferred), ...Object.keys(requested ?? {})])];
  const out: ColumnMap = {};
  for (const name of names) {
    // Highest priority first.
    const layers: Layer[] = [requested?.[name], stored?.[name], inferred[name]];
    const role = firstDefined(layers.map((l) => l?.role)) ?? null;
    const roleLayer = layers.findIndex((l) => l?.role != null);
    const typeLayer = layers.findIndex((l) => l?.dataType != null);
    // Declaring a column the timestamp declares it dates (a column of years is inferred numeric),
    // unless the same declaration or a higher one gives another type.
    const timestampDeclared = role === 'timestamp' && (typeLayer < 0 || typeLayer > roleLayer);
    const dataType = timestampDeclared ? 'date' : typeLayer >= 0 ? layers[typeLayer]!.dataType! : 'string';
    const eligible = typeLayer >= 0 ? layers.slice(0, typeLayer + 1) : layers;
    const defaults = defaultStrategies(dataType);
    out[name] = {
      dataType,
      role,
      imputation: firstDefined(eligible.map((l) => l?.imputation)) ?? defaults.imputation,
      aggregation: firstDefined(eligible.map((l) => l?.aggregation)) ?? defaults.aggregation,
    };
  }
  return out;
}

function firstDefined<T>(values: readonly (T | null | undefined)[]): T | undefined {
  for (const v of values) if (v !== undefined && v !== null) return v;
  return undefined;
}

export type Identity = { kind: 'key'; column: string } | { kind: 'timestamp'; column: string } | { kind: 'none' };

/**
 * What makes an uploaded row replace a stored one. A key is an explicit choice of row identity,
 * so it wins over a timestamp when both are declared; without either, rows are appended.
 */
export function findIdentity(columns: ColumnMap): Identity {
  const entries = Object.entries(columns);
  const key = entries.find(([, c]) => c.role === 'key');
  if (key) return { kind: 'key', column: key[0] };
  const timestamp = entries.find(([, c]) => c.role === 'timestamp');
  if (timestamp) return { kind: 'timestamp', column: timestamp[0] };
  return { kind: 'none' };
}
