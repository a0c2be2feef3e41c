/**
 * Content negotiation on `Accept` (RFC 9110 §12.5.1): every API route answers JSON, the per-row
 * routes marked `config.csv` CSV too. A type's quality is the q of the most specific range naming
 * it (`text/csv;q=0.1, application/json` prefers JSON; `application/json;q=0, *\/*` refuses JSON);
 * a request that accepts none of a route's types is answered 406 in the error shape.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers `text/csv` as well as JSON when the client prefers it. */
    csv?: boolean;
  }
}

export const JSON_TYPE = 'application/json';
export const CSV_TYPE = 'text/csv';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Where the client listed it: among equal qualities the one it listed first wins. */
  position: number;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/** The ranges of an Accept header; a malformed range is skipped, as if the client had not sent it. */
function mediaRanges(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  header.split(',').forEach((part, position) => {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype, extra] = (range ?? '').toLowerCase().split('/');
    if (!type || !subtype || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return;
    let q = 1;
    for (const p of params) {
      const [name, value] = p.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q') continue;
      if (value === undefined || !QVALUE.test(value)) return;
      q = Number(value);
      break;
    }
    out.push({ type, subtype, q, position });
  });
  return out;
}

/** How specifically `r` names `type/subtype`: 2 exactly, 1 by `type/*`, 0 by `*\/*`, -1 not at all. */
function specificity(r: MediaRange, type: string, subtype: string): number {
  if (r.type === type && r.subtype === subtype) return 2;
  if (r.type === type && r.subtype === '*') return 1;
  if (r.type === '*') return 0;
  return -1;
}

interface Acceptance {
  q: number;
  specificity: number;
  position: number;
}

/** The q the client gives `mediaType`: that of the most specific range naming it (0 when none does). */
function acceptance(ranges: MediaRange[], mediaType: string): Acceptance {
  const [type, subtype] = mediaType.split('/') as [string, string];
  let best: Acceptance = { q: 0, specificity: -1, position: Infinity };
  for (const r of ranges) {
    const s = specificity(r, type, subtype);
    if (s > best.specificity) best = { q: r.q, specificity: s, position: r.position };
  }
  return best;
}

/**
 * Which of `offered` (in the server's order of preference) to answer with: the highest quality, then
 * the more specifically named, then the one the client listed first; null when the client accepts none.
 * No Accept header, or one with no well-formed range, accepts anything: the first offered.
 */
export function preferredType(header: string | undefined, offered: readonly string[]): string | null {
  const ranges = mediaRanges(header ?? '');
  if (ranges.length === 0) return offered[0] ?? null;
  let chosen: { type: string; a: Acceptance } | null = null;
  for (const type of offered) {
    const a = acceptance(ranges, type);
    if (a.q <= 0) continue;
    const better = chosen === null || a.q > chosen.a.q
      || (a.q === chosen.a.q && (a.specificity > chosen.a.specificity || (a.specificity === chosen.a.specificity && a.position < chosen.a.position)));
    if (better) chosen = { type, a };
  }
  return chosen?.type ?? null;
}

/** The types a route answers with. */
function offeredBy(req: FastifyRequest): string[] {
  return req.routeOptions.config?.csv ? [JSON_TYPE, CSV_TYPE] : [JSON_TYPE];
}

/** Whether a `config.csv` route should answer this request with CSV. */
export function wantsCsv(req: FastifyRequest): boolean {
  return preferredType(req.headers.accept, offeredBy(req)) === CSV_TYPE;
}

/** Routes whose answers are JSON documents (the API and the dashboard's account routes); a DELETE's 204 has no body to negotiate. */
function negotiates(req: FastifyRequest): boolean {
  const url = req.routeOptions.url?.toLowerCase();
  if (url === undefined || req.method === 'DELETE' || req.method === 'OPTIONS') return false;
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/auth/');
}

/** 406 for a request that accepts none of its route's types; installed after authentication, so a stranger learns nothing of a route. */
export function installContentNegotiation(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!negotiates(req)) return;
    const offered = offeredBy(req);
    if (preferredType(req.headers.accept, offered) !== null) return;
    return sendError(reply, {
      statusCode: 406, errorType: 'NotAcceptable',
      message: `This resource is available as ${offered.join(' or ')}, which the Accept header '${req.headers.accept}' does not accept: accept ${offered.join(' or ')} (or */*), or send no Accept header`,
      errorDetails: { accept: req.headers.accept ?? null, available: offered },
    });
  });
}
