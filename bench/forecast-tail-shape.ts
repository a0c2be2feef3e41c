/**
 * Estimates the pooled tail shape of forecast errors (src/ml/timeseries/forecast/tail-shape.ts; the
 * fit in lib/tail-shape-fit.ts) and its table by period and horizon band (lib/tail-shape-table.ts) from
 * the training series of a collection alone: each series' last h training points are a pseudo-holdout,
 * forecast by the whole procedure (backtests, choice, calibration) from the points before them; the
 * errors standardised by the calibrated spread, with the series' own degrees of freedom, are pooled
 * and (s, ν₀) fitted by maximum likelihood. The competition holdouts are never read. M3 is the
 * collection the shipped constant comes from; M1 and tourism are the confirmation sets (their figures
 * printed here are for comparison, not used).
 *
 *   npm run bench:forecast-tail-shape [-- --only m3] [--stride 1] [--workers 2] [--save DIR | --from DIR] [--weight msis] [--lambda L] [--no-table-fit] [--prior-weight]
 *   (--prior-weight: the likelihood and pseudo-holdout scores of each prior weight of the model's own
 *   variance in the backtest calibration, forecast.ts CALIBRATION_PRIOR_WINDOWS, the pooled shape refitted at each)
 *   (--save keeps the standardised errors as DIR/<coll>.json, --from refits kept ones)
 *
 * Prints per collection the fitted shape, per period too, and the pseudo-holdout coverage of the
 * 50/80/90/95 % bands without and with it.
 */
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { predictiveDistribution } from '../src/ml/timeseries/forecast/forecast.js';
import { maseScale } from '../src/ml/timeseries/forecast/metrics.js';
import { studentTQuantile } from '../src/ml/timeseries/forecast/quantiles.js';
import { combinedDof, POOLED_TAIL_SHAPE, type TailShape } from '../src/ml/timeseries/forecast/tail-shape.js';
import { fitBestTailShape, fitTailShape, studentTLogDensity, type ShapeSample } from './lib/tail-shape-fit.js';
import { crossValidatedPrior, fitShapeTable, horizonBand, HORIZON_BANDS, pooledTable, shapeForPeriod, tableLogDensity, type HorizonSample, type TailShapeTable } from './lib/tail-shape-table.js';
import { readCsv, seriesValues } from './lib/benchdata.js';

interface Task { id: string; period: string; m: number; h: number; y: number[] }
/**
 * `spread`: the calibrated spread over the series' MASE scale (how much the error weighs in the MSIS);
 * `mean`, `sd`, `actual`, `scale`: the forecast, its calibrated spread, the held-out value and the MASE
 * scale, for scoring bands as bench:forecast does; `positive`: the series is strictly positive (its
 * forecasts and bands are floored at 0).
 */
interface Sample extends HorizonSample {
  period: string; spread?: number; mean?: number; sd?: number; actual?: number; scale?: number; positive?: boolean;
  /** The backtest calibration's evidence (Σz², errors) and the factor applied to the model's spread. */
  sumSquares?: number; errors?: number; factor?: number;
}

const BAND_LEVELS = [0.5, 0.8, 0.9, 0.95];
const CHILD_FLAG = '--tail-shape-worker';

/** Standardised pseudo-holdout errors of one series; none when its spread was not calibrated by backtests. */
function samplesOf(t: Task): Sample[] {
  const n = t.y.length - t.h;
  if (n < 3) return [];
  try {
    const d = predictiveDistribution(Float64Array.from(t.y.slice(0, n)), t.h, { period: t.m });
    if (!d.calibrated) return [];
    const out: Sample[] = [];
    const scale = maseScale(t.y.slice(0, n), t.m);
    for (let k = 0; k < t.h; k++) {
      const mean = Math.max(d.chosen.mean[k], d.floor), sd = d.chosen.sd[k];
      if (!(sd > 0) || !Number.isFinite(sd)) continue;
      out.push({
        z: (t.y[n + k] - mean) / sd, dof: d.chosen.dof ?? Infinity, period: t.period, m: t.m, step: k + 1, h: t.h, series: t.id, spread: sd / scale,
        mean, sd, actual: t.y[n + k], scale, positive: d.floor === 0, ...d.calibration,
      });
    }
    return out;
  } catch {
    return [];
  }
}


