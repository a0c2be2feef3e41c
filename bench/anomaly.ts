/**
 * Anomaly benchmark (PROTOCOL.md §2): the isolation forest on every ODDS-style table in
 * benchdata/anomaly, fitted on all rows and scoring all rows, seeds 0..4; ROC AUC and average
 * precision of −score_samples against `is_anomaly`, next to scikit-learn's IsolationForest.
 * Then what the scores mean (issue 9.6): the share flagged with the contamination estimated from
 * the data, next to the true share and to scikit-learn's contamination='auto' (its flagged share,
 * computed here with bench/sklearn_contamination.py when a python with scikit-learn is found);
 * and the tail probabilities, fitted on a random half of the rows (anomalies included, as a
 * session would) and measured on the other half: the share of normal rows with p ≤ 0.01 / 0.05 /
 * 0.10 (valid when at most the nominal level) and the share of anomalies caught at p ≤ 0.05.
 *
 *   npm run bench:anomaly [-- dataset …]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANOMALY_TASK, IsolationForest } from '../src/ml/tabular/isolation-forest/index.js';
import { selectRows } from '../src/ml/tabular/contest/frame-rows.js';
import { SeededRandom } from '../src/ml/core/random.js';
import { pathToFileURL } from 'node:url';
import { benchdata, benchPath } from './lib/benchdata.js';
import { evaluateIsolationForest, loadAnomalyTable, referenceIsolationForest } from './lib/anomaly-table.js';

const SEEDS = [0, 1, 2, 3, 4];
const TAIL_LEVELS = [0.01, 0.05, 0.1];

export function anomalyTableNames(): string[] {
  return readdirSync(benchPath('anomaly'))
    .filter((f) => f.endsWith('.csv'))
    .map((f) => f.slice(0, -4))
    .sort();
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function runAnomalyBench(names: string[] = anomalyTableNames()): Promise<{ ours: number; ref: number; lines: string[] }> {
  const lines: string[] = [];
  const ours: number[] = [];
  const refs: number[] = [];
  for (const name of names) {
    const table = loadAnomalyTable(benchdata(), name);
    const runs = SEEDS.map((seed) => evaluateIsolationForest(table, seed));
    const ref = referenceIsolationForest(benchdata(), name);
    const auc = mean(runs.map((r) => r.rocAuc));
    ours.push(auc);
    refs.push(ref.rocAuc);
    const rate = mean(Array.from(table.labels));
    lines.push(
      `${name.padEnd(16)} n=${String(table.frame.nRows).padStart(6)} rate=${rate.toFixed(3)}  ` +
        `ROC-AUC ${auc.toFixed(4)} vs ${ref.rocAuc.toFixed(4)} (±${ref.rocAucSd.toFixed(4)})  ` +
        `AP ${mean(runs.map((r) => r.averagePrecision)).toFixed(4)} vs ${ref.averagePrecision.toFixed(4)}  ` +
        `flagged ${mean(runs.map((r) => r.percentAnomalies)).toFixed(3)}  ${mean(runs.map((r) => r.seconds)).toFixed(3)} s/run`,
    );
  }
  lines.push(...meaningLines(names));
  const summary = { ours: mean(ours), ref: mean(refs) };
  lines.push(`anomaly: ${names.length} datasets; mean ROC-AUC ${summary.ours.toFixed(4)} vs IsolationForest ${summary.ref.toFixed(4)}`);
  return { ...summary, lines };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  const { lines } = await runAnomalyBench(names.length ? names : undefined);
  for (const line of lines) console.log(line);
}


function sklearnFlagged(name: string): number | undefined {
  const script = join(process.cwd(), 'bench', 'sklearn_contamination.py');
  for (const python of [process.env.SIBYL_PYTHON, join(process.cwd(), '.venv/bin/python'), '/work/venv/bin/python'].filter((p): p is string => !!p && existsSync(p))) {
    try {
      const out = execFileSync(python, [script, benchPath('anomaly', `${name}.csv`)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OMP_NUM_THREADS: '1' } });
      return (JSON.parse(out.trim().split('\n').pop()!) as { flagged: number }).flagged;
    } catch {
      // try the next python
    }
  }
  return undefined;
}

function meaningLines(names: string[]): string[] {
  const lines = ['anomaly scores with a meaning: contamination (flagged share) and tail probabilities on held-out halves, seeds 0..4'];
  const errors: { ours: number; sklearn: number }[] = [];
  for (const name of names) {
    const table = loadAnomalyTable(benchdata(), name);
    const n = table.frame.nRows;
    const rate = mean(Array.from(table.labels));
    const flagged = mean(SEEDS.map((seed) => new IsolationForest().fit(table.frame, null, ANOMALY_TASK, { seed }).threshold.contamination));
    const sk = sklearnFlagged(name);
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
