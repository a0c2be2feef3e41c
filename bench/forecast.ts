/**
 * Forecasting benchmark (PROTOCOL.md §3): M3, M1 and tourism, official splits. Fits on the training
 * series, forecasts h points, scores sMAPE / smape_points / MASE per frequency and overall, next to
 * R's ets/arima/theta/comb (reference/forecast.csv) and, for M3, the THETA and ForecastPro entrants
 * rescored from m3_reference_forecasts.csv. The series are split over child processes (both cores).
 *
 * Intervals: the 50/80/90/95 % central bands are scored by coverage (share of held-out points inside,
 * next to the nominal level) and by the mean scaled interval score (MSIS, M4: width plus 2/α times the
 * miss, over the MASE scale), next to R's ets and comb intervals from bench/r_forecast_intervals.R
 * (run it once; its CSVs are read from --r-dir, default bench/out/r_intervals, on the series they cover).
 *
 *   npm run bench:forecast [-- --only m3,m1,tourism] [--limit N] [--stride K] [--workers 2] [--methods comb,ets] [--r-dir DIR]
 *                     [--save DIR | --from DIR [--shape pooled|period-band|s,ν₀]]
 *   (keep our forecasts as DIR/<coll>.json, or rescore kept ones: their bands are rebuilt from the kept
 *   predictive distributions under the shipped tail shape (the pooled one, as forecasts apply it), or
 *   under the pooled shape as a table (--shape pooled: the same bands through the table code), the M3
 *   table by period and horizon band (--shape period-band, bench/lib/tail-shape-table.ts) or a pooled
 *   shape given as s,ν₀ (diagnosis only: how the holdout scores move with the shape), for before/after
 *   figures on the same forecasts)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { predictiveDistribution, shapedForecast, type PredictiveDistribution } from '../src/ml/timeseries/forecast/forecast.js';
import { POOLED_TAIL_SHAPE } from '../src/ml/timeseries/forecast/tail-shape.js';
import { bandedForecast, pooledTable, type TailShapeTable } from './lib/tail-shape-table.js';
import { M3_PERIOD_BAND_TABLE } from './lib/m3-period-band-table.js';
import type { ForecastResult } from '../src/ml/timeseries/forecast/types.js';
import { mase, maseScale, smape } from '../src/ml/timeseries/forecast/metrics.js';
import { parseCsv, readCsv, seriesValues } from './lib/benchdata.js';
import { repositoryRoot } from './lib/data-root.js';

interface Task { id: string; period: string; m: number; h: number; y: number[] }
/** Central bands by nominal coverage ("0.5" … "0.95"): lower and upper per horizon step. */
type Bands = Record<string, { lower: number[]; upper: number[] }>;
/** The predictive distribution before the tail shape, kept so that saved forecasts can be rescored under another shape (--from … --shape). */
interface Distribution { mean: number[]; sd: number[]; dof: number | null; floor: number | null; calibrated: boolean; m: number }
interface Outcome { id: string; mean: number[]; bands: Bands; method: string; ms: number; error?: string; distribution?: Distribution }

const BAND_LEVELS = [0.5, 0.8, 0.9, 0.95];
/** Quantile levels whose pairs make the bands above. */
const QUANTILE_LEVELS = BAND_LEVELS.flatMap((c) => [(1 - c) / 2, (1 + c) / 2]).sort((a, b) => a - b);

const COLLECTIONS = ['m3', 'm1', 'tourism'];
const REFERENCE_METHODS = ['ets', 'arima', 'theta', 'comb'];
const M3_ENTRANTS = ['THETA', 'ForecastPro'];

function runTasks(tasks: Task[], methods?: string[]): Outcome[] {
  return tasks.map((t) => {
    const start = performance.now();
    try {
      const d = predictiveDistribution(Float64Array.from(t.y), t.h, { period: t.m, methods });
      const r = shapedForecast(d, QUANTILE_LEVELS);
      const distribution: Distribution = {
        mean: Array.from(d.chosen.mean), sd: Array.from(d.chosen.sd), dof: d.chosen.dof ?? null,
        floor: Number.isFinite(d.floor) ? d.floor : null, calibrated: d.calibrated, m: t.m,
      };
      return { id: t.id, mean: Array.from(r.mean), bands: bandsOf(r), method: r.method, ms: performance.now() - start, distribution };
    } catch (e) {
      const last = t.y[t.y.length - 1];
      return { id: t.id, mean: new Array(t.h).fill(last), bands: {}, method: 'failed', ms: performance.now() - start, error: String(e) };
    }
  });
}