function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function loadTasks(coll: string, stride: number): Task[] {
  const meta = readCsv(`forecast/${coll}/${coll}_meta.csv`);
  const col = (name: string) => meta.header.indexOf(name);
  const info = new Map(meta.rows.map((r) => [r[0], { period: r[col('period')].toLowerCase(), m: Number(r[col('frequency')]), h: Number(r[col('h')]) }]));
  const tasks: Task[] = [];
  for (const p of [...new Set([...info.values()].map((v) => v.period))]) {
    const series = seriesValues(readCsv(`forecast/${coll}/${coll}_${p}_train.csv`));
    let i = 0;
    for (const [id, y] of series) if (i++ % stride === 0) tasks.push({ id, period: p, m: info.get(id)!.m, h: info.get(id)!.h, y });
  }
  return tasks;
}

async function runParallel(tasks: Task[], workers: number): Promise<Sample[]> {
  const chunks = Array.from({ length: workers }, (_, w) => tasks.filter((_, i) => i % workers === w));
  const parts = await Promise.all(chunks.map((chunk) => new Promise<Sample[]>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG]);
    child.once('message', (m) => resolve(m as Sample[]));
    child.once('error', reject);
    child.send(chunk);
  })));
  return parts.flat();
}

/** Share of the samples inside each central band under a shape. */
function coverage(samples: readonly ShapeSample[], shape: TailShape): number[] {
  return BAND_LEVELS.map((c) => {
    let inside = 0;
    for (const { z, dof } of samples) if (Math.abs(z) <= shape.scale * studentTQuantile((1 + c) / 2, combinedDof(shape.dof, dof, shape.seriesDofWeight))) inside++;
    return inside / samples.length;
  });
}

/** Share of the samples inside each central band under a table (period and horizon band). */
function tableCoverage(samples: readonly HorizonSample[], table: TailShapeTable): number[] {
  return BAND_LEVELS.map((c) => {
    let inside = 0;
    for (const s of samples) {
      const shape = shapeForPeriod(table, s.m);
      const q = shape.bandScales[horizonBand(s.step, s.h)] * studentTQuantile((1 + c) / 2, combinedDof(shape.dof, s.dof, shape.seriesDofWeight));
      if (Math.abs(s.z) <= q) inside++;
    }
    return inside / samples.length;
  });
}

/** Prior weights of the model's variance in the calibration, in windows of h errors, tried by --prior-weight. */
const CALIBRATION_PRIOR_GRID = [0.5, 1, 2, 4, 8, 12, 16, 24, 32, 64];

/**
 * The samples as if the calibration's prior weight had been w windows: each spread rescaled from the
 * applied factor to sqrt((w·h + Σz²)/(w·h + n)); the log of the ratio returned for the likelihood of y.
 */
function withPriorWeight(samples: readonly Sample[], w: number): { samples: Sample[]; logSdRatio: number } {
  let logSdRatio = 0;
  const out = samples.map((s) => {
    const p = w * s.h;
    const ratio = Math.sqrt((p + s.sumSquares!) / (p + s.errors!)) / s.factor!;
    logSdRatio += Math.log(ratio);
    return { ...s, sd: s.sd! * ratio, z: s.z / ratio, spread: s.spread! * ratio };
  });
  return { samples: out, logSdRatio };
}

/**
 * Pseudo-holdout coverage and MSIS of the bands under a pooled shape: each error's band from its
 * forecast (floored at 0 for positive series), the interval score over the series' MASE scale averaged
 * over its horizon, then over the series (as bench:forecast scores the holdouts).
 */
function bandScores(samples: readonly Sample[], shape: TailShape): { coverage: number[]; msis: number[] } {
  const inside = BAND_LEVELS.map(() => 0);
  const bySeries = new Map<string, number[]>();
  for (const s of samples) {
    const floor = s.positive ? 0 : -Infinity;
    const v = combinedDof(shape.dof, s.dof, shape.seriesDofWeight);
    const row = bySeries.get(s.series) ?? BAND_LEVELS.map(() => 0);
    BAND_LEVELS.forEach((c, j) => {
      const half = shape.scale * s.sd! * studentTQuantile((1 + c) / 2, v);
      const lo = Math.max(floor, s.mean! - half), hi = Math.max(floor, s.mean! + half), y = s.actual!;
      if (y >= lo && y <= hi) inside[j]++;
      row[j] += (hi - lo + (2 / (1 - c)) * (Math.max(lo - y, 0) + Math.max(y - hi, 0))) / s.scale! / s.h;
    });
    if (s.scale! > 0) bySeries.set(s.series, row);
  }
  const msis = BAND_LEVELS.map((_, j) => [...bySeries.values()].reduce((a, r) => a + r[j], 0) / bySeries.size);
  return { coverage: inside.map((v) => v / samples.length), msis };
}

