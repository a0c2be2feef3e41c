/**
 * Anomaly benchmark (PROTOCOL.md §2): the isolation forest on every ODDS-style table in
 * benchdata/anomaly, fitted on all rows and scoring all rows, seeds 0..4; ROC AUC and average
 * precision of −score_samples against `is_anomaly`, next to scikit-learn's IsolationForest.
 *
 *   npx tsx bench/anomaly.ts [dataset …]
 */
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { benchdata, benchPath } from './lib/benchdata.js';
import { evaluateIsolationForest, loadAnomalyTable, referenceIsolationForest } from './lib/anomaly-table.js';

const SEEDS = [0, 1, 2, 3, 4];

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
  const summary = { ours: mean(ours), ref: mean(refs) };
  lines.push(`anomaly: ${names.length} datasets; mean ROC-AUC ${summary.ours.toFixed(4)} vs IsolationForest ${summary.ref.toFixed(4)}`);
  return { ...summary, lines };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  const { lines } = await runAnomalyBench(names.length ? names : undefined);
  for (const line of lines) console.log(line);
}