function bandsOf(r: ForecastResult): Bands {
  const bands: Bands = {};
  for (const [level, band] of Object.entries(r.intervals)) bands[level] = { lower: Array.from(band.lower), upper: Array.from(band.upper) };
  return bands;
}

/** `--shape s,ν₀`: a pooled shape given by hand (λ the shipped one), for diagnosis only. */
function givenShape(spec: string): TailShapeTable {
  const [scale, dof] = spec.split(',').map(Number);
  if (!(scale > 0) || !(dof > 0)) throw new Error(`--shape takes pooled, period-band or s,ν₀ (e.g. 0.8876,6.26), got ${spec}`);
  return pooledTable({ scale, dof, seriesDofWeight: POOLED_TAIL_SHAPE.seriesDofWeight });
}

/** A kept outcome's bands under a tail shape table (the shipped pooled shape when none). */
function reshaped(o: Outcome, table: TailShapeTable | undefined): Outcome {
  const s = o.distribution;
  if (!s) return o;
  const d: PredictiveDistribution = {
    chosen: { mean: Float64Array.from(s.mean), sd: Float64Array.from(s.sd), dof: s.dof ?? undefined },
    method: o.method, candidates: [], floor: s.floor ?? -Infinity, calibrated: s.calibrated, farOutliers: [],
    // Not kept by --save: the rescored bands do not need them.
    outliers: { indices: [], values: new Float64Array(0), smoothed: new Float64Array(0) },
  };
  const r = table ? bandedForecast(d, QUANTILE_LEVELS, table, s.m) : shapedForecast(d, QUANTILE_LEVELS);
  return { ...o, mean: Array.from(r.mean), bands: bandsOf(r) };
}

const CHILD_FLAG = '--forecast-worker';

if (process.argv.includes(CHILD_FLAG)) {
  process.once('message', (msg: { tasks: Task[]; methods?: string[] }) => {
    process.send!(runTasks(msg.tasks, msg.methods), () => process.exit(0));
  });
} else {
  await main();
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function loadTasks(coll: string, limit: number, stride: number): { tasks: Task[]; tests: Map<string, number[]> } {
  const meta = readCsv(`forecast/${coll}/${coll}_meta.csv`);
  const period = new Map(meta.rows.map((r) => [r[0], r[meta.header.indexOf('period')].toLowerCase()]));
  const freq = new Map(meta.rows.map((r) => [r[0], Number(r[meta.header.indexOf('frequency')])]));
  const horizon = new Map(meta.rows.map((r) => [r[0], Number(r[meta.header.indexOf('h')])]));
  const tasks: Task[] = [];
  const tests = new Map<string, number[]>();
  for (const p of [...new Set(period.values())]) {
    const train = seriesValues(readCsv(`forecast/${coll}/${coll}_${p}_train.csv`));
    const test = seriesValues(readCsv(`forecast/${coll}/${coll}_${p}_test.csv`));
    let k = 0, i = 0;
    for (const [id, y] of train) {
      // Every stride-th series (as bench/r_forecast_intervals.R picks them), at most limit per period.
      if (i++ % stride !== 0) continue;
      if (k++ >= limit) break;
      tasks.push({ id, period: p, m: freq.get(id)!, h: horizon.get(id)!, y });
      tests.set(id, test.get(id)!);
    }
  }
  return { tasks, tests };
}

async function runParallel(tasks: Task[], workers: number, methods?: string[]): Promise<Outcome[]> {
  // Interleaved split: neighbouring series have similar lengths, so both workers get similar loads.
  const chunks = Array.from({ length: workers }, (_, w) => tasks.filter((_, i) => i % workers === w));
  const parts = await Promise.all(chunks.map((chunk) => new Promise<Outcome[]>((resolve, reject) => {
    // Child processes rather than worker threads: they inherit tsx's loader when run from source.
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG]);
    child.once('message', (m) => resolve(m as Outcome[]));
    child.once('error', reject);
    child.send({ tasks: chunk, methods });
  })));
  return parts.flat();
}

interface Row { period: string; method: string; n: number; smape: number; smapePoints: number; mase: number; nMaseUndefined: number; seconds?: number }

