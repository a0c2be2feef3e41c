/**
 * A column name that a client probably meant: one in another letter case, or a typing slip away
 * (a letter missed, added, changed or two swapped), so that a message can say "did you mean".
 */

/** Edits allowed for a name of this length: one for short names, two from eight characters. */
function allowedEdits(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** The candidate `name` most likely stands for, or undefined when none is close or two are equally close. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d > allowedEdits(Math.min(name.length, c.length))) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  return tie ? undefined : best;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = new Uint16Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}

/** " Did you mean 'Visitors'?" after a message about an unknown column, or '' when no name is close. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const meant = closestName(name, candidates);
  return meant === undefined ? '' : ` Did you mean '${meant}'?`;
}
