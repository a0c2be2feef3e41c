export { type GbdtParams, type GbdtObjective, DEFAULT_GBDT_PARAMS } from './params.js';
export { GbdtLearner } from './learner.js';
export { GbdtModel, loadGbdt, GBDT_ALGORITHM } from './model.js';
