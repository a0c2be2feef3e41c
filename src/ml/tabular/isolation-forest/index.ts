export {
  ANOMALY_TASK,
  IsolationForest,
  IsolationForestModel,
  ISOLATION_FOREST_ALGORITHM,
  loadIsolationForest,
  treesForRows,
  percentAnomalies,
  type IsolationForestSettings,
  type SerializedIsolationForest,
} from './isolation-forest.js';
export { MAX_CONTAMINATION } from './offset.js';