function score(period: string, method: string, tasks: Task[], forecasts: Map<string, number[]>, tests: Map<string, number[]>): Row {
  let sSeries = 0, sPoints = 0, nPoints = 0, sMase = 0, nMase = 0, n = 0, undef = 0;
  for (const t of tasks) {
    const f = forecasts.get(t.id);
    if (!f) continue;
    const actual = tests.get(t.id)!;
    const fc = f.slice(0, actual.length);
    const s = smape(actual, fc);
    sSeries += s; sPoints += s * actual.length; nPoints += actual.length; n++;
    if (maseScale(t.y, t.m) > 0) { sMase += mase(t.y, actual, fc, t.m); nMase++; } else undef++;
  }
  return { period, method, n, smape: sSeries / n, smapePoints: sPoints / nPoints, mase: sMase / nMase, nMaseUndefined: undef };
}

interface IntervalRow { period: string; method: string; n: number; coverage: number[]; msis: number[] }

/**
 * Coverage of each band (share of held-out points inside it) and its MSIS: per series the mean over the
 * horizon of (U − L) + (2/α)(L − y)⁺ + (2/α)(y − U)⁺ with α = 1 − level, over the MASE scale, then
 * averaged over the series (those with a zero scale are left out of the MSIS, as of the MASE).
 */
function scoreIntervals(period: string, method: string, tasks: Task[], bands: Map<string, Bands>, tests: Map<string, number[]>): IntervalRow {
  const inside = BAND_LEVELS.map(() => 0);
  const msis = BAND_LEVELS.map(() => 0);
  let points = 0, n = 0, nScaled = 0;
  for (const t of tasks) {
    const b = bands.get(t.id);
    if (!b || BAND_LEVELS.some((c) => !b[String(c)])) continue;
    const actual = tests.get(t.id)!;
    const scale = maseScale(t.y, t.m);
    n++; points += actual.length;
    if (scale > 0) nScaled++;
    BAND_LEVELS.forEach((c, j) => {
      const { lower, upper } = b[String(c)];
      const alpha = 1 - c;
      let s = 0;
      for (let k = 0; k < actual.length; k++) {
        const y = actual[k], lo = lower[k], hi = upper[k];
        if (y >= lo && y <= hi) inside[j]++;
        s += hi - lo + (2 / alpha) * (Math.max(lo - y, 0) + Math.max(y - hi, 0));
      }
      if (scale > 0) msis[j] += s / actual.length / scale;
    });
  }
  return { period, method, n, coverage: inside.map((v) => v / points), msis: msis.map((v) => v / nScaled) };
}

