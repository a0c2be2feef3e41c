/** One fit on several threads (feature-team.ts) gives the byte-identical model of the one-thread fit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../../../src/ml/frame.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { teamStats, teamTuning } from '../../../src/ml/tabular/gbdt/team-tuning.js';
import { categorical, frame, lcg, numeric } from './synthetic.js';
import { fixtureTable } from '../../support/fixtures.js';
import { encodeTarget, fitFrameEncoder } from '../../../src/ml/encode.js';

/** A whole fixture table as the learner's frame and encoded target. */
function fixture(name: string) {
  const table = fixtureTable('classification', name);
  const n = table.targetValues.length;
  const f = fitFrameEncoder(table.specs, table.columns).encode(table.columns, n);
  return { f, ...encodeTarget(table.targetValues, 'classification', table.classes) };
}

/**
 * The multi-thread model equals the one-thread model byte for byte. On a difference (seen once, under
 * a full CI run's load) says where the trees part — tree, node, feature and threshold of each — and
 * keeps both models in test-results/gbdt-threads/ for study, instead of printing 30 kB of JSON.
 */
function assertSameModel(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  const trees = (json: string) => (JSON.parse(json) as { trees: Record<string, string> }).trees;
  const [a, b] = [trees(actual), trees(expected)];
  // Copied out of Buffer's pool so that the typed arrays start aligned.
  const bytes = (s: string) => Uint8Array.from(Buffer.from(s, 'base64')).buffer;
  const ints = (s: string) => new Int32Array(bytes(s));
  const floats = (s: string) => new Float64Array(bytes(s));
  const [fa, fb, ta, tb] = [ints(a.feature!), ints(b.feature!), floats(a.threshold!), floats(b.threshold!)];
  let node = 0;
  while (node < Math.min(fa.length, fb.length) && fa[node] === fb[node] && ta[node] === tb[node]) node++;
  const offsets = Array.from(ints(b.nodeOffset!));
  const tree = offsets.filter((o) => o <= node).length - 1;
  const dir = join(process.cwd(), 'test-results', 'gbdt-threads');
  mkdirSync(dir, { recursive: true });
  const stamp = `${Date.now()}`;
  writeFileSync(join(dir, `${stamp}-expected.json`), expected);
  writeFileSync(join(dir, `${stamp}-actual.json`), actual);
  assert.fail(`${what} differs from the one-thread model at tree ${tree}, node ${node - offsets[tree]!} (node ${node} of ${fb.length}): ` +
    `feature ${fa[node]} vs ${fb[node]}, threshold ${ta[node]} vs ${tb[node]}` + (node >= Math.min(fa.length, fb.length) ? ' (split arrays equal: leaf values or categories differ)' : '') +
    `; both models are in ${dir}/${stamp}-*.json`);
}

/** Runs fn with some hand-off rules changed (team-tuning.ts), and teamStats counted from zero. */
function withTuning<T>(rules: Partial<typeof teamTuning>, fn: () => T): T {
  const saved = { ...teamTuning };
  Object.assign(teamTuning, rules);
  teamStats.reset();
  try {
    return fn();
  } finally {
    Object.assign(teamTuning, saved);
  }
}

/** 12,000 rows × 30 columns (large enough for the learner to use helper threads): numeric with NaN, categorical. */
function data(classes: number) {
  const rnd = lcg(31);
  const n = 12_000;
  const levels = Array.from({ length: 40 }, (_, i) => `L${i}`);
  const xs = Array.from({ length: 24 }, () => Float64Array.from({ length: n }, () => (rnd() < 0.05 ? NaN : rnd() * 2 - 1)));
  const cols = [
    ...xs.map((x, j) => numeric(`x${j}`, x)),
    ...Array.from({ length: 6 }, (_, j) => categorical(`c${j}`, levels, Array.from({ length: n }, () => (rnd() < 0.03 ? -1 : Math.floor(rnd() * (j + 3) * 6))))),
  ];
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = rnd() - 0.5;
    for (let j = 0; j < 8; j++) z += (xs[j][i] || 0) * (j % 2 ? 1 : -0.7);
    const c = cols[26];
    if (c.kind === 'categorical' && c.codes[i] % 4 === 0) z += 1;
    y[i] = classes === 2 ? (z > 0 ? 1 : 0) : Math.min(classes - 1, Math.max(0, Math.floor(z + classes / 2)));
  }
  return { f: frame(...cols), y };
}

