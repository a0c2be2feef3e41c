/**
 * The outliers a forecast session lists (/results/outliers: ml/timeseries/forecast/outliers.ts
 * smoothOutliers) on the monthly and quarterly single series of benchdata/forecast (its INDEX.csv),
 * next to R forecast's tsoutliers on the same series (bench/r_tsoutliers.R: a robust MSTL's seasonally
 * adjusted series when the seasonal strength is ≥ 0.6, a super-smoother trend, and an IQR rule at
 * 3 IQR on the rest; two passes).
 *
 * "at peak/trough" counts the flags that sit at the series' seasonal peak or trough position (the
 * highest and lowest index of its classical seasonal figure). Flags spread evenly over the cycle would
 * put 2/m of them there; many more say that ordinary seasonal peaks are being flagged, as an additive
 * profile does on a series whose seasonal swing grows with its level (fpp2 a10, airpass).
 *
 *   npm run bench:forecast-outliers [-- --only a10,airpass] [-- --list]
 *
 * --list prints every series' flags (dates), ours and R's. Without Rscript and the forecast package
 * only ours are printed.
 *
 * 2026-11-29, 96 series (djiclose_pcreturn left out: missing values), R forecast 8.x tsoutliers
 * 552 flags, 160 at the peak/trough position:
 * - additive decomposition (until then): 775 flags, 272 at the peak/trough position where 172 would be
 *   if they fell evenly over the cycle. a10: 2006-01 2007-01 2007-04 2007-11 2008-01, three of them
 *   January peaks; auscafe 15 (12 at the peak/trough), departures_vislong 34 (20), airpass 6.
 * - on the power from Tukey's spread-versus-level rule (spread-level.ts; the log for a10, airpass,
 *   fancy): 407 flags, 124 at the peak/trough position (113 if even). a10: 2008-02 (21.7, after
 *   16.8 the February before); auscafe 0, departures_vislong 0, airpass 2. More flags than before on
 *   bricksq 2 → 8, qsales/frexport 7 → 11 (24 points), arrivals_US 2 → 3.
 *   R on a10 flags 12 points of 2006–2008 (its STL is additive: the late, larger swings and noise).
 * - and the trend carried on in a straight line over the first and last half window (it was held flat
 *   there, half a window's rise away from a trending series' ends): 378 flags, 111 at the peak/trough
 *   position (107 if even). a10: 1993-12 (7.18, above the January after it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchdata, column, readCsv } from './lib/benchdata.js';
import { seasonalFigure } from '../src/ml/timeseries/forecast/decompose.js';
import { smoothOutliers } from '../src/ml/timeseries/forecast/index.js';

interface Series { name: string; path: string; m: number; dates: string[]; y: Float64Array }

const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set(process.argv[i + 1]!.split(',')) : undefined;
})();
const listAll = process.argv.includes('--list');

function loadSeries(): { series: Series[]; skipped: string[] } {
  const root = benchdata();
  const index = readCsv('forecast', 'INDEX.csv');
  const paths = column(index, 'path');
  const frequency = column(index, 'frequency');
  const period = column(index, 'seasonal_period');
  const series: Series[] = [];
  const skipped: string[] = [];
  paths.forEach((p, i) => {
    if (frequency[i] !== 'monthly' && frequency[i] !== 'quarterly') return;
    const rel = p.replace(/^.*?forecast\//, '');
    const name = rel.replace(/\.csv$/, '');
    if (only && !only.has(name) && !only.has(name.split('/')[1]!)) return;
    const t = root.read('forecast', rel);
    const values = column(t, 'value');
    if (values.some((v) => v === '' || !Number.isFinite(Number(v)))) { skipped.push(`${name} (missing values)`); return; }
    series.push({ name, path: root.path('forecast', rel), m: Number(period[i]), dates: column(t, t.header[0]!), y: Float64Array.from(values, Number) });
  });
  return { series, skipped };
}

/** R's flags by series name, or undefined when R cannot be run. */
function rFlags(series: Series[]): Map<string, number[]> | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'tsoutliers-'));
  try {
    const list = join(dir, 'list.csv');
    writeFileSync(list, series.map((s) => `${s.name},${s.path},${s.m}`).join('\n') + '\n');
    const out = execFileSync('Rscript', [new URL('../../bench/r_tsoutliers.R', import.meta.url).pathname, list], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const flags = new Map<string, number[]>();
    for (const line of out.split('\n')) {
      const [a, b] = line.split(',');
      if (a === 'done') { if (!flags.has(b!)) flags.set(b!, []); } else if (a && b !== undefined) {
        if (!flags.has(a)) flags.set(a, []);
        flags.get(a)!.push(Number(b));
      }
    }
    return flags;
  } catch (e) {
    console.log(`(no R reference: Rscript with the forecast package did not run: ${(e as Error).message.split('\n')[0]})`);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Positions (t mod m) of the seasonal figure's highest and lowest index. */
function peakTrough(y: Float64Array, m: number): Set<number> {
  if (y.length < 2 * m) return new Set();
  const fig = seasonalFigure(y, m, 'additive');
  let hi = 0, lo = 0;
  for (let j = 1; j < m; j++) {
    if (fig[j]! > fig[hi]!) hi = j;
    if (fig[j]! < fig[lo]!) lo = j;
  }
  return new Set([hi, lo]);
}

const { series, skipped } = loadSeries();
const reference = rFlags(series);
const total = { ours: 0, oursAt: 0, r: 0, rAt: 0, expectedAt: 0 };
console.log(`${'series'.padEnd(34)} ${'m'.padStart(3)} ${'n'.padStart(4)}   ours  at peak/trough    R  at peak/trough  both`);
for (const s of series) {
  const ours = smoothOutliers(s.y, s.m).indices;
  const r = reference?.get(s.name);
  const at = peakTrough(s.y, s.m);
  const atCount = (idx: number[]) => idx.filter((t) => at.has(t % s.m)).length;
  total.ours += ours.length; total.oursAt += atCount(ours);
  total.expectedAt += (ours.length * at.size) / s.m;
  if (r) { total.r += r.length; total.rAt += atCount(r); }
  const both = r ? ours.filter((t) => r.includes(t)).length : NaN;
  console.log(`${s.name.padEnd(34)} ${String(s.m).padStart(3)} ${String(s.y.length).padStart(4)}  ${String(ours.length).padStart(5)}  ${String(atCount(ours)).padStart(14)}  ${r ? String(r.length).padStart(3) : '  –'}  ${r ? String(atCount(r)).padStart(14) : '             –'}  ${r ? String(both).padStart(4) : '   –'}`);
  if (listAll || s.name.endsWith('/a10')) {
    console.log(`    ours: ${ours.map((t) => s.dates[t]).join(' ') || '–'}`);
    if (r) console.log(`    R:    ${r.map((t) => s.dates[t]).join(' ') || '–'}`);
  }
}
console.log(`\n${series.length} series${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}`);
console.log(`ours: ${total.ours} flags, ${total.oursAt} at the peak/trough position (${(total.expectedAt).toFixed(1)} if spread evenly over the cycle)`);
if (reference) console.log(`R tsoutliers: ${total.r} flags, ${total.rAt} at the peak/trough position`);