/**
 * Log-likelihood of the held-out values (the pooled shape's s and ν₀ refitted at each weight, λ kept;
 * the log ratio of the spreads makes the weights comparable) and pseudo-holdout scores at each prior weight.
 */
function priorWeightReport(samples: readonly Sample[]): void {
  const usable = samples.filter((s) => s.factor !== undefined && s.mean !== undefined);
  console.log(`prior weight of the model's variance in the calibration (windows of h errors): ${usable.length} errors`);
  console.log(`    w   log-lik(y)       s      ν₀ | cov50  cov80  cov90  cov95 | msis50 msis80 msis90 msis95 | per period msis95`);
  const periods = [...new Set(usable.map((s) => s.period))];
  for (const w of CALIBRATION_PRIOR_GRID) {
    const { samples: at, logSdRatio } = withPriorWeight(usable, w);
    const fit = fitTailShape(at, POOLED_TAIL_SHAPE.seriesDofWeight);
    const all = bandScores(at, fit);
    const per = periods.map((p) => `${p} ${bandScores(at.filter((s) => s.period === p), fit).msis[3].toFixed(2)}`).join(', ');
    console.log(`  ${String(w).padStart(4)} ${(fit.logLikelihood - logSdRatio).toFixed(1).padStart(10)} ${fit.scale.toFixed(4)} ${fit.dof.toFixed(3).padStart(7)} | ${pct(all.coverage)} | ${all.msis.map((v) => v.toFixed(3).padStart(6)).join(' ')} | ${per}`);
  }
}

/** Prior weights (in errors) of each level's parent tried by the cross-validation; ∞ is the pooled shape alone. */
const PRIOR_GRID = [0, 100, 300, 1000, 3000, 10000, Infinity];

function showTable(t: TailShapeTable): string {
  const one = (b: { dof: number; seriesDofWeight: number; bandScales: number[] }) =>
    `{ dof: ${b.dof.toFixed(3)}, seriesDofWeight: ${b.seriesDofWeight}, bandScales: [${b.bandScales.map((v) => v.toFixed(4)).join(', ')}] }`;
  return `{\n  pooled: ${one(t.pooled)},\n  byPeriod: {\n${Object.entries(t.byPeriod).map(([m, b]) => `    '${m}': ${one(b)},`).join('\n')}\n  },\n  priorErrors: ${t.priorErrors},\n}`;
}

const pct = (v: number[]) => v.map((x) => (100 * x).toFixed(1).padStart(6)).join(' ');
const show = (s: TailShape) => `s = ${s.scale.toFixed(4)}, ν₀ = ${Number.isFinite(s.dof) ? s.dof.toFixed(3) : '∞'}, λ = ${s.seriesDofWeight}`;

