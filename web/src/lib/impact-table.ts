/**
 * An impact session's result rows as a table a reader can use: the API's field names
 * (`sales:predicted`, `sales:lower`, `sales:cumulativeEffect:upper`) say neither what the numbers are
 * nor the level of their intervals, and the effect of each period is not among them at all.
 */
import { formatNumber, formatPercent } from './words.js';

export interface ImpactTable { columns: string[]; rows: Record<string, string>[] }

const number = (v: string | undefined) => (v === undefined || v === '' ? '' : Number.isFinite(Number(v)) ? formatNumber(Number(v)) : v);

/**
 * One row per period of the event window: its date, the observed value, the counterfactual with its
 * interval at `level` (a fraction: 0.95), the period's effect (observed − expected) and the cumulative
 * effect with its interval. Fields the API adds that this does not know keep their names, after these.
 */
export function impactTable(rows: readonly Record<string, string>[], timestamp: string, target: string, level: number): ImpactTable {
  const at = `${formatPercent(level)} interval`;
  const withTime = rows.some((r) => timeOfDay(r[timestamp]) !== '00:00');
  const named: [string, (r: Record<string, string>) => string][] = [
    [timestamp, (r) => periodLabel(r[timestamp], withTime)],
    [`${target} observed`, (r) => number(r[target])],
    ['expected without the event', (r) => number(r[`${target}:predicted`])],
    [`expected: ${at} from`, (r) => number(r[`${target}:lower`])],
    [`expected: ${at} to`, (r) => number(r[`${target}:upper`])],
    ['effect (observed − expected)', (r) => {
      const [observed, expected] = [r[target], r[`${target}:predicted`]];
      const e = Number(observed) - Number(expected);
      return !observed || !expected || !Number.isFinite(e) ? '' : formatNumber(e);
    }],
    ['cumulative effect', (r) => number(r[`${target}:cumulativeEffect`])],
    [`cumulative effect: ${at} from`, (r) => number(r[`${target}:cumulativeEffect:lower`])],
    [`cumulative effect: ${at} to`, (r) => number(r[`${target}:cumulativeEffect:upper`])],
  ];
  const known = new Set([timestamp, target, ...['predicted', 'lower', 'upper', 'cumulativeEffect', 'cumulativeEffect:lower', 'cumulativeEffect:upper'].map((f) => `${target}:${f}`)]);
  const first = rows[0] ?? {};
  // A column the rows do not carry (an older session without cumulative intervals) is left out, not shown empty.
  const present = named.filter(([name, cell]) => (name === timestamp ? timestamp in first : rows.some((r) => cell(r) !== '')));
  const others = Object.keys(first).filter((k) => !known.has(k));
  return {
    columns: [...present.map(([n]) => n), ...others],
    rows: rows.map((r) => Object.fromEntries([...present.map(([n, f]) => [n, f(r)]), ...others.map((k) => [k, number(r[k])])])),
  };
}

const STAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/;

function timeOfDay(stamp: string | undefined): string {
  return STAMP.exec(stamp ?? '')?.[2] ?? '00:00';
}

/** A period's date, with its hour and minute when the table's periods are shorter than a day (hourly data). */
function periodLabel(stamp: string | undefined, withTime: boolean): string {
  const m = STAMP.exec(stamp ?? '');
  if (!m) return stamp ?? '';
  return withTime ? `${m[1]} ${m[2] ?? '00:00'}` : m[1];
}
