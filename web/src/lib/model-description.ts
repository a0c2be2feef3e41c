/**
 * A model's name and description in the words of the session page. A blend's description lists its
 * members by algorithm name, and two members can share one (Gradient Boosted Trees with small-data
 * settings, and with the default ones); the contest's candidate ids tell them apart.
 */

export interface Candidate { id: string; algorithm: { name: string; key: string } }

/** "small-data settings" for `gbdt_small_data` of algorithm `gbdt`; "default settings" for `gbdt` itself. */
export function settingsOf(c: Candidate): string {
  const { id, algorithm: { key } } = c;
  if (id === key) return 'default settings';
  const rest = id.startsWith(`${key}_`) ? id.slice(key.length + 1) : id;
  return `${rest.replace(/_/g, '-')} settings`;
}

/** A candidate's name, with its settings when another candidate has the same name. */
export function candidateName(c: Candidate, all: Candidate[]): string {
  const twins = all.filter((o) => o.algorithm.name === c.algorithm.name && o.id !== c.id);
  return twins.length ? `${c.algorithm.name}, ${settingsOf(c)}` : c.algorithm.name;
}

/** Member ids of a blend's candidate id: `stack(linear:0.67+gbdt_small_data:0.28)` → linear, gbdt_small_data. */
function memberIds(blendId: string): string[] {
  const inner = /^\w+\((.*)\)$/.exec(blendId)?.[1];
  return inner ? inner.split('+').map((m) => m.split(':')[0]!) : [];
}

/**
 * The description without its closing full stop (the page ends the sentence), and with each member
 * that shares its name with another given its settings, when the champion's id lists the members.
 */
export function describeModel(description: string, champion?: Candidate, candidates: Candidate[] = []): string {
  let text = description.trim().replace(/\.+$/, '');
  const ids = champion ? memberIds(champion.id) : [];
  const members = ids.map((id) => candidates.find((c) => c.id === id));
  if (members.length === 0 || members.some((m) => m === undefined)) return text;
  const names = members.map((m) => m!.algorithm.name);
  // Members appear in the description in the order of the id; relabel only the names that repeat.
  let from = 0;
  members.forEach((m, i) => {
    const name = names[i]!;
    const at = text.indexOf(name, from);
    if (at < 0) return;
    const label = names.filter((n) => n === name).length > 1 ? `${name}, ${settingsOf(m!)}` : name;
    text = text.slice(0, at) + label + text.slice(at + name.length);
    from = at + label.length;
  });
  return text;
}
