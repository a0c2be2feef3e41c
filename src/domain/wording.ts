/** Lists in messages: "a", "a and b", "a, b and c" (or, with `conjunction`, "a, b or c"). */
export function listInWords(items: readonly unknown[], conjunction: 'and' | 'or' = 'and'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** A number in a message: whole numbers as they are, others to 6 significant digits (43.2, not 43.200000000000003). */
export function numberInWords(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}
