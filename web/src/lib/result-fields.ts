/** Field names the API gives result rows and predictions, found on a row. */

/**
 * An interval around the prediction on a result row: `<target>:lower:<level>` / `<target>:upper:<level>`
 * (conformal intervals of regression models; the highest level when there are several), or an
 * unlevelled `<target>:lower` / `<target>:upper` pair.
 */
export function intervalFields(row: Record<string, string> | undefined, target: string): { lower: string; upper: string; level?: number } | undefined {
  if (!row) return undefined;
  const prefix = `${target}:lower:`;
  const levels = Object.keys(row)
    .filter((k) => k.startsWith(prefix) && `${target}:upper:${k.slice(prefix.length)}` in row)
    .map((k) => k.slice(prefix.length))
    .filter((l) => Number(l) > 0 && Number(l) < 1)
    .sort((a, b) => Number(b) - Number(a));
  if (levels.length) return { lower: `${prefix}${levels[0]}`, upper: `${target}:upper:${levels[0]}`, level: Number(levels[0]) };
  for (const [lo, hi] of [[`${target}:lower`, `${target}:upper`], [`${target}:lowerBound`, `${target}:upperBound`]] as const) {
    if (lo in row && hi in row) return { lower: lo, upper: hi };
  }
  return undefined;
}

/** Every levelled interval on a row (`<target>:lower:0.8`, `<target>:upper:0.8`, …), narrowest level first. */
export function levelledIntervals(row: Record<string, string> | undefined, target: string): { level: number; lower: number; upper: number }[] {
  if (!row) return [];
  const prefix = `${target}:lower:`;
  return Object.keys(row)
    .filter((k) => k.startsWith(prefix) && `${target}:upper:${k.slice(prefix.length)}` in row)
    .map((k) => k.slice(prefix.length))
    .map((l) => ({ level: Number(l), lower: Number(row[`${prefix}${l}`]), upper: Number(row[`${target}:upper:${l}`]) }))
    .filter((i) => i.level > 0 && i.level < 1 && Number.isFinite(i.lower) && Number.isFinite(i.upper))
    .sort((a, b) => a.level - b.level);
}