/** R's interval forecasts (bench/r_forecast_intervals.R output) for a collection: by method, then series. */
function referenceBands(coll: string, dir: string): { bands: Map<string, Map<string, Bands>>; means: Map<string, Map<string, number[]>> } {
  const bands = new Map<string, Map<string, Bands>>();
  const means = new Map<string, Map<string, number[]>>();
  if (!existsSync(dir)) return { bands, means };
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${coll}_s`) && f.endsWith('.csv'))) {
    const t = parseCsv(readFileSync(resolve(dir, file), 'utf8'));
    const col = (name: string) => t.header.indexOf(name);
    const [iId, iMethod, iLevel, iK, iMean, iLower, iUpper] = ['series_id', 'method', 'level', 'k', 'mean', 'lower', 'upper'].map(col);
    for (const r of t.rows) {
      const method = `R ${r[iMethod]}`;
      const id = r[iId];
      const level = String(Number(r[iLevel]) / 100);
      const k = Number(r[iK]) - 1;
      if (!bands.has(method)) { bands.set(method, new Map()); means.set(method, new Map()); }
      const byId = bands.get(method)!;
      if (!byId.has(id)) { byId.set(id, {}); means.get(method)!.set(id, []); }
      const b = byId.get(id)!;
      b[level] ??= { lower: [], upper: [] };
      b[level].lower[k] = Number(r[iLower]);
      b[level].upper[k] = Number(r[iUpper]);
      means.get(method)!.get(id)![k] = Number(r[iMean]);
    }
  }
  return { bands, means };
}

function printIntervals(title: string, rows: IntervalRow[]): void {
  console.log(`\n${title}`);
  const levels = BAND_LEVELS.map((c) => `${Math.round(c * 100)}%`);
  console.log(`period     method              n_series  ${levels.map((l) => `cov${l}`.padStart(7)).join(' ')}  ${levels.map((l) => `msis${l}`.padStart(8)).join(' ')}`);
  console.log(`${'nominal'.padEnd(10)} ${''.padEnd(18)} ${''.padStart(8)}  ${BAND_LEVELS.map((c) => (c * 100).toFixed(1).padStart(7)).join(' ')}`);
  for (const r of rows) {
    console.log(`${r.period.padEnd(10)} ${r.method.padEnd(18)} ${String(r.n).padStart(8)}  ${r.coverage.map((v) => (v * 100).toFixed(1).padStart(7)).join(' ')}  ${r.msis.map((v) => v.toFixed(2).padStart(8)).join(' ')}`);
  }
}

/**
 * Width of our bands over a reference's, per level: the geometric mean over series and horizon steps
 * where both widths are positive. Equal ratios at every level: the bands differ in scale alone; ratios
 * that fall from the inner to the outer bands: ours are the more peaked shape. Widths are forecasts
 * alone, no held-out value enters.
 */
function widthRatios(tasks: Task[], ours: Map<string, Bands>, theirs: Map<string, Bands>): { n: number; ratios: number[] } {
  const sums = BAND_LEVELS.map(() => 0), counts = BAND_LEVELS.map(() => 0);
  for (const t of tasks) {
    const a = ours.get(t.id), b = theirs.get(t.id);
    if (!a || !b) continue;
    BAND_LEVELS.forEach((c, j) => {
      const x = a[String(c)], y = b[String(c)];
      if (!x || !y) return;
      for (let k = 0; k < t.h; k++) {
        const wa = x.upper[k] - x.lower[k], wb = y.upper[k] - y.lower[k];
        if (wa > 0 && wb > 0) { sums[j] += Math.log(wa / wb); counts[j]++; }
      }
    });
  }
  return { n: counts[0], ratios: sums.map((v, j) => Math.exp(v / counts[j])) };
}

/** Point forecasts of other methods, rescored on the same series: R's (forecast_points.csv) and, for M3, the entrants'. */
function referenceForecasts(coll: string): Map<string, Map<string, number[]>> {
  const out = new Map<string, Map<string, number[]>>();
  const add = (method: string, id: string, values: string[]) => {
    if (!out.has(method)) out.set(method, new Map());
    out.get(method)!.set(id, values.filter((v) => v !== '').map(Number));
  };
  for (const r of readCsv('reference/forecast_points.csv').rows) {
    if (r[0] === coll && REFERENCE_METHODS.includes(r[2])) add(`R ${r[2]}`, r[1], r.slice(3));
  }
  if (coll === 'm3') {
    for (const r of readCsv('forecast/m3/m3_reference_forecasts.csv').rows) {
      if (M3_ENTRANTS.includes(r[1])) add(`M3 ${r[1]}`, r[0], r.slice(2));
    }
  }
  return out;
}

/** R's CPU seconds per period and method (full collections only). */
function referenceSeconds(coll: string): Map<string, number> {
  const t = readCsv('reference/forecast.csv');
  const col = (r: string[], name: string) => r[t.header.indexOf(name)];
  const out = new Map<string, number>();
  for (const r of t.rows) if (col(r, 'collection') === coll) out.set(`${col(r, 'period')}/R ${col(r, 'method')}`, Number(col(r, 'total_cpu_seconds')));
  return out;
}

function printTable(coll: string, rows: Row[]): void {
  console.log(`\n== ${coll} ==`);
  console.log('period     method              n_series   smape  smape_pts    mase  n_mase_undef  cpu_s');
  for (const r of rows) {
    console.log(`${r.period.padEnd(10)} ${r.method.padEnd(18)} ${String(r.n).padStart(8)} ${r.smape.toFixed(3).padStart(7)} ${r.smapePoints.toFixed(3).padStart(10)} ${r.mase.toFixed(3).padStart(7)} ${String(r.nMaseUndefined).padStart(13)} ${r.seconds === undefined ? '' : r.seconds.toFixed(1).padStart(6)}`);
  }
}

async function main(): Promise<void> {
  const only = (arg('only') ?? COLLECTIONS.join(',')).split(',');
  const limit = Number(arg('limit') ?? Infinity);
  const stride = Number(arg('stride') ?? 1);
  const workers = Number(arg('workers') ?? Math.min(2, availableParallelism()));
  const methods = arg('methods')?.split(',');
  const rDir = resolve(arg('r-dir') ?? resolve(repositoryRoot(), 'bench/out/r_intervals'));
  for (const coll of only) {
    const { tasks, tests } = loadTasks(coll, limit, stride);
    const wall = performance.now();
    const from = arg('from'), save = arg('save');
    const shapeArg = arg('shape');
    const table = shapeArg === 'pooled' ? pooledTable(POOLED_TAIL_SHAPE) : shapeArg === 'period-band' ? M3_PERIOD_BAND_TABLE : shapeArg ? givenShape(shapeArg) : undefined;
    const kept: Outcome[] | undefined = from ? JSON.parse(readFileSync(resolve(from, `${coll}.json`), 'utf8')) : undefined;
    const outcomes: Outcome[] = kept ? kept.map((o) => reshaped(o, table)) : await runParallel(tasks, workers, methods);
    if (shapeArg && !kept) throw new Error('--shape rescores kept forecasts: use it with --from');
    if (save) { mkdirSync(save, { recursive: true }); writeFileSync(resolve(save, `${coll}.json`), JSON.stringify(outcomes)); }
    const wallSeconds = (performance.now() - wall) / 1000;
    const forecasts = new Map(outcomes.map((o) => [o.id, o.mean]));
    const periods = [...new Set(tasks.map((t) => t.period)), 'all'];
    const rows: Row[] = [];
    const refs = referenceForecasts(coll);
    const refSeconds = Number.isFinite(limit) || stride > 1 ? new Map<string, number>() : referenceSeconds(coll);
    for (const p of periods) {
      const sub = p === 'all' ? tasks : tasks.filter((t) => t.period === p);
      const cpu = outcomes.filter((o) => sub.some((t) => t.id === o.id)).reduce((s, o) => s + o.ms, 0) / 1000;
      rows.push({ ...score(p, 'sibyl', sub, forecasts, tests), seconds: cpu });
      for (const [name, byId] of refs) rows.push({ ...score(p, name, sub, byId, tests), seconds: refSeconds.get(`${p}/${name}`) });
    }
    printTable(coll, rows);
    const ours = new Map(outcomes.map((o) => [o.id, o.bands]));
    const ref = referenceBands(coll, rDir);
    const intervalRows: IntervalRow[] = periods.map((p) => scoreIntervals(p, 'sibyl', p === 'all' ? tasks : tasks.filter((t) => t.period === p), ours, tests));
    printIntervals(`${coll} intervals, every series run (coverage in % of held-out points; MSIS, lower is better)`, intervalRows);
    if (ref.bands.size) {
      const covered = tasks.filter((t) => [...ref.bands.values()].every((byId) => byId.has(t.id)));
      const same: IntervalRow[] = [];
      const points: Row[] = [];
      for (const p of periods) {
        const sub = p === 'all' ? covered : covered.filter((t) => t.period === p);
        if (sub.length === 0) continue;
        same.push(scoreIntervals(p, 'sibyl', sub, ours, tests));
        points.push(score(p, 'sibyl', sub, forecasts, tests));
        for (const [name, byId] of ref.bands) {
          same.push(scoreIntervals(p, name, sub, byId, tests));
          points.push(score(p, name, sub, ref.means.get(name)!, tests));
        }
      }
      const share = periods.filter((p) => p !== 'all').map((p) => `${p} ${covered.filter((t) => t.period === p).length}/${tasks.filter((t) => t.period === p).length}`);
      printIntervals(`${coll} intervals on the ${covered.length} series R's intervals cover (${share.join(', ')}; ${rDir})`, same);
      printTable(`${coll} points on the same series`, points);
      console.log(`\n${coll}: width of our bands over R's, geometric mean over series and steps (the same ratio at every level: a difference of scale alone)`);
      console.log(`period     reference   n_steps  ${BAND_LEVELS.map((c) => `w${Math.round(c * 100)}%`.padStart(7)).join(' ')}`);
      for (const p of periods) {
        const sub = p === 'all' ? covered : covered.filter((t) => t.period === p);
        if (sub.length === 0) continue;
        for (const [name, byId] of ref.bands) {
          const w = widthRatios(sub, ours, byId);
          console.log(`${p.padEnd(10)} ${name.padEnd(10)} ${String(w.n).padStart(8)}  ${w.ratios.map((v) => v.toFixed(3).padStart(7)).join(' ')}`);
        }
      }
    } else {
      console.log(`(no R interval reference for ${coll} in ${rDir}: run Rscript bench/r_forecast_intervals.R, see its header)`);
    }
    const chosen = new Map<string, number>();
    for (const o of outcomes) chosen.set(o.method, (chosen.get(o.method) ?? 0) + 1);
    console.log(`methods chosen: ${[...chosen].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const failed = outcomes.filter((o) => o.error);
    if (failed.length) console.log(`failed (naive used): ${failed.length}, e.g. ${failed[0].id}: ${failed[0].error}`);
    console.log(`${tasks.length} series, wall ${wallSeconds.toFixed(1)} s on ${workers} workers`);
  }
}
