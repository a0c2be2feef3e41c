export { LinearLearner, type LinearSettings } from './learner.js';
export { LinearModel, loadLinear, LINEAR_ALGORITHM, type SerializedLinear } from './model.js';
