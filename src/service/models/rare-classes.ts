/** Classification needs at least 5 rows of a class to learn it; rarer classes are left out with a warning (compat-notes §3.4). */
export const MIN_ROWS_PER_CLASS = 5;

export interface KeptClasses {
  /** Labels with enough rows, sorted. */
  classes: string[];
  dropped: { label: string; count: number }[];
}

export function dropRareClasses(labels: string[]): KeptClasses {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const classes: string[] = [];
  const dropped: { label: string; count: number }[] = [];
  for (const [label, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (count >= MIN_ROWS_PER_CLASS) classes.push(label);
    else dropped.push({ label, count });
  }
  return { classes, dropped };
}
