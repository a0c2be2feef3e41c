import type { FastifyRequest } from 'fastify';
import { isPlainObject, mergeQueryAndBody, parseBool, parseEnum, parseInteger, parseMulti, pick, pickEntry, pickString, wrongType, type Parsed } from '../domain/lenient.js';
import { parseWrittenDate, type WrittenDate } from '../domain/dates.js';
import { readMissingValues } from '../domain/missing-values.js';
import { normalizeColumnMap, type ColumnPatchMap } from '../domain/columns.js';
import { labelProblem } from '../domain/resource-names.js';
import { ValidationError } from '../service/errors.js';

/**
 * Reads request parameters the lenient way every endpoint shares (compat-notes §2.2): query and
 * JSON body merged (body wins), names in any letter case, aliases, booleans as strings, enum
 * values in any case or as .NET integers, dates in the accepted formats. Problems are collected
 * per parameter and thrown together as one 400 RequestValidation.
 */
export class Params {
  private readonly errors: Record<string, string[]> = {};

  /**
   * `jsonKeys`: the keys whose values came from a JSON body (by default all of `source`), where a
   * value is typed: a list where one value belongs is a mistake. The other keys came from the query
   * string, where a repeated parameter is a list of texts and the last one counts, as ASP.NET read it.
   */
  constructor(readonly source: Record<string, unknown>, private readonly jsonKeys: ReadonlySet<string> = new Set(Object.keys(source))) {}

  /** Where a nested object's problems go (`nested`): to its parent, under `<object>.<name>`. */
  private parent?: { params: Params; name: string };

  /** Query and (object) body merged; a non-object body is left to the route. */
  static of(req: FastifyRequest, opts: { body?: boolean } = {}): Params {
    const body = opts.body === false ? undefined : req.body;
    const merged = mergeQueryAndBody(req.query, isPlainObject(body) || body === undefined || body === null || body === '' ? body : {});
    if (!merged.ok) throw ValidationError.of('body', merged.error);
    return new Params(merged.value, new Set(isPlainObject(body) ? Object.keys(body) : []));
  }

  static query(req: FastifyRequest): Params {
    return new Params(isPlainObject(req.query) ? (req.query as Record<string, unknown>) : {}, new Set());
  }

  /** The value as sent (a repeated query parameter as its list of texts). */
  raw(...names: string[]): unknown {
    return pick(this.source, ...names);
  }

  /** The one value of a parameter: a repeated query parameter gives its last; a JSON value is kept as it is. */
  private single(names: string[]): unknown {
    const found = pickEntry(this.source, ...names);
    if (found === undefined) return undefined;
    const [key, v] = found;
    return Array.isArray(v) && !this.jsonKeys.has(key) ? pickString({ [key]: v }, key) : v;
  }

  /** A text parameter; a JSON number is taken as its text (a column named 2017), any other type is a 400 naming it. */
  str(name: string, ...aliases: string[]): string | undefined {
    const v = this.single([name, ...aliases]);
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v.trim() === '' ? undefined : v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    this.fail(name, `${name} ${wrongType('text', v)}`);
    return undefined;
  }

  /**
   * Markers for a missing value (domain/missing-values.ts): a JSON list, or in a query string repeated
   * or comma-separated as the dashboard's form took them; undefined when not sent.
   */
  missingValues(name = 'missingValues'): string[] | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    const read = readMissingValues(typeof v === 'string' ? v.split(',') : v);
    if ('markers' in read) return read.markers;
    this.fail(name, read.problem);
    return undefined;
  }

  /** A name given in the body (a session's name, an impact's eventName): one line of at most 200 characters (domain/resource-names.ts). */
  label(name: string): string | undefined {
    const v = this.str(name);
    const problem = v === undefined ? undefined : labelProblem(v, name);
    if (problem) this.fail(name, problem);
    return problem ? undefined : v;
  }

  /** `label`, required. */
  requiredLabel(name: string): string {
    const v = this.required(name);
    const problem = v === '' ? undefined : labelProblem(v, name);
    if (problem) this.fail(name, problem);
    return v;
  }

  required(name: string, ...aliases: string[]): string {
    const v = this.str(name, ...aliases);
    // A value of the wrong type has been said as such: "required" would tell the client it sent nothing.
    if (v === undefined && this.errors[name] === undefined) this.fail(name, `${name} is required`);
    return v ?? '';
  }

  bool(name: string, ...aliases: string[]): boolean | undefined {
    return this.take(name, parseBool(this.single([name, ...aliases])));
  }

  int(name: string, min: number, max: number): number | undefined {
    return this.take(name, parseInteger(this.single([name]), min, max));
  }

  /** A parameter read by a lenient parser of its own (domain/lenient.ts's Parsed), its problems named by it. */
  parsed<T>(name: string, parse: (v: unknown) => Parsed<T>): T | undefined {
    return this.take(name, parse(this.single([name])));
  }

  enumOf<T extends string>(name: string, allowed: readonly T[], dotnetInts?: Record<number, T>, ...aliases: string[]): T | undefined {
    return this.take(name, parseEnum(this.single([name, ...aliases]), allowed, dotnetInts));
  }

  /** A date parameter as epoch ms; a value that is not a date is a RequestValidation error naming it. */
  date(name: string, ...aliases: string[]): number | undefined {
    return this.writtenDate(name, ...aliases)?.utcMs;
  }

  /** A date parameter with the UTC offset it was written with, for dates that count on the day as written (series sessions). */
  writtenDate(name: string, ...aliases: string[]): WrittenDate | undefined {
    const v = this.str(name, ...aliases);
    if (v === undefined) return undefined;
    const d = parseWrittenDate(v);
    if (d === null) this.fail(name, `The value '${v}' is not a valid date.`);
    return d ?? undefined;
  }

  multi(name: string, ...aliases: string[]): string[] {
    return parseMulti(this.raw(name, ...aliases));
  }

  /**
   * Column metadata (`columns`): column name → patch; each problem named `columns.<column>`, and a
   * value that is not an object named `columns`.
   */
  columns(name = 'columns'): ColumnPatchMap {
    const v = this.raw(name);
    if (v !== undefined && !isPlainObject(v)) {
      this.fail(name, `${name} ${wrongType('an object mapping column names to metadata', v)}`);
      return {};
    }
    const read = normalizeColumnMap(v);
    for (const [column, problems] of Object.entries(read.errors)) for (const m of problems) this.fail(`${name}.${column}`, m);
    return read.columns;
  }

  /**
   * The parameters inside an object parameter (extraParameters), read the same way; their problems are
   * this request's, named `extraParameters.balance`. Undefined when not sent; a value that is not an
   * object is a 400 naming it.
   */
  nested(name: string): Params | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!isPlainObject(v)) {
      this.fail(name, `${name} ${wrongType('an object', v)}`);
      return undefined;
    }
    const inner = new Params(v);
    inner.parent = { params: this, name };
    return inner;
  }

  fail(name: string, message: string): void {
    if (this.parent) this.parent.params.fail(`${this.parent.name}.${name}`, message);
    else (this.errors[name] ??= []).push(message);
  }

  get valid(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  /** Throws the collected problems, if any. Call once all parameters are read. */
  check(): void {
    if (!this.valid) throw new ValidationError({ ...this.errors });
  }

  private take<T>(name: string, p: Parsed<T>): T | undefined {
    if (p.ok) return p.value;
    // A wrong type is said of its subject ('must be true or false, not a list'): name it.
    this.fail(name, p.error.startsWith('must be ') ? `${name} ${p.error}` : p.error);
    return undefined;
  }
}
