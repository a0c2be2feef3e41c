/**
 * bench:text — does a text column help? The fine-food reviews (modeldata small_fine_foods cut,
 * test/fixtures/text) classified great/other by a model session's computation with the review as
 * a `text` column, on the same seeded holdout, next to scikit-learn's
 * TfidfVectorizer(1-2-grams, English stop words) + LogisticRegression on the same split
 * (bench/sklearn_text.py; python from SIBYL_PYTHON, /work/venv or python3). Seeds: --seeds N (default 3).
 * Without the review the table holds only the product id, which sessions leave out as an identifier
 * (encode.ts): such a session is refused, and the baseline without text is chance (AUC 0.5).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noPython, pythonWith } from './lib/python.js';
import { readTextTable, runTextSession, textSplit } from './lib/text-session.js';

const seedsArg = process.argv.indexOf('--seeds');
const seeds = Array.from({ length: seedsArg > 0 ? Number(process.argv[seedsArg + 1]) : 3 }, (_, i) => 1000 + i);
const fixture = join(process.cwd(), 'test/fixtures/text/fine_foods.csv');
const table = readTextTable(fixture);
const TEXT_REFERENCE_MODULES = ['sklearn', 'pandas'];
const python = pythonWith(TEXT_REFERENCE_MODULES);
if (!python) console.log(noPython(TEXT_REFERENCE_MODULES, 'scikit-learn reference left out'));
mkdirSync('bench/out', { recursive: true });

console.log(`fine_foods: ${table.rows.length} reviews, holdout 20 %; seeds ${seeds.join(', ')}`);
console.log('seed   AUC text  sklearn AUC   acc text  sklearn acc   kept terms  champion');
for (const seed of seeds) {
  const split = textSplit(table, seed);
  const splitFile = join('bench/out', `text_split_${seed}.json`);
  writeFileSync(splitFile, JSON.stringify(split));
  const withText = await runTextSession(table, seed, true);
  const ref = python ? sklearnReference(python, splitFile) : { auc: NaN, accuracy: NaN };
  const terms = withText.vocabularies?.[0]?.words.filter((w) => w.type === 'word').length ?? 0;
  const f = (x: number | 'NaN') => Number(x).toFixed(4).padStart(9);
  console.log(`${seed}  ${f(withText.results.metrics.rocAreaUnderCurve!)}    ${f(ref.auc)}  ${f(withText.results.metrics.accuracy!)}    ${f(ref.accuracy)}  ${String(terms).padStart(11)}  ${withText.algorithm.name}`);
}

function sklearnReference(python: string, splitFile: string): { auc: number; accuracy: number } {
  try {
    return JSON.parse(execFileSync(python, ['-W', 'ignore', 'bench/sklearn_text.py', fixture, splitFile], { encoding: 'utf8' }).trim().split('\n').pop()!);
  } catch (e) {
    console.error(`reference unavailable: ${(e as Error).message.split('\n')[0]}`);
    return { auc: NaN, accuracy: NaN };
  }
}
