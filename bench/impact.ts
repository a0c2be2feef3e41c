/**
 * Impact benchmark (PROTOCOL.md §4): every case of impact/cases.csv and impact/cases_fetched.csv,
 * our estimate (model chosen by AICc) next to the statsmodels reference (reference/impact.csv), and the
 * same comparison with our engine forced to the reference's own models.
 *
 *   npm run bench:impact [case_id ...]
 */
import { benchPath, column, readCsv, type CsvTable } from './lib/benchdata.js';
import { estimateImpact, type ImpactResult } from '../src/ml/timeseries/impact/estimate.js';
import type { StructuralSpec } from '../src/ml/timeseries/statespace/structural.js';
import { inferInterval, periodsBetween, prepareSeries, seasonalPeriods } from '../src/ml/timeseries/prepare.js';

interface ImpactCase {
  id: string;
  kind: string;
  y: Float64Array;
  controls: Float64Array[];
  controlNames: string[];
  preEnd: number;
  period: number;
  /** Σ(y − y_counterfactual) over the post-period, for semi-synthetic cases. */
  trueEffect?: number;
  referenceEffect: string;
}

/** Case rows name files as "shared/benchdata/…"; benchPath already points into shared/benchdata. */
function caseFile(path: string): CsvTable {
  return readCsv(path.replace(/^shared\/benchdata\//, ''));
}

/** Dates ("1969-01-01") and bare years ("1970") as UTC epoch ms. */
function parseTime(s: string): number {
  return /^\d{4}$/.test(s) ? Date.UTC(Number(s), 0, 1) : Date.parse(`${s.slice(0, 10)}T00:00:00Z`);
}

/** "cigsale where state=='California'" → the column and the unit selector. */
function parseTarget(text: string): { column: string; key?: string; unit?: string } {
  const m = /^(\S+)\s+where\s+(\S+?)\s*==\s*'?([^']*?)'?\s*$/.exec(text.trim());
  return m ? { column: m[1], key: m[2], unit: m[3] } : { column: text.trim() };
}

/** Values of `valueColumn` on the regular grid of the rows selected, with their period starts. */
function seriesOf(table: CsvTable, timeColumn: string, valueColumn: string, rows: number[]) {
  const times = column(table, timeColumn);
  const values = column(table, valueColumn);
  const ts = rows.map((r) => parseTime(times[r]));
  const interval = inferInterval(ts);
  const prepared = prepareSeries(
    ts,
    [{ name: valueColumn, values: rows.map((r) => (values[r] === '' ? NaN : Number(values[r]))), aggregation: 'mean' }],
    interval,
  );
  if (prepared.columns[0].imputed > 0) throw new Error(`${valueColumn}: ${prepared.columns[0].imputed} missing periods`);
  return { interval, timestamps: prepared.timestamps, values: prepared.columns[0].values };
}

function loadCase(row: Record<string, string>): ImpactCase {
  const table = caseFile(row.file);
  const times = column(table, row.time_col).map(parseTime);
  const [start, preEndTime, end] = [row.pre_start, row.pre_end, row.post_end].map(parseTime);
  const target = parseTarget(row.target);
  const keys = target.key ? column(table, target.key) : [];
  const inWindow = (r: number) => times[r] >= start && times[r] <= end;
  const rowsOf = (unit?: string) =>
    table.rows.map((_, r) => r).filter((r) => inWindow(r) && (unit === undefined || keys[r] === unit));

  const targetRows = rowsOf(target.unit);
  const series = seriesOf(table, row.time_col, target.column, targetRows);
  const controls: Float64Array[] = [];
  const controlNames: string[] = [];
  const panel = /^(\S+) of /.exec(row.covariates);
  if (panel && target.key) {
    // Panels: the donors' own target series are the controls (every unit but the treated one and
    // those the case excludes, e.g. "exclude 1 = Spain").
    const excluded = new Set([...(/exclude ([^)]*)/.exec(row.covariates)?.[1] ?? '').matchAll(/(\S+)\s*=/g)].map((m) => m[1]));
    const units = [...new Set(keys)].filter((u) => u !== target.unit && !excluded.has(u));
    units.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const unit of units) {
      const donor = seriesOf(table, row.time_col, panel[1], rowsOf(unit));
      if (donor.timestamps.length !== series.timestamps.length || donor.timestamps[0] !== series.timestamps[0]) {
        throw new Error(`${row.case_id}: donor ${unit} is not on the target's grid`);
      }
      controls.push(donor.values);
      controlNames.push(`${target.key}=${unit}`);
    }
  } else {
    for (const name of row.covariates.split(';').filter(Boolean)) {
      controls.push(seriesOf(table, row.time_col, name, targetRows).values);
      controlNames.push(name);
    }
  }

  let trueEffect: number | undefined;
  if (row.kind === 'semi-synthetic') {
    const y = column(table, 'y').map(Number);
    const cf = column(table, 'y_counterfactual').map(Number);
    trueEffect = targetRows.filter((r) => times[r] > preEndTime).reduce((s, r) => s + y[r] - cf[r], 0);
  }
  return {
    id: row.case_id,
    kind: row.kind,
    y: series.values,
    controls,
    controlNames,
    preEnd: periodsBetween(series.timestamps[0], preEndTime, series.interval),
    period: seasonalPeriods(series.interval).main,
    trueEffect,
    referenceEffect: row.reference_effect,
  };
}

