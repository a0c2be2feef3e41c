/** Lists in messages: "a", "a and b", "a, b and c" (or, with `conjunction`, "a, b or c"). */
export function listInWords(items: readonly unknown[], conjunction: 'and' | 'or' = 'and'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
