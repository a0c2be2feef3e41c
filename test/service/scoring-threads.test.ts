/**
 * Scoring threads: a model's scores computed on a thread equal its in-thread predictScores (every
 * model kind of the stored-artifact fixture), its explanation split over the threads equals the
 * in-thread explanation bit for bit, a thread asks for a model it lacks and keeps it, and a scoring
 * failure rejects that batch only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { benchFold, fixturePath, fixtureTable } from '../support/fixtures.js';
import type { Frame } from '../../src/ml/frame.js';
import type { TrainedModel } from '../../src/ml/estimator.js';
import { GbdtLearner } from '../../src/ml/tabular/gbdt/index.js';
import { RandomForestLearner } from '../../src/ml/tabular/forest/index.js';
import { selectRows } from '../../src/ml/tabular/contest/frame-rows.js';
import { loadModel } from '../../src/ml/model-loader.js';
import { loadFrameEncoder } from '../../src/ml/encode.js';
import { explain } from '../../src/ml/explain/explanation.js';
import { ScoringThreads } from '../../src/service/models/scoring-threads.js';
import type { ModelArtifact } from '../../src/service/models/model-artifact.js';

const v1 = JSON.parse(readFileSync(fixturePath('artifacts', 'v1-artifacts.json'), 'utf8')) as {
  records: Record<string, string>[];
  artifacts: Record<string, { artifact: ModelArtifact }>;
};

/** The fixture's records, repeated to `n` rows, encoded for `artifact`'s model. */
function frameOf(artifact: ModelArtifact, n: number) {
  const encoder = loadFrameEncoder(artifact.encoder);
  const records = Array.from({ length: n }, (_, i) => v1.records[i % v1.records.length]!);
  return encoder.encode(Object.fromEntries(encoder.inputColumns.map((c) => [c, records.map((r) => r[c])])), n);
}

test('scores from scoring threads equal in-thread scores for every kind of model', async () => {
  const threads = new ScoringThreads(2);
  // Run from the compiled tests, the worker exists: the scores below really come from threads.
  assert.equal(threads.available, import.meta.url.endsWith('.js'));
  try {
    for (const [kind, { artifact }] of Object.entries(v1.artifacts)) {
      const frame = frameOf(artifact, 301);
      const expected = loadModel(artifact.learner).predictScores(frame);
      let sent = 0;
      const learner = () => { sent++; return artifact.learner; };
      // Several batches at once: spread over both threads, each of which asks for the model once.
      const answers = await Promise.all([0, 1, 2, 3].map(() => (threads.available ? threads.scores(kind, learner, frame) : Promise.resolve(expected))));
      for (const scores of answers) assert.deepEqual(Array.from(scores), Array.from(expected), kind);
      if (threads.available) assert.ok(sent >= 1 && sent <= 2, `${kind}: the model was sent ${sent} times to 2 threads`);
      const again = threads.available ? await threads.scores(kind, learner, frame) : expected;
      assert.deepEqual(Array.from(again), Array.from(expected));
      if (threads.available) assert.ok(sent <= 2, `${kind}: a thread that has the model is not sent it again`);
    }
  } finally {
    await threads.close();
  }
});

test('explanations split over the scoring threads (by rows, and by trees over 2 or 3 threads) equal the in-thread explanation, bit for bit (GBDT, forest)', { skip: !import.meta.url.endsWith('.js') && 'no compiled worker under tsx' }, async () => {
  const threads = new ScoringThreads(2);
  const three = new ScoringThreads(3);
  const credit = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const vehicle = benchFold(fixtureTable('classification', 'vehicle'), 0);
  const models: [string, TrainedModel, Frame][] = [
    ['gbdt', new GbdtLearner({ nEstimators: 30 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 }), credit.test],
    ['forest', new RandomForestLearner({ nTrees: 8 }).fit(vehicle.train, vehicle.yTrain, vehicle.task, { seed: 0 }), vehicle.test],
  ];
  try {
    for (const [kind, model, test] of models) {
      const frame = selectRows(test, Int32Array.from({ length: 301 }, (_, i) => i % test.nRows));
      const expected = explain(model, frame);
      const learner = model.toJSON();
      assert.ok(model.explainsByTreeParts);
      for (const [how, got] of [
        ['by rows', await threads.explain(kind, () => learner, frame)],
        ['by trees, 2 threads', await threads.explain(kind, () => learner, frame, true)],
        ['by trees, 3 threads', await three.explain(kind, () => learner, frame, true)],
      ] as const) {
        assert.equal(got.nRows, 301);
        assert.deepEqual(Array.from(got.values), Array.from(expected.values), `${kind} ${how}`);
        assert.deepEqual({ ...got, values: null }, { ...expected, values: null }, `${kind} ${how}`);
      }
    }
  } finally {
    await threads.close();
    await three.close();
  }
});

test('a batch that fails to score rejects with the reason; the threads carry on', { skip: !import.meta.url.endsWith('.js') && 'no compiled worker under tsx' }, async () => {
  const threads = new ScoringThreads(1);
  try {
    const { artifact } = v1.artifacts.gbdt!;
    const frame = frameOf(artifact, 10);
    await assert.rejects(threads.scores('gbdt', () => artifact.learner, { nRows: 10, columns: [] }), /scoring thread: .*lacks column/);
    const scores = await threads.scores('gbdt', () => artifact.learner, frame);
    assert.deepEqual(Array.from(scores), Array.from(loadModel(artifact.learner).predictScores(frame)));
  } finally {
    await threads.close();
  }
});