function records(table: CsvTable): Record<string, string>[] {
  return table.rows.map((r) => Object.fromEntries(table.header.map((h, j) => [h, r[j] ?? ''])));
}

const fmt = (x: number, digits = 1) => (Math.abs(x) >= 1e5 ? x.toExponential(2) : x.toFixed(digits));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function line(label: string, r: { abs: number; lo: number; hi: number; rel: number; relLo: number; relHi: number; p: number }, extra = ''): string {
  return `  ${label.padEnd(34)} abs ${fmt(r.abs).padStart(9)} [${fmt(r.lo)}, ${fmt(r.hi)}]  rel ${pct(r.rel).padStart(7)} [${pct(r.relLo)}, ${pct(r.relHi)}]  p ${r.p.toFixed(4)}${extra}`;
}

function ours(r: ImpactResult) {
  return {
    abs: r.absoluteEffect,
    lo: r.absoluteEffectInterval[0],
    hi: r.absoluteEffectInterval[1],
    rel: r.relativeEffect,
    relLo: r.relativeEffectInterval[0],
    relHi: r.relativeEffectInterval[1],
    p: r.pValue,
  };
}

function theirs(row: Record<string, string>) {
  const n = (k: string) => Number(row[k]);
  return {
    abs: n('abs_effect'),
    lo: n('abs_effect_lo'),
    hi: n('abs_effect_hi'),
    rel: n('rel_effect'),
    relLo: n('rel_effect_lo'),
    relHi: n('rel_effect_hi'),
    p: n('p_value'),
  };
}

function truthNote(c: ImpactCase, lo: number, hi: number): string {
  if (c.trueEffect === undefined) return '';
  return `  truth ${fmt(c.trueEffect)} ${c.trueEffect >= lo && c.trueEffect <= hi ? 'inside' : 'OUTSIDE'}`;
}

function main(): void {
  const only = process.argv.slice(2);
  const rows = [...records(readCsv('impact/cases.csv')), ...records(readCsv('impact/cases_fetched.csv'))].filter(
    (r) => only.length === 0 || only.includes(r.case_id),
  );
  const reference = records(readCsv('reference/impact.csv'));
  console.log(`impact benchmark: ${rows.length} cases from ${benchPath('impact')}`);

  const outcomes: { c: ImpactCase; r: ImpactResult }[] = [];
  for (const row of rows) {
    const c = loadCase(row);
    const t0 = performance.now();
    const r = estimateImpact({ y: c.y, preEnd: c.preEnd, controls: c.controls, period: c.period, seed: 0 });
    const ms = performance.now() - t0;
    outcomes.push({ c, r });
    const used = r.controlsUsed.map((i) => c.controlNames[i]).join(';') || 'none';
    console.log(`\n${c.id} (${c.kind}; n_pre ${c.preEnd + 1}, n_post ${c.y.length - c.preEnd - 1}; controls ${used})`);
    console.log(line(`ours: ${r.model}`, ours(r), `${truthNote(c, ...r.absoluteEffectInterval)}  (${(ms / 1000).toFixed(2)} s)`));
    for (const refRow of reference.filter((x) => x.case_id === c.id)) {
      const spec: StructuralSpec = { slope: 'none', seasonalPeriod: refRow.seasonal_period ? Number(refRow.seasonal_period) : 1 };
      const same = estimateImpact({ y: c.y, preEnd: c.preEnd, controls: c.controls, period: c.period, seed: 0, model: spec });
      console.log(line(`ours as ${refRow.model}`, ours(same), truthNote(c, ...same.absoluteEffectInterval)));
      const th = theirs(refRow);
      console.log(line(`statsmodels ${refRow.model}`, th, truthNote(c, th.lo, th.hi)));
    }
    if (c.referenceEffect && c.trueEffect === undefined) {
      const last = c.y.length - 1;
      const gap = c.y[last] - r.predicted[r.predicted.length - 1];
      console.log(`  ours, last post-period point: observed − predicted ${fmt(gap)} (${pct(gap / r.predicted[r.predicted.length - 1])})`);
      console.log(`  literature: ${c.referenceEffect}`);
    }
  }

  const placebos = outcomes.filter((o) => o.c.trueEffect === 0);
  const effects = outcomes.filter((o) => o.c.trueEffect !== undefined && o.c.trueEffect !== 0);
  const inside = outcomes.filter(
    (o) => o.c.trueEffect !== undefined && o.c.trueEffect >= o.r.absoluteEffectInterval[0] && o.c.trueEffect <= o.r.absoluteEffectInterval[1],
  );
  const semi = outcomes.filter((o) => o.c.trueEffect !== undefined);
  console.log('\nsummary (ours, model chosen by AICc)');
  console.log(`  placebo cases with p < 0.05: ${placebos.filter((o) => o.r.pValue < 0.05).length}/${placebos.length}`);
  console.log(`  injected effects detected (p < 0.05): ${effects.filter((o) => o.r.pValue < 0.05).length}/${effects.length}`);
  console.log(`  semi-synthetic truth inside the 95 % interval: ${inside.length}/${semi.length}`);
}

main();
