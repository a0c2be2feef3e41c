/** What an impact session hands to its computation (a worker thread under jobs/) and gets back. */
import type { SavedImpact } from '../../ml/timeseries/impact/saved-impact.js';
import type { SeriesInput } from './series-rows.js';

export interface ImpactComputeInput extends SeriesInput {
  /** First and last periods of the event window (epoch ms). */
  startMs: number;
  endMs: number;
  seed: number;
}

export interface ImpactComputeOutput {
  metrics: { pValue: number | string; absoluteEffect: number | string; relativeEffect: number | string };
  data: Record<string, string>[];
  /** 95 % intervals of the effects and the model that was chosen. */
  details: { absoluteEffectInterval: [number, number]; relativeEffectInterval: [number, number]; model: string; controlsUsed: string[] };
  /** The estimate's saved form (what a refit on new data or a chart needs). */
  savedModel: SavedImpact;
}
