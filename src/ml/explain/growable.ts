/**
 * The tree summaries of TreeSHAP (tree-shap.ts TreePlan, tree-shap-linear.ts LinearPlan) keep parallel
 * typed arrays indexed alike and reused tree after tree; a larger tree reallocates them together.
 */
export type GrowableArray = Int32Array | Float64Array | Uint8Array;

/** A copy of `a` of length `size` (≥ its own) holding its values first. */
export function grow<A extends GrowableArray>(a: A, size: number): A {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
}

/** The fields of T that hold a growable typed array. */
type ArrayFields<T> = { [K in keyof T]: T[K] extends GrowableArray ? K : never }[keyof T];

/** Grows each named typed-array field of `owner` to `size`. */
export function growFields<T extends object>(owner: T, fields: readonly ArrayFields<T>[], size: number): void {
  const arrays = owner as unknown as Record<ArrayFields<T>, GrowableArray>;
  for (const f of fields) arrays[f] = grow(arrays[f], size);
}
