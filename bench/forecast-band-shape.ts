/**
 * Shape or scale: which of the two costs the bands interval score? Read on pseudo-holdouts alone (each
 * training series' last h points forecast from the points before them, saved by
 * `bench:forecast-tail-shape -- --save DIR`), of M3, M1 and tourism together; the competition holdouts
 * are never read.
 *
 * 1. Per band level, the multiplier of the shipped half-width (POOLED_TAIL_SHAPE) that minimises the
 *    MSIS, per collection and period. Equal multipliers at every level say the scale is off and the
 *    shape (the ratio of the inner to the outer quantiles) is right; multipliers that differ by level
 *    say the shape is off.
 * 2. Shapes at the shipped 95 % width: ν₀ varied and s set so that the 95 % quantile (at the pooled ν₀,
 *    before the series' own degrees of freedom) stays where it is. Only the inner bands move.
 * 3. (s, ν₀) fitted by the interval score (mean over the four levels of MSIS over the shipped shape's
 *    MSIS) on two collections, scored on the third, and by likelihood on all three pooled.
 *
 *   npm run bench:forecast-band-shape -- --from DIR [--only m3,m1,tourism]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { studentTQuantile } from '../src/ml/timeseries/forecast/quantiles.js';
import { combinedDof, POOLED_TAIL_SHAPE, type TailShape } from '../src/ml/timeseries/forecast/tail-shape.js';
import { fitTailShape } from './lib/tail-shape-fit.js';

/** The fields of a bench/forecast-tail-shape.ts sample that scoring a band needs. */
interface Sample { z: number; dof: number; period: string; m: number; step: number; h: number; series: string; mean: number; sd: number; actual: number; scale: number; positive: boolean }

const LEVELS = [0.5, 0.8, 0.9, 0.95];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Half-width of each level's band, in units of the sample's calibrated spread, under a shape. */
function halfWidths(s: Sample, shape: TailShape): number[] {
  const v = combinedDof(shape.dof, s.dof, shape.seriesDofWeight);
  return LEVELS.map((c) => shape.scale * studentTQuantile((1 + c) / 2, v));
}

interface Scores { coverage: number[]; msis: number[]; series: number }

/**
 * Coverage and MSIS (as bench:forecast scores holdouts: per series the mean over its horizon of the
 * interval score over the MASE scale, then the mean over series) of the bands whose half-widths are
 * `widths(s)` spreads, each multiplied by `multipliers[j]`.
 */
function scores(samples: readonly Sample[], widths: (s: Sample) => number[], multipliers = LEVELS.map(() => 1)): Scores {
  const inside = LEVELS.map(() => 0);
  const bySeries = new Map<string, number[]>();
  for (const s of samples) {
    const w = widths(s);
    const floor = s.positive ? 0 : -Infinity;
    const row = bySeries.get(s.series) ?? LEVELS.map(() => 0);
    LEVELS.forEach((c, j) => {
      const half = w[j] * multipliers[j] * s.sd;
      const lo = Math.max(floor, s.mean - half), hi = Math.max(floor, s.mean + half), y = s.actual;
      if (y >= lo && y <= hi) inside[j]++;
      row[j] += (hi - lo + (2 / (1 - c)) * (Math.max(lo - y, 0) + Math.max(y - hi, 0))) / s.scale / s.h;
    });
    if (s.scale > 0) bySeries.set(s.series, row);
  }
  const msis = LEVELS.map((_, j) => [...bySeries.values()].reduce((a, r) => a + r[j], 0) / bySeries.size);
  return { coverage: inside.map((v) => v / samples.length), msis, series: bySeries.size };
}

/** Per level, the multiplier of the shipped half-width on a grid that minimises the MSIS. */
function bestMultipliers(samples: readonly Sample[]): { multipliers: number[]; msis: number[] } {
  const shipped = new Map(samples.map((s) => [s, halfWidths(s, POOLED_TAIL_SHAPE)]));
  const grid = Array.from({ length: 121 }, (_, i) => 0.5 + i * 0.0125);
  const best = LEVELS.map(() => ({ k: 1, msis: Infinity }));
  for (const k of grid) {
    const r = scores(samples, (s) => shipped.get(s)!, LEVELS.map(() => k));
    r.msis.forEach((v, j) => { if (v < best[j].msis) best[j] = { k, msis: v }; });
  }
  return { multipliers: best.map((b) => b.k), msis: best.map((b) => b.msis) };
}

/** The shape with pooled ν₀ = dof whose pooled 95 % quantile equals the shipped one's. */
function atShipped95(dof: number): TailShape {
  const q = (v: number) => studentTQuantile(0.975, v);
  return { scale: (POOLED_TAIL_SHAPE.scale * q(POOLED_TAIL_SHAPE.dof)) / q(dof), dof, seriesDofWeight: POOLED_TAIL_SHAPE.seriesDofWeight };
}

const DOF_GRID = [2.5, 3, 4, 5, 6.26, 8, 12, 20, 50, Infinity];

/** Mean over the levels of MSIS relative to the shipped shape's, per collection, then over the collections. */
function relativeScore(sets: readonly Sample[][], baseline: Scores[], shape: TailShape): number {
  let total = 0;
  sets.forEach((set, i) => {
    const r = scores(set, (s) => halfWidths(s, shape));
    total += r.msis.reduce((a, v, j) => a + v / baseline[i].msis[j], 0) / LEVELS.length;
  });
  return total / sets.length;
}

