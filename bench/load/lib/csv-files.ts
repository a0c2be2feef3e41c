import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededRandom } from '../../../src/ml/core/random.js';

const DIR = join(tmpdir(), 'sibyl-bench-load-data');

function random(seed: number): () => number {
  // The stream of ml/core's PRNG started at `seed` exactly (mulberry32).
  const r = SeededRandom.fromState(seed);
  return () => r.next();
}

/**
 * A classification CSV of `rows` × `columns` (written once, kept in the temp directory):
 * numeric features (5% missing), a 4-level category and a 0/1 label from a noisy nonlinear
 * score, so sessions have something to learn. 1M × 10 is about 60 MB.
 */
export async function classificationCsv(rows: number, columns: number): Promise<{ file: string; mb: number }> {
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `classification-${rows}x${columns}.csv`);
  if (!existsSync(file)) {
    const numeric = columns - 2;
    const rnd = random(rows * 31 + columns);
    const tmp = `${file}.${process.pid}.tmp`;
    const out = createWriteStream(tmp);
    const regions = ['north', 'south', 'east', 'west'];
    out.write([...Array.from({ length: numeric }, (_, j) => `f${j}`), 'region', 'label'].join(',') + '\n');
    let buf = '';
    for (let i = 0; i < rows; i++) {
      const x: number[] = [];
      let line = '';
      for (let j = 0; j < numeric; j++) {
        x.push(rnd() * 2 - 1);
        line += (rnd() < 0.05 ? '' : x[j]!.toFixed(4)) + ',';
      }
      const region = Math.floor(rnd() * 4);
      const score = 1.5 * x[0]! - x[1 % numeric]! + 2 * x[2 % numeric]! * x[3 % numeric]! + (x[4 % numeric]! > 0 ? 0.8 : -0.8) + 0.3 * region - 0.45 + (rnd() - 0.5) * 1.5;
      buf += `${line}${regions[region]},${score > 0 ? 1 : 0}\n`;
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
        buf = '';
      }
    }
    out.write(buf);
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    renameSync(tmp, file);
  }
  return { file, mb: statSync(file).size / (1 << 20) };
}
