export {
  ANOMALY_TASK,
  IsolationForest,
  IsolationForestModel,
  ISOLATION_FOREST_ALGORITHM,
  loadIsolationForest,
  percentAnomalies,
  type IsolationForestSettings,
  type SerializedIsolationForest,
} from './isolation-forest.js';
export { MAX_CONTAMINATION } from './offset.js';
