/**
 * Anomaly benchmark (PROTOCOL.md §2): the isolation forest on every ODDS-style table in
 * benchdata/anomaly, fitted on all rows and scoring all rows, seeds 0..4; ROC AUC and average
 * precision of −score_samples against `is_anomaly`, next to scikit-learn's IsolationForest.
 *
 *   npx tsx bench/anomaly.ts [dataset …]
 */
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { benchPath, column, readCsv } from './lib/benchdata.js';
import { fitFrameEncoder } from '../src/ml/encode.js';
import type { Frame } from '../src/ml/frame.js';
import { averagePrecision, rocAuc } from '../src/ml/metrics/ranking.js';
import { IsolationForest, percentAnomalies } from '../src/ml/tabular/isolation-forest/index.js';

const LABEL = 'is_anomaly';
const SEEDS = [0, 1, 2, 3, 4];

export interface AnomalyTable {
  name: string;
  frame: Frame;
  labels: Uint8Array; // 1 = anomaly
}

/** An ODDS-style table: every column but the label is a numeric feature. */
export function loadAnomalyTable(name: string): AnomalyTable {
  const table = readCsv('anomaly', `${name}.csv`);
  const features = table.header.filter((h) => h !== LABEL);
  const columns = Object.fromEntries(features.map((h) => [h, column(table, h)]));
  const frame = fitFrameEncoder(features.map((name) => ({ name, dataType: 'numeric' as const })), columns).encode(columns);
  return { name, frame, labels: Uint8Array.from(column(table, LABEL), Number) };
}

export function anomalyTableNames(): string[] {
  return readdirSync(benchPath('anomaly'))
    .filter((f) => f.endsWith('.csv'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** scikit-learn IsolationForest results (mean over its seeds 0..4) from reference/anomaly.csv. */
export function referenceIsolationForest(name: string): { rocAuc: number; averagePrecision: number; rocAucSd: number } {
  const t = readCsv('reference', 'anomaly.csv');
  const col = (h: string) => t.header.indexOf(h);
  const row = t.rows.find((r) => r[col('dataset')] === name && r[col('method')] === 'isolation_forest');
  if (!row) throw new Error(`no isolation_forest reference for ${name}`);
  return { rocAuc: Number(row[col('roc_auc')]), averagePrecision: Number(row[col('avg_precision')]), rocAucSd: Number(row[col('roc_auc_sd')]) };
}

export interface AnomalyRun {
  rocAuc: number;
  averagePrecision: number;
  /** Share flagged by the default (containsAnomalies) decision rule. */
  percentAnomalies: number;
  seconds: number;
}

export function evaluateIsolationForest(table: AnomalyTable, seed: number): AnomalyRun {
  const start = performance.now();
  const forest = new IsolationForest().fit(table.frame, { seed, containsAnomalies: true });
  const scores = forest.scoreSamples(table.frame);
  const seconds = (performance.now() - start) / 1000;
  const anomalousness = scores.map((s) => -s);
  return {
    rocAuc: rocAuc(table.labels, anomalousness),
    averagePrecision: averagePrecision(table.labels, anomalousness),
    percentAnomalies: percentAnomalies(scores.map((s) => s - forest.threshold.offset)),
    seconds,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function runAnomalyBench(names: string[] = anomalyTableNames()): Promise<{ ours: number; ref: number; lines: string[] }> {
  const lines: string[] = [];
  const ours: number[] = [];
  const refs: number[] = [];
  for (const name of names) {
    const table = loadAnomalyTable(name);
    const runs = SEEDS.map((seed) => evaluateIsolationForest(table, seed));
    const ref = referenceIsolationForest(name);
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
