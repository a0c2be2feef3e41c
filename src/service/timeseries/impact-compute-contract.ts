/** What an impact session hands to its computation (a worker thread under jobs/) and gets back. */
import type { SavedImpact } from '../../ml/timeseries/impact/saved-impact.js';
import type { SeriesInput } from './series-rows.js';
import type { TargetGaps } from './target-gaps.js';
import type { PartialEdge } from './partial-edges.js';

export interface ImpactComputeInput extends SeriesInput {
  /** First and last periods of the event window (epoch ms). */
  startMs: number;
  endMs: number;
  seed: number;
}

/** Intervals of the whole-window effects, served next to the metrics. */
export interface EffectIntervals {
  absoluteEffectLower: number | string;
  absoluteEffectUpper: number | string;
  relativeEffectLower: number | string;
  relativeEffectUpper: number | string;
  effectIntervalLevel: number;
}

/** An estimate's effects, p-value and 95 % intervals, as served. */
export interface ServedEstimate {
  pValue: number | 'NaN'; absoluteEffect: number | 'NaN'; relativeEffect: number | 'NaN';
  absoluteEffectInterval: [number | 'NaN', number | 'NaN']; relativeEffectInterval: [number | 'NaN', number | 'NaN'];
}

export interface ImpactComputeOutput {
  metrics: { pValue: number | string; absoluteEffect: number | string; relativeEffect: number | string };
  data: Record<string, string>[];
  effectIntervals: EffectIntervals;
  /** Cautions for the reader: a short pre-period, a model that fits it badly. */
  warnings: string[];
  /** 95 % intervals of the effects, the model that was chosen and its backtest calibration. */
  details: {
    absoluteEffectInterval: [number | 'NaN', number | 'NaN']; relativeEffectInterval: [number | 'NaN', number | 'NaN']; model: string; controlsUsed: string[];
    calibration: { backtests: number; scale: number; dof: number };
    /**
     * With controls used: the same analysis without them, and whether the two disagree (the controls
     * explain away an effect found without them, or change its size: ml/timeseries/impact/sensitivity.ts), so a reader sees how much the result rests on the controls.
     */
    withoutControls?: ServedEstimate & { disagrees: boolean };
    /** Each used control's shift of the counterfactual over the window, as a fraction of it, largest first. */
    controlShifts?: { column: string; shift: number | 'NaN' }[];
  };
  /** The estimate's saved form (what a refit on new data or a chart needs). */
  savedModel: SavedImpact;
  /** Periods up to the window's end without a target value, filled by its imputation (null: none). */
  targetGaps: TargetGaps | null;
  /** The first and last periods of the periods up to the window's end when they hold less data than the others (partial-edges.ts). */
  partialEdges: PartialEdge[];
}
