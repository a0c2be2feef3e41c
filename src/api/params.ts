import type { FastifyRequest } from 'fastify';
import { isPlainObject, mergeQueryAndBody, parseBool, parseEnum, parseInteger, parseMulti, pick, pickString, type Parsed } from '../domain/lenient.js';
import { parseWrittenDate, type WrittenDate } from '../domain/dates.js';
import { readMissingValues } from '../domain/missing-values.js';
import { ValidationError } from '../service/errors.js';

/**
 * Reads request parameters the lenient way every endpoint shares (compat-notes §2.2): query and
 * JSON body merged (body wins), names in any letter case, aliases, booleans as strings, enum
 * values in any case or as .NET integers, dates in the accepted formats. Problems are collected
 * per parameter and thrown together as one 400 RequestValidation.
 */
export class Params {
  private readonly errors: Record<string, string[]> = {};

  constructor(readonly source: Record<string, unknown>) {}

  /** Query and (object) body merged; a non-object body is left to the route. */
  static of(req: FastifyRequest, opts: { body?: boolean } = {}): Params {
    const body = opts.body === false ? undefined : req.body;
    const merged = mergeQueryAndBody(req.query, isPlainObject(body) || body === undefined || body === null || body === '' ? body : {});
    if (!merged.ok) throw ValidationError.of('body', merged.error);
    return new Params(merged.value);
  }

  static query(req: FastifyRequest): Params {
    return new Params(isPlainObject(req.query) ? (req.query as Record<string, unknown>) : {});
  }

  raw(...names: string[]): unknown {
    return pick(this.source, ...names);
  }

  str(...names: string[]): string | undefined {
    return pickString(this.source, ...names);
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

  required(name: string, ...aliases: string[]): string {
    const v = this.str(name, ...aliases);
    if (v === undefined) this.fail(name, `${name} is required`);
    return v ?? '';
  }

  bool(name: string, ...aliases: string[]): boolean | undefined {
    return this.take(name, parseBool(this.raw(name, ...aliases)));
  }

  int(name: string, min: number, max: number): number | undefined {
    return this.take(name, parseInteger(this.raw(name), min, max));
  }

  enumOf<T extends string>(name: string, allowed: readonly T[], dotnetInts?: Record<number, T>, ...aliases: string[]): T | undefined {
    return this.take(name, parseEnum(this.raw(name, ...aliases), allowed, dotnetInts));
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

  fail(name: string, message: string): void {
    (this.errors[name] ??= []).push(message);
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
    this.fail(name, p.error);
    return undefined;
  }
}
