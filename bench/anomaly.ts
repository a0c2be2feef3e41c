/**
 * Anomaly benchmark (PROTOCOL.md §2): the isolation forest on every ODDS-style table in
 * benchdata/anomaly, fitted on all rows and scoring all rows, seeds 0..19; ROC AUC and average
 * precision of −score_samples against `is_anomaly`, next to scikit-learn's IsolationForest: the
 * reference file's figures (its default 100 trees, seeds 0..4) and, when a python with scikit-learn
 * is found (bench/sklearn_isolation_forest.py), scikit-learn run here on the same 20 seeds with 100
 * trees and with our default tree count. Ours is printed with our default tree count (treesForRows)
 * and with 100 trees, so the method (same trees: same forest) and the default are seen apart; "±" is
 * one fit's standard deviation over the seeds. "top-k kept" is how stable a fit's verdict is: the
 * share of the k most anomalous rows (k = the true anomalies) that the next seed's fit also ranks in
 * its top k, averaged over consecutive seeds.
 * Then what the scores mean (issue 9.6): the share flagged with the contamination estimated from
 * the data, next to the true share and to scikit-learn's contamination='auto'; and the tail
 * probabilities, fitted on a random half of the rows (anomalies included, as a session would) and
 * measured on the other half: the share of normal rows with p ≤ 0.01 / 0.05 / 0.10 (valid when at
 * most the nominal level) and the share of anomalies caught at p ≤ 0.05.
 *
 *   npm run bench:anomaly [-- dataset …]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANOMALY_TASK, IsolationForest, treesForRows } from '../src/ml/tabular/isolation-forest/index.js';
import { selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { SeededRandom } from '../src/ml/core/random.js';
import { pathToFileURL } from 'node:url';
import { benchdata, benchPath } from './lib/benchdata.js';
import { noPython, pythonWith } from './lib/python.js';
import { evaluateIsolationForest, loadAnomalyTable, referenceIsolationForest, type AnomalyRun } from './lib/anomaly-table.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i);
const SKLEARN_TREES = 100;
const SKLEARN_MODULES = ['sklearn', 'pandas'];
const TAIL_LEVELS = [0.01, 0.05, 0.1];

export function anomalyTableNames(): string[] {
  return readdirSync(benchPath('anomaly'))
    .filter((f) => f.endsWith('.csv'))
    .map((f) => f.slice(0, -4))
    .sort();
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const aucText = (xs: number[]) => `${mean(xs).toFixed(4)} ±${sd(xs).toFixed(4)}`;

/** Mean share of one fit's top-k rows that the next seed's fit also puts in its top k. */
function topKKept(runs: AnomalyRun[], k: number): number {
  const top = (r: AnomalyRun) => new Set(Array.from(r.anomalousness.keys()).sort((a, b) => r.anomalousness[b] - r.anomalousness[a]).slice(0, k));
  const sets = runs.map(top);
  const kept = sets.slice(1).map((s, i) => [...s].filter((row) => sets[i].has(row)).length / k);
  return mean(kept);
}

interface SklearnRuns {
  rocAuc: Record<string, { mean: number; sd: number }>;
  flagged: number;
}

export async function runAnomalyBench(names: string[] = anomalyTableNames()): Promise<{ ours: number; ref: number; lines: string[] }> {
  const lines: string[] = [];
  const sums = { ours: [] as number[], ours100: [] as number[], ref: [] as number[], live100: [] as number[], liveSame: [] as number[] };
  const flaggedBySklearn = new Map<string, number>();
  for (const name of names) {
    const table = loadAnomalyTable(benchdata(), name);
    const trees = treesForRows(table.frame.nRows);
    const runs = SEEDS.map((seed) => evaluateIsolationForest(table, seed));
    const runs100 = SEEDS.map((seed) => evaluateIsolationForest(table, seed, { nTrees: SKLEARN_TREES }));
    const ref = referenceIsolationForest(benchdata(), name);
    const live = sklearnRuns(name, [SKLEARN_TREES, trees]);
    const aucs = runs.map((r) => r.rocAuc);
    sums.ours.push(mean(aucs));
    sums.ours100.push(mean(runs100.map((r) => r.rocAuc)));
    sums.ref.push(ref.rocAuc);
    if (live) {
      flaggedBySklearn.set(name, live.flagged);
      sums.live100.push(live.rocAuc[SKLEARN_TREES].mean);
      sums.liveSame.push(live.rocAuc[trees].mean);
    }
    const k = table.labels.reduce((a, l) => a + l, 0);
    const liveText = live
      ? `; here, same seeds: ${SKLEARN_TREES} trees ${live.rocAuc[SKLEARN_TREES].mean.toFixed(4)} ±${live.rocAuc[SKLEARN_TREES].sd.toFixed(4)}, ${trees} trees ${live.rocAuc[trees].mean.toFixed(4)} ±${live.rocAuc[trees].sd.toFixed(4)}`
      : '';
    lines.push(
      `${name.padEnd(16)} n=${String(table.frame.nRows).padStart(6)} rate=${mean(Array.from(table.labels)).toFixed(3)}  ` +
        `ROC-AUC ${aucText(aucs)} (${trees} trees), ${aucText(runs100.map((r) => r.rocAuc))} (${SKLEARN_TREES} trees)  ` +
        `vs IsolationForest ${ref.rocAuc.toFixed(4)} ±${ref.rocAucSd.toFixed(4)} (file, 5 seeds${liveText})  ` +
        `AP ${mean(runs.map((r) => r.averagePrecision)).toFixed(4)} vs ${ref.averagePrecision.toFixed(4)}  ` +
        `top-k kept ${topKKept(runs, k).toFixed(3)} (${topKKept(runs100, k).toFixed(3)} at ${SKLEARN_TREES})  ` +
        `flagged ${mean(runs.map((r) => r.percentAnomalies)).toFixed(3)}  ${mean(runs.map((r) => r.seconds)).toFixed(3)} s/fit`,
    );
  }
  lines.push(...meaningLines(names, flaggedBySklearn));
  const summary = { ours: mean(sums.ours), ref: mean(sums.ref) };
  lines.push(
    `anomaly: ${names.length} datasets, ${SEEDS.length} seeds; mean ROC-AUC ${summary.ours.toFixed(4)} (default trees), ${mean(sums.ours100).toFixed(4)} (${SKLEARN_TREES} trees) ` +
      `vs IsolationForest ${summary.ref.toFixed(4)} (file)` +
      (sums.live100.length === names.length ? `, ${mean(sums.live100).toFixed(4)} (here, ${SKLEARN_TREES} trees), ${mean(sums.liveSame).toFixed(4)} (here, our tree counts)` : ` (${noPython(SKLEARN_MODULES, 'scikit-learn here left out')})`),
  );
  return { ...summary, lines };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  const { lines } = await runAnomalyBench(names.length ? names : undefined);
  for (const line of lines) console.log(line);
}