async function main(): Promise<void> {
  const only = (arg('only') ?? 'm3').split(',');
  const stride = Number(arg('stride') ?? 1);
  const workers = Number(arg('workers') ?? Math.min(2, availableParallelism()));
  const identity: TailShape = { scale: 1, dof: Infinity, seriesDofWeight: 1 };
  for (const coll of only) {
    const tasks = loadTasks(coll, stride);
    const cpu = process.cpuUsage();
    const from = arg('from'), save = arg('save');
    const samples: Sample[] = from ? JSON.parse(readFileSync(resolve(from, `${coll}.json`), 'utf8')) : await runParallel(tasks, workers);
    if (save) { mkdirSync(save, { recursive: true }); writeFileSync(resolve(save, `${coll}.json`), JSON.stringify(samples)); }
    if (arg('weight') === 'msis') {
      // Each error weighted as it counts in the MSIS: its spread over the series' MASE scale, over h (a
      // series' mean over its horizon); normalised to mean 1 so that the prior weight keeps its unit.
      const raw = samples.map((x) => (Number.isFinite(x.spread!) ? x.spread! / x.h : 0));
      const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
      samples.forEach((x, i) => { x.weight = raw[i] / mean; });
      const sq = samples.reduce((a, x) => a + x.weight! ** 2, 0);
      console.log(`errors weighted by their weight in the MSIS: effective number ${(samples.length ** 2 / sq).toFixed(0)} of ${samples.length}`);
    }
    if (process.argv.includes('--prior-weight')) { priorWeightReport(samples); continue; }
    const fixedLambda = arg('lambda');
    const shape = fixedLambda === undefined ? fitBestTailShape(samples) : fitTailShape(samples, Number(fixedLambda));
    console.log(`\n== ${coll}: ${tasks.length} training series (every ${stride}), ${samples.length} pseudo-holdout errors ==`);
    if (fixedLambda === undefined) {
      const combined = fitTailShape(samples, 1), replaced = fitTailShape(samples, 0);
      const unshaped = samples.reduce((a, { z, dof }) => a + studentTLogDensity(z, combinedDof(Infinity, dof)), 0);
      console.log(`log-likelihood: no pooled shape ${unshaped.toFixed(1)}; λ = 1 ${combined.logLikelihood.toFixed(1)} (${show(combined)}); λ = 0 ${replaced.logLikelihood.toFixed(1)} (${show(replaced)})`);
    }
    console.log(`pooled shape (${fixedLambda === undefined ? 'likeliest λ of 0, 0.1, …, 1' : 'λ given'}): ${show(shape)}, log-likelihood ${shape.logLikelihood.toFixed(1)}`);
    // What forecasts ship, the pooled shape, as a table: the "shipped table" printed below.
    const pooledAsTable = pooledTable(POOLED_TAIL_SHAPE);
    const logLik = (t: TailShapeTable) => samples.reduce((a, s) => a + tableLogDensity(t, s), 0).toFixed(1);
    let table = pooledAsTable;
    if (!process.argv.includes('--no-table-fit')) {
      const cv = crossValidatedPrior(samples, PRIOR_GRID, shape.seriesDofWeight);
      console.log(`prior weight of the parent level (errors): ${PRIOR_GRID.join(', ')}; 5-fold leave-series-out log-likelihood: ${cv.scores.map((v) => v.toFixed(1)).join(', ')} → ${cv.priorErrors}`);
      const fitted = fitShapeTable(samples, cv.priorErrors, shape.seriesDofWeight);
      console.log(`shape table fitted on ${coll} (log-likelihood ${logLik(fitted)}):\n${showTable(fitted)}`);
      if (coll === 'm3') table = fitted;
    }
    console.log(`log-likelihood on these errors: shipped pooled shape ${logLik(pooledAsTable)}, shipped table ${logLik(pooledAsTable)}`);
    console.log(`coverage of the central bands: identity | shipped pooled shape | ${table === pooledAsTable ? 'shipped' : 'fitted'} table`);
    console.log(`period     band  n_errors   cov50  cov80  cov90  cov95 |  cov50  cov80  cov90  cov95 |  cov50  cov80  cov90  cov95`);
    for (const p of [...new Set(samples.map((s) => s.period)), 'all']) {
      for (const b of [-1, ...Array.from({ length: HORIZON_BANDS }, (_, i) => i)]) {
        const sub = samples.filter((s) => (p === 'all' || s.period === p) && (b < 0 || horizonBand(s.step, s.h) === b));
        if (!sub.length) continue;
        console.log(`${p.padEnd(10)} ${(b < 0 ? 'all' : String(b + 1)).padStart(4)} ${String(sub.length).padStart(9)}  ${pct(coverage(sub, identity))} | ${pct(coverage(sub, POOLED_TAIL_SHAPE))} | ${pct(tableCoverage(sub, table))}`);
      }
    }
    const used = process.cpuUsage(cpu);
    console.log(`(parent CPU ${((used.user + used.system) / 1e6).toFixed(1)} s; the forecasts run in ${workers} child processes)`);
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  process.once('message', (tasks: Task[]) => process.send!(tasks.flatMap(samplesOf), () => process.exit(0)));
} else {
  await main();
}
