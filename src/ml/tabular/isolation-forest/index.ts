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
export { FEW_ROWS_FOR_ESTIMATED_SHARE, MAX_CONTAMINATION } from './offset.js';