/** (s, ν₀) minimising relativeScore: ν₀ on DOF_GRID, s on a grid of ±30 % around the shipped 95 % width. */
function fitByIntervalScore(sets: readonly Sample[][], baseline: Scores[]): TailShape {
  let best: TailShape = POOLED_TAIL_SHAPE, bestScore = Infinity;
  for (const dof of DOF_GRID) {
    const base = atShipped95(dof);
    for (let i = -12; i <= 12; i++) {
      const shape = { ...base, scale: base.scale * (1 + 0.025 * i) };
      const v = relativeScore(sets, baseline, shape);
      if (v < bestScore) { best = shape; bestScore = v; }
    }
  }
  return best;
}

const pct = (v: number[]) => v.map((x) => (100 * x).toFixed(1).padStart(5)).join(' ');
const num = (v: number[], d = 3) => v.map((x) => x.toFixed(d).padStart(6)).join(' ');
const show = (s: TailShape) => `s ${s.scale.toFixed(4)}, ν₀ ${Number.isFinite(s.dof) ? s.dof.toFixed(2) : '∞'}`;

function main(): void {
  const from = arg('from');
  if (!from) throw new Error('--from DIR: the samples saved by bench:forecast-tail-shape -- --save DIR');
  const only = (arg('only') ?? 'm3,m1,tourism').split(',');
  const sets = new Map<string, Sample[]>();
  for (const coll of only) {
    const raw: Sample[] = JSON.parse(readFileSync(resolve(from, `${coll}.json`), 'utf8'));
    sets.set(coll, raw.filter((s) => s.mean !== undefined && s.scale > 0 && Number.isFinite(s.actual)));
  }

  console.log('1. MSIS-optimal multiplier of the shipped half-width, per level (1 = the shipped band; equal across levels = a scale error, unequal = a shape error)');
  console.log('collection period      n_series  n_errors |    k50    k80    k90    k95 | shipped cov50..95        | shipped msis50..95          | best msis50..95');
  for (const [coll, samples] of sets) {
    for (const p of [...new Set(samples.map((s) => s.period)), 'all']) {
      const sub = p === 'all' ? samples : samples.filter((s) => s.period === p);
      const shipped = scores(sub, (s) => halfWidths(s, POOLED_TAIL_SHAPE));
      const best = bestMultipliers(sub);
      console.log(`${coll.padEnd(10)} ${p.padEnd(10)} ${String(shipped.series).padStart(9)} ${String(sub.length).padStart(9)} | ${num(best.multipliers)} | ${pct(shipped.coverage)} | ${num(shipped.msis)} | ${num(best.msis)}`);
    }
  }
  const all = [...sets.values()].flat();
  const pooledBest = bestMultipliers(all);
  console.log(`all three pooled: k ${num(pooledBest.multipliers)}`);

  console.log('\n2. Shapes with the shipped 95 % width (only the inner bands move): coverage and MSIS per collection');
  const baseline = [...sets.values()].map((set) => scores(set, (s) => halfWidths(s, POOLED_TAIL_SHAPE)));
  for (const dof of DOF_GRID) {
    const shape = atShipped95(dof);
    const cells = [...sets].map(([coll, set]) => {
      const r = scores(set, (s) => halfWidths(s, shape));
      return `${coll} ${pct(r.coverage)} / ${num(r.msis, 2)}`;
    });
    console.log(`${show(shape).padEnd(20)} ${cells.join(' | ')}`);
  }

  console.log('\n3. (s, ν₀) fitted by interval score on the other collections, scored on each (MSIS relative to the shipped shape, mean over levels; < 1 is better)');
  const names = [...sets.keys()];
  for (const held of names) {
    const trainSets = names.filter((n) => n !== held).map((n) => sets.get(n)!);
    const trainBase = names.filter((n) => n !== held).map((n) => baseline[names.indexOf(n)]);
    const fit = fitByIntervalScore(trainSets, trainBase);
    const heldSet = sets.get(held)!;
    const r = scores(heldSet, (s) => halfWidths(s, fit));
    const rel = relativeScore([heldSet], [baseline[names.indexOf(held)]], fit);
    console.log(`fitted without ${held.padEnd(8)}: ${show(fit)}; on ${held}: ${pct(r.coverage)} / ${num(r.msis, 2)} (shipped ${num(baseline[names.indexOf(held)].msis, 2)}), relative ${rel.toFixed(4)}`);
  }
  const ml = fitTailShape(all, POOLED_TAIL_SHAPE.seriesDofWeight);
  const mlShape: TailShape = { scale: ml.scale, dof: ml.dof, seriesDofWeight: POOLED_TAIL_SHAPE.seriesDofWeight };
  console.log(`likelihood fit on all three pooled (λ ${POOLED_TAIL_SHAPE.seriesDofWeight}): ${show(mlShape)}`);
  for (const [coll, set] of sets) {
    const r = scores(set, (s) => halfWidths(s, mlShape));
    console.log(`  ${coll.padEnd(8)} ${pct(r.coverage)} / ${num(r.msis, 2)} (shipped ${num(baseline[names.indexOf(coll)].msis, 2)}), relative ${relativeScore([set], [baseline[names.indexOf(coll)]], mlShape).toFixed(4)}`);
  }
}

main();