for (const classes of [2, 3]) {
  test(`${classes} classes: threads 1, 2 and 3 train byte-identical models (bagging, feature sampling, categorical and missing values)`, () => {
    const { f, y } = data(classes);
    const task: Task = { kind: 'classification', classes: Array.from({ length: classes }, (_, c) => `k${c}`) };
    const params = { nEstimators: 15, featureFraction: 0.8, baggingFraction: 0.7, baggingFreq: 2, minDataPerCategoryGroup: 20 };
    const [one, two, three] = [1, 2, 3].map((threads) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, y, task, { seed: 4 }).toJSON()));
    // The models split on categories (bitsets) as well as on numbers.
    const trees = (JSON.parse(one) as { trees: { catBits: string } }).trees;
    assert.ok(Buffer.from(trees.catBits, 'base64').length > 0, 'no categorical split to compare');
    assertSameModel(two, one, '2 threads');
    assertSameModel(three, one, '3 threads');
  });
}

test('regression with row weights (Huber loss, no bagging): threads 1, 2 and 3 train byte-identical models', () => {
  // Gradients, partitions and score updates run in row ranges per thread here on every split of the top
  // levels (all 12,000 rows in the bag); Huber's delta is set from the data before the helpers start.
  const { f, y } = data(2);
  const rnd = lcg(5);
  const target = Float64Array.from(y, (v, i) => v * 3 + (f.columns[0].kind === 'numeric' ? f.columns[0].values[i] || 0 : 0) + rnd());
  const weights = Float64Array.from({ length: f.nRows }, () => 0.5 + rnd());
  const params = { nEstimators: 12, objective: 'huber' as const };
  const [one, two, three] = [1, 2, 3].map((threads) =>
    JSON.stringify(new GbdtLearner(params, { threads }).fit(f, target, { kind: 'regression' }, { seed: 2, weights }).toJSON()));
  assertSameModel(two, one, '2 threads');
  assertSameModel(three, one, '3 threads');
  // The weights matter (a fit without them differs), so they did reach every thread's gradients.
  assert.notEqual(JSON.stringify(new GbdtLearner(params, { threads: 2 }).fit(f, target, { kind: 'regression' }, { seed: 2 }).toJSON()), two);
});

test('every job shared, however small (hand-off rules at zero): 2 threads still train the 1-thread model', () => {
  // The default rules keep small leaves and row ranges on the main thread, and grow the 3 class trees of
  // a round on different threads; here the helpers take part in every leaf job (deep leaves with a few
  // rows, categorical bitsets) and every row job, none of which is a leaf split handed ahead.
  const { f, y } = data(3);
  const task: Task = { kind: 'classification', classes: ['k0', 'k1', 'k2'] };
  const params = { nEstimators: 6, featureFraction: 0.8, baggingFraction: 0.7, baggingFreq: 2, minDataPerCategoryGroup: 20 };
  const one = JSON.stringify(new GbdtLearner(params, { threads: 1 }).fit(f, y, task, { seed: 4 }).toJSON());
  const saved = { ...teamTuning };
  Object.assign(teamTuning, { soloWork: 0, parallelRows: 0, partitionRows: 0, growClasses: false, splitAhead: false });
  teamStats.reset();
  try {
    const two = JSON.stringify(new GbdtLearner(params, { threads: 2 }).fit(f, y, task, { seed: 4 }).toJSON());
    assertSameModel(two, one, '2 threads');
    // No leaf job stayed on the main thread, not even the root's split search (a job that builds nothing).
    assert.equal(teamStats.soloJobs, 0);
    assert.ok(teamStats.leafSyncs > 20 * teamStats.trees, `${teamStats.leafSyncs} shared leaf jobs for ${teamStats.trees} trees`);
    // The top leaves' histograms were built by row chunks on both threads, the deep ones by feature ranges.
    assert.ok(teamStats.chunkedJobs >= teamStats.trees && teamStats.chunkedJobs < teamStats.leafSyncs / 2, `${teamStats.chunkedJobs} chunked of ${teamStats.leafSyncs}`);
  } finally {
    Object.assign(teamTuning, saved);
  }
});

test('jobs cut into one block per feature, or into one block per thread: 2 and 3 threads still train the 1-thread model', () => {
  // Blocks of one feature and blocks as large as they get: the merge of the blocks' best splits keeps the
  // one-thread scan's choice. The last column repeats the first, so their splits tie on gain in different
  // blocks, and the earlier one must win; with 80% of the features sampled, some blocks have none.
  const base = data(2);
  const x0 = base.f.columns[0];
  assert.ok(x0.kind === 'numeric');
  const f = frame(...base.f.columns, numeric('x0_again', x0.values));
  const task: Task = { kind: 'classification', classes: ['k0', 'k1'] };
  for (const featureFraction of [1, 0.8]) {
    const params = { nEstimators: 6, featureFraction, baggingFraction: 0.7, baggingFreq: 2, minDataPerCategoryGroup: 20 };
    const fit = (threads: number) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, base.y, task, { seed: 6 }).toJSON());
    const one = fit(1);
    if (featureFraction === 1) {
      // One thread always takes the first of the two tied columns.
      const gain = (JSON.parse(one) as { importance: Record<string, number> }).importance;
      assert.ok(gain.x0 > 0 && gain.x0_again === 0, `gain x0 ${gain.x0}, x0_again ${gain.x0_again}`);
    }
    for (const blocksPerThread of [16, 1]) {
      withTuning({ blocksPerThread, soloWork: 0, parallelRows: 0, partitionRows: 0 }, () => {
        const what = `${blocksPerThread} blocks per thread, feature fraction ${featureFraction}`;
        assertSameModel(fit(2), one, `2 threads, ${what}`);
        assert.ok(teamStats.blocks >= teamStats.leafSyncs * Math.min(31, 2 * blocksPerThread), `${teamStats.blocks} blocks in ${teamStats.leafSyncs} leaf jobs`);
        assertSameModel(fit(3), one, `3 threads, ${what}`);
      });
    }
  }
});

