/**
 * Forecasting benchmark (PROTOCOL.md §3): M3, M1 and tourism, official splits. Fits on the training
 * series, forecasts h points, scores sMAPE / smape_points / MASE per frequency and overall, next to
 * R's ets/arima/theta/comb (reference/forecast.csv) and, for M3, the THETA and ForecastPro entrants
 * rescored from m3_reference_forecasts.csv. The series are split over child processes (both cores).
 *
 *   npm run bench:forecast [-- --only m3,m1,tourism] [--limit N] [--workers 2] [--methods comb,ets]
 */
import { availableParallelism } from 'node:os';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { forecast } from '../src/ml/timeseries/forecast/index.js';
import { mase, maseScale, smape } from '../src/ml/timeseries/forecast/metrics.js';
import { column, readCsv, type CsvTable } from './lib/benchdata.js';

interface Task { id: string; period: string; m: number; h: number; y: number[] }
interface Outcome { id: string; mean: number[]; method: string; ms: number; error?: string }

const COLLECTIONS = ['m3', 'm1', 'tourism'];
const REFERENCE_METHODS = ['ets', 'arima', 'theta', 'comb'];
const M3_ENTRANTS = ['THETA', 'ForecastPro'];

function runTasks(tasks: Task[], methods?: string[]): Outcome[] {
  return tasks.map((t) => {
    const start = performance.now();
    try {
      const r = forecast(Float64Array.from(t.y), t.h, { period: t.m, levels: [], methods });
      return { id: t.id, mean: Array.from(r.mean), method: r.method, ms: performance.now() - start };
    } catch (e) {
      const last = t.y[t.y.length - 1];
      return { id: t.id, mean: new Array(t.h).fill(last), method: 'failed', ms: performance.now() - start, error: String(e) };
    }
  });
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

function groupValues(t: CsvTable): Map<string, number[]> {
  const ids = column(t, 'series_id');
  const values = column(t, 'value');
  const out = new Map<string, number[]>();
  ids.forEach((id, i) => {
    if (!out.has(id)) out.set(id, []);
    out.get(id)!.push(Number(values[i]));
  });
  return out;
}

function loadTasks(coll: string, limit: number): { tasks: Task[]; tests: Map<string, number[]> } {
  const meta = readCsv(`forecast/${coll}/${coll}_meta.csv`);
  const period = new Map(meta.rows.map((r) => [r[0], r[meta.header.indexOf('period')].toLowerCase()]));
  const freq = new Map(meta.rows.map((r) => [r[0], Number(r[meta.header.indexOf('frequency')])]));
  const horizon = new Map(meta.rows.map((r) => [r[0], Number(r[meta.header.indexOf('h')])]));
  const tasks: Task[] = [];
  const tests = new Map<string, number[]>();
  for (const p of [...new Set(period.values())]) {
    const train = groupValues(readCsv(`forecast/${coll}/${coll}_${p}_train.csv`));
    const test = groupValues(readCsv(`forecast/${coll}/${coll}_${p}_test.csv`));
    let k = 0;
    for (const [id, y] of train) {
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
  const workers = Number(arg('workers') ?? Math.min(2, availableParallelism()));
  const methods = arg('methods')?.split(',');
  for (const coll of only) {
    const { tasks, tests } = loadTasks(coll, limit);
    const wall = performance.now();
    const outcomes = await runParallel(tasks, workers, methods);
    const wallSeconds = (performance.now() - wall) / 1000;
    const forecasts = new Map(outcomes.map((o) => [o.id, o.mean]));
    const periods = [...new Set(tasks.map((t) => t.period)), 'all'];
    const rows: Row[] = [];
    const refs = referenceForecasts(coll);
    const refSeconds = Number.isFinite(limit) ? new Map<string, number>() : referenceSeconds(coll);
    for (const p of periods) {
      const sub = p === 'all' ? tasks : tasks.filter((t) => t.period === p);
      const cpu = outcomes.filter((o) => sub.some((t) => t.id === o.id)).reduce((s, o) => s + o.ms, 0) / 1000;
      rows.push({ ...score(p, 'sibyl', sub, forecasts, tests), seconds: cpu });
      for (const [name, byId] of refs) rows.push({ ...score(p, name, sub, byId, tests), seconds: refSeconds.get(`${p}/${name}`) });
    }
    printTable(coll, rows);
    const chosen = new Map<string, number>();
    for (const o of outcomes) chosen.set(o.method, (chosen.get(o.method) ?? 0) + 1);
    console.log(`methods chosen: ${[...chosen].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const failed = outcomes.filter((o) => o.error);
    if (failed.length) console.log(`failed (naive used): ${failed.length}, e.g. ${failed[0].id}: ${failed[0].error}`);
    console.log(`${tasks.length} series, wall ${wallSeconds.toFixed(1)} s on ${workers} workers`);
  }
}
