/**
 * The one loader of saved models. Every artifact passes readArtifact, which checks the envelope and
 * migrates older schema versions to the current one (never refusing them); loadModel then restores
 * the model its `kind` names. Version history:
 * - 1: `{ format: 'sibyl-model', version: 1, kind, task, … }` without producer or parameters; the
 *   isolation forest had its own `{ format: 'sibyl-isolation-forest', version: 1, … }`.
 * - 2: adds `producer` and `params` (the estimator's parameters), and the isolation forest became
 *   kind `isolation_forest` of the common format; forecasts and impact estimates get saved forms
 *   (kinds `forecast`, `impact`: timeseries/forecast/saved-forecast.ts, timeseries/impact/saved-impact.ts).
 */
import { ARTIFACT_VERSION, type Model, type SerializedModel, type TrainedModel } from './estimator.js';
import { loadBlend } from './tabular/contest/blend-model.js';
import { loadCalibrated } from './calibration/calibrated-model.js';
import { loadForest } from './tabular/forest/index.js';
import { loadGbdt } from './tabular/gbdt/index.js';
import { loadLinear } from './tabular/linear/index.js';
import { ANOMALY_TASK, loadIsolationForest } from './tabular/isolation-forest/index.js';

const MIGRATED_PRODUCER = 'unknown (artifact version 1)';

/** The artifact in the current schema version; throws only for what is no Sibyl model at all, or a newer one. */
export function readArtifact(json: unknown): SerializedModel {
  const a = json as Record<string, unknown> | null;
  if (a?.format === 'sibyl-isolation-forest' && a.version === 1) {
    const { format: _f, version: _v, ...rest } = a;
    return migrate({ format: 'sibyl-model', version: 1, kind: 'isolation_forest', task: ANOMALY_TASK, ...rest });
  }
  if (a?.format !== 'sibyl-model') throw new Error(`not a sibyl model (format ${String(a?.format)})`);
  if (typeof a.version !== 'number' || !Number.isInteger(a.version) || a.version < 1) throw new Error(`model artifact version ${String(a.version)} is not valid`);
  if (a.version > ARTIFACT_VERSION) {
    throw new Error(`model artifact version ${a.version} was written by a newer Sibyl (${String(a.producer)}); this one reads up to version ${ARTIFACT_VERSION}`);
  }
  return migrate(a as SerializedModel);
}

function migrate(a: SerializedModel): SerializedModel {
  let m = a;
  if (m.version === 1) {
    // Version 1 did not record parameters; the isolation forest's can be read off its trees.
    const params = m.kind === 'isolation_forest' ? { nTrees: (m.trees as unknown[]).length, maxSamples: m.sampleSize } : {};
    m = { ...m, version: 2, producer: MIGRATED_PRODUCER, params };
    if (m.kind === 'blend') m.members = (m.members as unknown[]).map(readArtifact);
  }
  return m;
}

/** Restores any model (tabular learners, blends, isolation forest) from its artifact, of any version. */
export function loadModel(json: unknown): Model {
  const a = readArtifact(json);
  switch (a.kind) {
    case 'gbdt':
      return loadGbdt(a);
    case 'linear':
      return loadLinear(a);
    case 'random_forest':
    case 'extra_trees':
      return loadForest(a);
    case 'blend':
      return loadBlend(a, loadTrainedModel);
    case 'calibrated':
      return loadCalibrated(a, loadTrainedModel);
    case 'isolation_forest':
      return loadIsolationForest(a);
    case 'forecast':
    case 'impact':
      throw new Error(`a saved ${a.kind} predicts no rows: read it with loadSaved${a.kind === 'forecast' ? 'Forecast' : 'Impact'}`);
    default:
      throw new Error(`unknown model kind "${a.kind}"`);
  }
}

/** A supervised model (classification or regression); anything else is an error. */
export function loadTrainedModel(json: unknown): TrainedModel {
  const m = loadModel(json);
  if (m.task.kind === 'anomalies') throw new Error(`a ${m.algorithm.name} model is not a supervised model`);
  return m as TrainedModel;
}

export function serializeModel(model: Model): string {
  return JSON.stringify(model.toJSON());
}
