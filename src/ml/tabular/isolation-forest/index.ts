export {
  IsolationForest,
  loadIsolationForest,
  percentAnomalies,
  type IsolationFitOptions,
  type IsolationForestSettings,
  type SerializedIsolationForest,
} from './isolation-forest.js';
export { MAX_CONTAMINATION } from './offset.js';
