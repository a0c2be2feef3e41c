/** Restores any tabular model from its JSON form, dispatching on the `kind` its learner wrote. */
import type { SerializedModel, TrainedModel } from '../frame.js';
import { loadBlend } from './contest/blend-model.js';
import { loadForest } from './forest/index.js';
import { loadGbdt } from './gbdt/index.js';
import { loadLinear } from './linear/index.js';

export function loadModel(json: SerializedModel): TrainedModel {
  if (json?.format !== 'sibyl-model') throw new Error(`not a sibyl model (format ${String(json?.format)})`);
  switch (json.kind) {
    case 'gbdt':
      return loadGbdt(json);
    case 'linear':
      return loadLinear(json);
    case 'random_forest':
    case 'extra_trees':
      return loadForest(json);
    case 'blend':
      return loadBlend(json, loadModel);
    default:
      throw new Error(`unknown model kind "${json.kind}"`);
  }
}

export function serializeModel(model: TrainedModel): string {
  return JSON.stringify(model.toJSON());
}
