/**
 * A model's name and description in the words of the session page. A blend's description lists its
 * members by algorithm name, and two members can share one (Gradient Boosted Trees with small-data
 * settings, and with the default ones); the contest's candidate ids tell them apart.
 */

import { listInWords } from './words.js';

export interface Candidate { id: string; algorithm: { name: string; key: string } }

/** The contest's own candidate settings (src/ml/tabular/contest/candidates.ts) in words. */
const SETTINGS_IN_WORDS: Record<string, string> = {
  gbdt_small_data: 'small-data settings',
  gbdt_slow_early_stop: 'slow learning and early stopping',
  linear_spline: 'curves (splines)',
};

/** "small-data settings" for `gbdt_small_data` of algorithm `gbdt`; "default settings" for `gbdt` itself. */
export function settingsOf(c: Candidate): string {
  const { id, algorithm: { key } } = c;
  if (id === key) return 'default settings';
  if (SETTINGS_IN_WORDS[id]) return SETTINGS_IN_WORDS[id];
  const rest = id.startsWith(`${key}_`) ? id.slice(key.length + 1) : id;
  return `${rest.replace(/_/g, '-')} settings`;
}

/**
 * A candidate's name in words, with its settings when another candidate has the same name; a blend
 * by its members (`stack(extra_trees:0.65+random_forest:0.35)` → "Weighted average of Extremely
 * Randomized Trees (65 %) and Random Forest (35 %)").
 */
export function candidateName(c: Candidate, all: Candidate[]): string {
  const members = blendMembers(c.id);
  if (members.length > 0) {
    const names = members.map((m) => {
      const member = all.find((o) => o.id === m.id);
      const name = member ? candidateName(member, all) : m.id;
      return m.weight === undefined ? name : `${name} (${Math.round(m.weight * 100)} %)`;
    });
    return `${members.some((m) => m.weight !== undefined) ? 'Weighted average' : 'Average'} of ${listInWords(names)}`;
  }
  const twins = all.filter((o) => o.algorithm.name === c.algorithm.name && o.id !== c.id);
  return twins.length ? `${c.algorithm.name} with ${settingsOf(c)}` : c.algorithm.name;
}

/** Members of a blend's candidate id with their weights: `stack(linear:0.67+gbdt_small_data:0.28)` → linear 0.67, gbdt_small_data 0.28. */
function blendMembers(blendId: string): { id: string; weight?: number }[] {
  const inner = /^\w+\((.*)\)$/.exec(blendId)?.[1];
  return inner ? inner.split('+').map((m) => {
    const [id, weight] = m.split(':');
    return { id: id!, ...(weight !== undefined ? { weight: Number(weight) } : {}) };
  }) : [];
}

/** Member ids of a blend's candidate id. */
function memberIds(blendId: string): string[] {
  return blendMembers(blendId).map((m) => m.id);
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
    const label = names.filter((n) => n === name).length > 1 ? `${name} with ${settingsOf(m!)}` : name;
    text = text.slice(0, at) + label + text.slice(at + name.length);
    from = at + label.length;
  });
  return text;
}