test('real data, 26 classes (letter_recognition fixture): threads 1, 2 and 3 grow the trees of a round on different threads and train the 1-thread model', () => {
  // 3,000 rows × 16 columns: below the size where a fit takes helpers, so that rule is lifted here.
  const { f, task, y } = fixture('letter_recognition');
  assert.equal(task.kind === 'classification' && task.classes.length, 26);
  const params = { nEstimators: 6, featureFraction: 0.8, baggingFraction: 0.8, baggingFreq: 1 };
  const fit = (threads: number) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, y, task, { seed: 3 }).toJSON());
  const one = fit(1);
  withTuning({ minCellsPerThread: 0 }, () => {
    assertSameModel(fit(2), one, '2 threads');
    // Every round's trees were grown whole, a class per thread at a time, not leaf job by leaf job.
    assert.equal(teamStats.classSyncs, params.nEstimators);
    assert.equal(teamStats.leafSyncs, 0);
    assertSameModel(fit(3), one, '3 threads');
  });
});

test('real data, categorical and missing values (credit_data fixture), every job shared: 2 threads train the 1-thread model', () => {
  const { f, task, y } = fixture('credit_data');
  assert.ok(f.columns.some((c) => c.kind === 'categorical'));
  const params = { nEstimators: 10, featureFraction: 0.8, baggingFraction: 0.7, baggingFreq: 2 };
  const fit = (threads: number) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, y, task, { seed: 5 }).toJSON());
  const one = fit(1);
  withTuning({ minCellsPerThread: 0, soloWork: 0, parallelRows: 0, partitionRows: 0, splitAhead: false }, () => {
    assertSameModel(fit(2), one, '2 threads');
    assert.ok(teamStats.leafSyncs > 10 * teamStats.trees, `${teamStats.leafSyncs} shared leaf jobs for ${teamStats.trees} trees`);
  });
});

test('leaf splits handed ahead to a helper, one or two at a time (categorical and missing values, bagging, 2 and 3 threads), train the 1-thread model', () => {
  // The helper splits the leaf with the next best gain while the main thread splits the best one; with
  // 2 classes and growClasses off, a 3-class fit shares each tree too. Which thread did which split, and
  // when, must not show in the model.
  for (const classes of [2, 3]) {
    const { f, y } = data(classes);
    const task: Task = { kind: 'classification', classes: Array.from({ length: classes }, (_, k) => `k${k}`) };
    const params = { nEstimators: 6, featureFraction: 0.8, baggingFraction: 0.7, baggingFreq: 2, minDataPerCategoryGroup: 20 };
    const fit = (threads: number) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, y, task, { seed: 8 }).toJSON());
    const one = fit(1);
    for (const [threads, splitsAheadAtOnce] of [[2, 1], [3, 1], [2, 2], [3, 2]]) {
      withTuning({ growClasses: false, splitAhead: true, splitsAheadAtOnce }, () => {
        assertSameModel(fit(threads), one, `${threads} threads`);
        assert.ok(teamStats.splitsAhead > 5 * teamStats.trees, `${teamStats.splitsAhead} splits handed ahead for ${teamStats.trees} trees`);
      });
    }
  }
  // Without splits ahead: the same model (the rule decides who splits a leaf, never the numbers).
  const { f, y } = data(2);
  const params = { nEstimators: 4 };
  const task: Task = { kind: 'classification', classes: ['k0', 'k1'] };
  const fit = (threads: number) => JSON.stringify(new GbdtLearner(params, { threads }).fit(f, y, task, { seed: 9 }).toJSON());
  const one = fit(1);
  withTuning({ splitAhead: false }, () => {
    assertSameModel(fit(2), one, '2 threads');
    assert.equal(teamStats.splitsAhead, 0);
  });
});

test('threads outside 1..8 are refused with a message naming the option', () => {
  assert.throws(() => new GbdtLearner({}, { threads: 0 }), /threads must be an integer in 1\.\.8/);
  assert.throws(() => new GbdtLearner({}, { threads: 1.5 }), /threads/);
});
