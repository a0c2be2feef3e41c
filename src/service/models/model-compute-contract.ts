/**
 * What a model session hands to its computation (a worker thread under jobs/) and gets back: the
 * contract lives here, below jobs/, so the service depends on no module above it.
 */
import type { ColumnSpec, ColumnVocabulary } from '../../ml/encode.js';
import type { LoadedColumns } from '../../ml/loaded-columns.js';
import type { Message } from '../../store/schema.js';
import type { PagedResults } from '../../store/result-pages.js';
import type { AlgorithmView, ModelArtifact, PredictionDomain } from './model-artifact.js';

export interface ModelComputeInput {
  domain: PredictionDomain;
  seed: number;
  /** Every column in effect; the target has role `target`, the key role `key`. */
  specs: ColumnSpec[];
  /** Every column in effect, loaded (numbers typed, the rest dictionary-encoded), `rows` long. */
  columns: LoadedColumns;
  rows: number;
  targetColumn: string | null;
  keyColumn: string | null;
  /**
   * Classification: decide as a class-balanced training aims at (the class with the largest calibrated
   * probability relative to its share), with the candidates trained unweighted (model-compute.ts).
   */
  balance: boolean;
  containsAnomalies: boolean;
  /** Anomalies: the share of rows to flag, when the client knows it (otherwise estimated). */
  contamination?: number;
  /** The markers for a missing value the rows were loaded with (already missing in `columns`): kept with the model for predict. */
  missingValues?: string[];
  /** Contest work budget in training cells (contestWorkBudget). */
  workBudget: number;
  /** Training rows above which the contest runs on a sample of this many (default CONTEST_SAMPLE_ROWS; benchmarks vary it). */
  contestSampleRows?: number;
  /** Rows × features up to which the model kept is refitted on all rows after the test (default REFIT_ON_ALL_ROWS_MAX_CELLS; 0 = never). */
  refitOnAllRowsMaxCells?: number;
}

/** Result rows and extras come paged and serialised: for a big data set they are large, and the main thread only stores them. */
export type ModelComputeResults = PagedResults<Record<string, number | 'NaN'>>;

export type ModelComputeOutput =
  /** `messages`: what the computation found before it gave up (rare classes left out, say), kept beside the failure. */
  | { failure: string; messages?: Message[] }
  | { artifact: ModelArtifact; algorithm: AlgorithmView; results: ModelComputeResults; messages: Message[]; vocabularies?: ColumnVocabulary[] };
