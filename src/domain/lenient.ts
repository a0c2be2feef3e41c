/**
 * Lenient reading of client input. The original service (.NET) accepted property names in any
 * case, enum values in any case or as .NET integers, booleans as strings, and treated null and
 * empty strings as "not sent"; unmodified clients rely on all of it (compat-notes §2.2).
 */

/** Outcome of reading one input value: `value` is undefined when the input was absent. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (error: string): Parsed<never> => ({ ok: false, error });

/** Python sends `null`, Ruby and Python send `param=` for "no value": both mean absent. */
export function isAbsent(v: unknown): v is undefined | null | '' {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The value of the first of `names` present in `obj`, matching property names case-insensitively
 * (an exact match wins over a case-folded one). Absent values (null, '') count as not present,
 * so an alias later in `names` can still supply the value.
 */
export function pick(obj: unknown, ...names: string[]): unknown {
  return pickEntry(obj, ...names)?.[1];
}

/** `pick`, with the key as the client spelled it. */
export function pickEntry(obj: unknown, ...names: string[]): [string, unknown] | undefined {
  if (!isPlainObject(obj)) return undefined;
  for (const name of names) {
    if (!isAbsent(obj[name])) return [name, obj[name]];
    const folded = name.toLowerCase();
    for (const key of Object.keys(obj)) {
      if (key.toLowerCase() === folded && !isAbsent(obj[key])) return [key, obj[key]];
    }
  }
  return undefined;
}

/** What kind of JSON value `v` is, in words: 'a list', 'an object', 'a number', 'true or false', 'text'. */
export function kindOfValue(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object' && v !== null) return 'an object';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'true or false';
  return 'text';
}

const SHOWN_LENGTH = 100;

/** A value as a message quotes it: its JSON (a text in single quotes), cut to 100 characters. */
export function shownValue(v: unknown): string {
  const text = typeof v === 'string' ? `'${v}'` : JSON.stringify(v) ?? String(v);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 1)}…` : text;
}

/** The message for a value of the wrong JSON type, after its subject: what was expected, what kind came, and the value. */
export function wrongType(expected: string, v: unknown): string {
  return `must be ${expected}, not ${kindOfValue(v)}: got ${shownValue(v)}`;
}

/**
 * A single string parameter: numbers are stringified (query strings and JSON disagree on types);
 * a repeated query parameter yields its last value, as ASP.NET model binding did.
 */
export function pickString(obj: unknown, ...names: string[]): string | undefined {
  let v = pick(obj, ...names);
  if (Array.isArray(v)) v = v.filter((x) => !isAbsent(x)).at(-1);
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** true/false in any case, as JSON booleans or strings ("True" from .NET), and 1/0. */
export function parseBool(v: unknown): Parsed<boolean | undefined> {
  if (isAbsent(v)) return ok(undefined);
  if (typeof v === 'boolean') return ok(v);
  if (v === 1 || v === 0) return ok(v === 1);
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true' || s === '1') return ok(true);
    if (s === 'false' || s === '0') return ok(false);
    return fail(`'${v}' is not a boolean (true or false)`);
  }
  return fail(wrongType('true or false', v));
}

/**
 * One of `allowed`, matched case-insensitively and returned in its canonical spelling.
 * `dotnetInts` maps the integers .NET clients send for enums without a string converter;
 * they may also arrive as numeric strings in a query.
 */
export function parseEnum<T extends string>(
  v: unknown,
  allowed: readonly T[],
  dotnetInts?: Readonly<Record<number, T>>,
): Parsed<T | undefined> {
  if (isAbsent(v)) return ok(undefined);
  if (dotnetInts) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isInteger(n)) {
      const mapped = dotnetInts[n];
      if (mapped !== undefined) return ok(mapped);
    }
  }
  if (typeof v === 'string') {
    const folded = v.trim().toLowerCase();
    const found = allowed.find((a) => a.toLowerCase() === folded);
    if (found !== undefined) return ok(found);
  }
  if (typeof v !== 'string' && typeof v !== 'number') return fail(wrongType(`one of ${allowed.join(', ')}`, v));
  return fail(`'${String(v)}' is not one of ${allowed.join(', ')}`);
}

/** A whole number in [min, max] (paging), from a JSON number or a query string. */
export function parseInteger(v: unknown, min: number, max: number): Parsed<number | undefined> {
  if (isAbsent(v)) return ok(undefined);
  if (typeof v !== 'string' && typeof v !== 'number') return fail(wrongType('a whole number', v));
  const n = typeof v === 'number' ? v : /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) return fail(`'${String(v)}' is not a whole number`);
  if (n < min || n > max) return fail(`${n} is outside ${min}..${max}`);
  return ok(n);
}

/**
 * Multi-valued query parameters arrive repeated (`include=a&include=b`, Python/.NET/Elm) or
 * comma-joined (`cascade=session,view`, JS URLSearchParams); both give ['a','b'].
 */
export function parseMulti(v: unknown): string[] {
  const parts = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string' && typeof p !== 'number') continue;
    for (const s of String(p).split(',')) {
      const t = s.trim();
      if (t !== '') out.push(t);
    }
  }
  return out;
}

/**
 * Session parameters may come in the query, the body or both; the body wins. Absent values
 * (null, '') are dropped from both so they neither override nor count as sent. Ruby posts the
 * JSON string literal `""` as the body when everything is in the query: that is an empty body.
 * Keys keep their spelling; look them up with `pick`.
 */
export function mergeQueryAndBody(query: unknown, body: unknown): Parsed<Record<string, unknown>> {
  if (isAbsent(body)) body = {};
  if (!isPlainObject(body)) return fail('the request body must be a JSON object');
  const merged: Record<string, unknown> = {};
  const sources = [isPlainObject(query) ? query : {}, body];
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (isAbsent(value)) continue;
      const folded = key.toLowerCase();
      for (const existing of Object.keys(merged)) {
        if (existing.toLowerCase() === folded) delete merged[existing];
      }
      merged[key] = value;
    }
  }
  return ok(merged);
}
