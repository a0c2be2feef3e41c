export {
  RandomForestLearner,
  ExtraTreesLearner,
  DEFAULT_RANDOM_FOREST_PARAMS,
  DEFAULT_EXTRA_TREES_PARAMS,
  type ForestParams,
} from './forest-learner.js';
export { ForestModel, loadForest, type ForestKind } from './forest-model.js';
