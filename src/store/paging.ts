/** A requested page: zero-based index and size. */
export interface Page { page: number; size: number }

export interface PageOf<T> { items: T[]; totalCount: number }

export function offsetOf(p: Page): number {
  return p.page * p.size;
}
