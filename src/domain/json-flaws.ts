/**
 * What a parsed JSON document may hold that Sibyl cannot keep, found in one walk and named by its
 * place (`data[0].a`), so the caller answers 400 instead of failing later: nesting deep enough to
 * overflow the recursive JSON.stringify of a store (thousands of levels), a NUL character (no
 * stored text can hold one), a `__proto__` key (assigning it to a plain object changes the
 * object's prototype instead of adding a field, so a column of that name would vanish).
 */
export type JsonFlaw = { kind: 'depth' | 'nul' | 'protoKey'; path: string };

/** Deep enough for any body Sibyl reads (records are 3 levels, extraParameters a few), far below what breaks recursion. */
export const MAX_JSON_DEPTH = 64;

export interface JsonInspection {
  flaw?: JsonFlaw;
  /** A number JSON.parse read as ±Infinity (`1e400`): see keepOverflowingNumbers. */
  overflow: boolean;
}

export function inspectJson(root: unknown): JsonInspection {
  const state = { overflow: false, kind: undefined as JsonFlaw['kind'] | undefined };
  const path = walk(root, 0, state);
  return path ? { flaw: { kind: state.kind!, path: formatPath(path) }, overflow: state.overflow } : { overflow: state.overflow };
}

/** The place of the first flaw, innermost segment first; recursion is safe since it stops at MAX_JSON_DEPTH. */
function walk(v: unknown, depth: number, state: { overflow: boolean; kind: JsonFlaw['kind'] | undefined }): (string | number)[] | undefined {
  if (typeof v === 'string') {
    if (v.includes('\0')) { state.kind = 'nul'; return []; }
    return undefined;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) state.overflow = true;
    return undefined;
  }
  if (v === null || typeof v !== 'object') return undefined;
  if (depth >= MAX_JSON_DEPTH) { state.kind = 'depth'; return []; }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = walk(v[i], depth + 1, state);
      if (p) { p.push(i); return p; }
    }
    return undefined;
  }
  // for-in: JSON.parse's objects inherit nothing enumerable, and it allocates no key array per object.
  for (const k in v) {
    if (k === '__proto__') { state.kind = 'protoKey'; return [k]; }
    if (k.includes('\0')) { state.kind = 'nul'; return [k]; }
    const p = walk((v as Record<string, unknown>)[k], depth + 1, state);
    if (p) { p.push(k); return p; }
  }
  return undefined;
}

/** The sentence a 400 gives for a flaw. */
export function flawMessage(flaw: JsonFlaw, what = 'The body'): string {
  switch (flaw.kind) {
    case 'depth': return `${what} is nested deeper than ${MAX_JSON_DEPTH} levels (at ${flaw.path})`;
    case 'nul': return `${what} contains a NUL character (\\u0000) at ${flaw.path}, which Sibyl cannot store`;
    case 'protoKey': return `${what} has a key named __proto__ (at ${flaw.path}), a name Sibyl does not accept: rename it`;
  }
}

function formatPath(reversed: (string | number)[]): string {
  let out = '';
  for (let i = reversed.length - 1; i >= 0; i--) {
    const s = reversed[i]!;
    out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  }
  return out || '(the whole body)';
}

/** JSON strings and number literals, in document order: strings are matched whole so digits inside them are left alone. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * The document with each number beyond ±1.8e308 turned into a string of its own text, as a CSV
 * cell `1e400` is kept: JSON.parse gives ±Infinity for it, which JSON.stringify writes as null,
 * so the value (and a column of only such values) vanished without a word.
 */
export function keepOverflowingNumbers(text: string): string {
  return text.replace(TOKENS, (t) => (t.startsWith('"') || Number.isFinite(Number(t)) ? t : `"${t}"`));
}
