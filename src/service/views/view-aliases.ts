/**
 * A view definition's aliases checked when it is stored (PUT), never when it is read: an alias
 * the definition asks for must rename a column the joined source has, to a name the view does not
 * already have. Otherwise the joined column was silently left out (a taken name: the left side's
 * column wins) or overwrote another joined column (two aliases alike), and an alias of a missing
 * column did nothing. Once stored, a later upload may change the sources; reading then keeps the
 * join's rule (a taken name is left out) rather than refusing a view that was valid.
 */
import type { DatasetRecord } from '../../store/datasets-store.js';
import { didYouMean } from '../../domain/similar-names.js';
import { ValidationError } from '../errors.js';
import { calendarColumns, viewColumns, type ResolvedJoin } from './view-join.js';

export function checkAliases(left: DatasetRecord, joins: ResolvedJoin[], at = 'joins'): void {
  const problems: Record<string, string[]> = {};
  collect(left, joins, at, problems);
  if (Object.keys(problems).length) throw new ValidationError(problems, 'The view\'s aliases do not fit its data sets');
}

function collect(left: DatasetRecord, joins: ResolvedJoin[], at: string, problems: Record<string, string[]>): void {
  // The names the view has so far, and where each came from, as viewColumns adds them.
  const taken = new Map<string, string>(Object.keys(left.columns).map((n) => [n, `column '${n}' of '${left.name}'`]));
  joins.forEach((j, i) => {
    const where = `${at}[${i}]`;
    const source = j.kind === 'dataSet' ? `'${j.dataset.name}'` : `calendar '${j.calendarName}'`;
    let names: string[];
    if (j.kind === 'dataSet') {
      collect(j.dataset, j.joins, `${where}.joins`, problems);
      names = Object.keys(viewColumns(j.dataset, j.joins)).filter((n) => n !== j.dataset.identityColumn);
    } else {
      names = Object.keys(calendarColumns(j.calendarName));
    }
    const given = new Map<string, string>();
    for (const [column, alias] of Object.entries(j.aliases)) {
      const place = `${where}.columnOptions.${column}.alias`;
      if (!names.includes(column)) {
        (problems[place] ??= []).push(`${source} has no column '${column}' to give the alias '${alias}'.${didYouMean(column, names)}`);
      } else if (taken.has(alias)) {
        (problems[place] ??= []).push(`the alias '${alias}' of column '${column}' of ${source} is already the name of ${taken.get(alias)} in the view: choose another alias`);
      } else if (given.has(alias)) {
        (problems[place] ??= []).push(`the alias '${alias}' of column '${column}' of ${source} is also given to its column '${given.get(alias)}': give each column its own alias`);
      }
      given.set(alias, column);
    }
    for (const name of names) {
      const out = j.aliases[name] ?? name;
      if (!taken.has(out)) taken.set(out, `column '${name}' of ${source}`);
    }
  });
}
