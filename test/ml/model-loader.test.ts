/**
 * The one model loader: artifacts of every kind and schema version load; older versions are
 * migrated (the fixture holds artifacts exactly as the code before artifact version 2 wrote them);
 * what is not a Sibyl model, or comes from a newer one, is refused with a message that says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { ARTIFACT_VERSION, PRODUCER } from '../../src/ml/estimator.js';
import { loadModel, readArtifact } from '../../src/ml/model-loader.js';
import { loadFrameEncoder } from '../../src/ml/encode.js';
import { GbdtLearner } from '../../src/ml/tabular/gbdt/index.js';
import { Predictor } from '../../src/service/models/predictor.js';
import type { ModelArtifact } from '../../src/service/models/model-artifact.js';
import { ExplanationUnavailable, explain, explainedPredictions } from '../../src/ml/explain/explanation.js';

interface StoredV1 { artifact: ModelArtifact; expected: number[] }
const v1 = JSON.parse(readFileSync(fixturePath('artifacts', 'v1-artifacts.json'), 'utf8')) as {
  records: Record<string, string>[];
  artifacts: Record<string, StoredV1>;
};

function frameOf(artifact: ModelArtifact) {
  const encoder = loadFrameEncoder(artifact.encoder);
  const columns = Object.fromEntries(encoder.inputColumns.map((c) => [c, v1.records.map((r) => r[c])]));
  return encoder.encode(columns, v1.records.length);
}

for (const [kind, stored] of Object.entries(v1.artifacts)) {
  test(`a version-1 ${kind} artifact loads, migrated, and scores as the code that wrote it did`, () => {
    assert.equal((stored.artifact.learner as { version: number }).version, 1);
    const model = loadModel(stored.artifact.learner);
    assert.deepEqual(Array.from(model.predictScores(frameOf(stored.artifact))), stored.expected);
    const migrated = model.toJSON();
    assert.equal(migrated.version, ARTIFACT_VERSION);
    assert.equal(migrated.format, 'sibyl-model');
    // Saved again in today's format, it still scores the same.
    assert.deepEqual(Array.from(loadModel(JSON.parse(JSON.stringify(migrated))).predictScores(frameOf(stored.artifact))), stored.expected);
  });
}

test('stored version-1 service artifacts predict through the Predictor as before', () => {
  const gbdt = v1.artifacts.gbdt!;
  const rows = new Predictor(gbdt.artifact).predict(v1.records, { includeClassScores: true }).data;
  rows.forEach((row, i) => {
    const scores = [0, 1, 2].map((c) => gbdt.expected[i * 3 + c]!);
    assert.equal(row.Species, gbdt.artifact.classes![scores.indexOf(Math.max(...scores))]);
    assert.equal(Number(row['Species:virginica']), scores[2]);
  });
  const anomalies = v1.artifacts.isolation_forest!;
  const scored = new Predictor(anomalies.artifact).predict(v1.records).data;
  assert.deepEqual(scored.map((r) => Number(r.anomaly)), anomalies.expected);
});

test('the version-1 isolation forest becomes kind isolation_forest with its parameters read off the trees', () => {
  const a = readArtifact(v1.artifacts.isolation_forest!.artifact.learner);
  assert.equal(a.kind, 'isolation_forest');
  assert.deepEqual(a.params, { nTrees: 5, maxSamples: 32 });
  assert.match(String(a.producer), /artifact version 1/);
});

test('today\'s artifacts carry the producer and the estimator parameters', () => {
  const stored = v1.artifacts.gbdt!.artifact;
  const frame = frameOf(stored);
  const model = new GbdtLearner({ nEstimators: 3, minDataInLeaf: 1 }).fit(frame, Float64Array.of(0, 1, 2, 2), { kind: 'classification', classes: ['a', 'b', 'c'] }, { seed: 0 });
  const json = model.toJSON();
  assert.equal(json.version, ARTIFACT_VERSION);
  assert.equal(json.producer, PRODUCER);
  assert.equal(json.params?.nEstimators, 3);
  assert.equal(json.params?.learningRate, 0.1, 'defaults are resolved and stored too');
  assert.deepEqual(loadModel(JSON.parse(JSON.stringify(json))).params, json.params);
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  assert.equal(PRODUCER, `${pkg.name} ${pkg.version}`);
});

test('loadModel names what it cannot restore', () => {
  assert.throws(() => loadModel({ format: 'sibyl-model', version: 2, kind: 'svm' }), /unknown model kind "svm"/);
  assert.throws(() => loadModel({ format: 'other', version: 1, kind: 'gbdt' }), /not a sibyl model/);
  assert.throws(() => loadModel({ format: 'sibyl-model', version: ARTIFACT_VERSION + 1, kind: 'gbdt', producer: 'sibyl 9.0.0' }), /newer Sibyl \(sibyl 9\.0\.0\)/);
});

test('version-1 artifacts explain where they can: trees without covers refuse with the reason, linear models explain exactly', () => {
  for (const [kind, stored] of Object.entries(v1.artifacts)) {
    const model = loadModel(stored.artifact.learner);
    const frame = frameOf(stored.artifact);
    if (kind === 'gbdt' || kind === 'random_forest' || kind === 'extra_trees') {
      assert.throws(() => explain(model, frame), (e: unknown) => e instanceof ExplanationUnavailable && /train it again/.test(e.message), kind);
      assert.match(new Predictor(stored.artifact).explanationsUnavailable(1) ?? '', /trained before Sibyl kept the training covers/);
    } else if (kind === 'linear') {
      // No one-hot training shares in version 1: categories are measured from "no level"; still additive.
      const e = explain(model, frame);
      const sums = explainedPredictions(e);
      const scores = model.predictScores(frame);
      for (let r = 0; r < e.nRows; r++) {
        const raw = e.scale === 'value' ? scores[r]! : Math.log(scores[r * 2 + 1]! / scores[r * 2]!);
        if (e.scale !== 'margin') assert.ok(Math.abs(sums[r]! - raw) < 1e-9, `${kind} row ${r}`);
      }
    } else {
      assert.throws(() => explain(model, frame), ExplanationUnavailable, kind);
    }
  }
  assert.throws(() => new Predictor(v1.artifacts.gbdt!.artifact).explain(v1.records), /trained before Sibyl kept the training covers/);
});