function sklearnRuns(name: string, trees: number[]): SklearnRuns | undefined {
  const script = join(process.cwd(), 'bench', 'sklearn_isolation_forest.py');
  const args = [script, benchPath('anomaly', `${name}.csv`), String(SEEDS.length), [...new Set(trees)].join(',')];
  const python = pythonWith(SKLEARN_MODULES);
  if (!python) return undefined;
  try {
    const out = execFileSync(python, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMP_NUM_THREADS: '1' } });
    return JSON.parse(out.trim().split('\n').pop()!) as SklearnRuns;
  } catch (e) {
    console.error(`scikit-learn's IsolationForest failed on ${name}: ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

function meaningLines(names: string[], flaggedBySklearn: Map<string, number>): string[] {
  const lines = [`anomaly scores with a meaning: contamination (flagged share) and tail probabilities on held-out halves, seeds 0..${SEEDS.length - 1}`];
  const errors: { ours: number; sklearn: number }[] = [];
  for (const name of names) {
    const table = loadAnomalyTable(benchdata(), name);
    const n = table.frame.nRows;
    const rate = mean(Array.from(table.labels));
    const flagged = mean(SEEDS.map((seed) => new IsolationForest().fit(table.frame, null, ANOMALY_TASK, { seed }).threshold.contamination));
    const sk = flaggedBySklearn.get(name);
    if (sk !== undefined) errors.push({ ours: Math.abs(flagged - rate), sklearn: Math.abs(sk - rate) });
    const fpr = TAIL_LEVELS.map(() => 0);
    let power = 0;
    for (const seed of SEEDS) {
      const order = Int32Array.from({ length: n }, (_, i) => i);
      new SeededRandom(seed + 100).shuffle(order);
      const fitRows = order.slice(0, Math.floor(n / 2));
      const heldRows = order.slice(Math.floor(n / 2));
      const forest = new IsolationForest().fit(selectRows(table.frame, fitRows), null, ANOMALY_TASK, { seed });
      const p = forest.tailProbability(selectRows(table.frame, heldRows));
      const normal = Array.from(heldRows.keys()).filter((j) => table.labels[heldRows[j]] === 0);
      const anomalous = Array.from(heldRows.keys()).filter((j) => table.labels[heldRows[j]] === 1);
      TAIL_LEVELS.forEach((a, t) => (fpr[t] += normal.filter((j) => p[j] <= a).length / normal.length / SEEDS.length));
      power += anomalous.filter((j) => p[j] <= 0.05).length / Math.max(1, anomalous.length) / SEEDS.length;
    }
    lines.push(
      `${name.padEnd(16)} true share ${rate.toFixed(3)}  flagged ${flagged.toFixed(3)} (sklearn auto ${sk === undefined ? 'n/a' : sk.toFixed(3)}; former 10 % cap ${Math.min(0.1, flagged).toFixed(3)})  ` +
        `normal rows with p ≤ ${TAIL_LEVELS.map((a, t) => `${a}: ${fpr[t].toFixed(3)}`).join(', ')}  anomalies with p ≤ 0.05: ${power.toFixed(3)}`,
    );
  }
  if (errors.length) {
    lines.push(`contamination: mean |flagged − true share| ${mean(errors.map((e) => e.ours)).toFixed(3)} vs sklearn auto ${mean(errors.map((e) => e.sklearn)).toFixed(3)}`);
  }
  return lines;
}
