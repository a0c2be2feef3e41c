/**
 * The saved form of a forecast: an artifact of the common schema (kind "forecast") holding what a
 * later refit on new data needs (the options and the method the backtest chose) and what a chart
 * needs (fitted values, the point forecast and its quantiles).
 */
import { artifactHeader, type SerializedModel } from '../../estimator.js';
import { readArtifact } from '../../model-loader.js';
import type { CandidateReport, ForecastOptions, ForecastResult } from './types.js';

export interface SavedForecast extends SerializedModel {
  kind: 'forecast';
  params: { period: number; extraPeriods: number[]; levels: number[] | null; methods: string[] | null; features: number };
  method: string;
  candidates: CandidateReport[];
  mean: number[];
  quantiles: Record<string, number[]>;
  fitted: number[] | null;
}

export function saveForecast(result: ForecastResult, opts: ForecastOptions): SavedForecast {
  const params = {
    period: opts.period,
    extraPeriods: opts.extraPeriods ?? [],
    levels: opts.levels ?? null,
    methods: opts.methods ?? null,
    // Known-in-advance features: their values belong to the data, not to the model.
    features: opts.xreg?.train.length ?? 0,
  };
  return {
    ...artifactHeader('forecast', null, params),
    kind: 'forecast',
    params,
    method: result.method,
    candidates: result.candidates,
    mean: Array.from(result.mean),
    quantiles: Object.fromEntries(Object.entries(result.quantiles).map(([p, q]) => [p, Array.from(q)])),
    fitted: result.fitted ? Array.from(result.fitted) : null,
  };
}

/** A saved forecast of any artifact version. */
export function loadSavedForecast(json: unknown): SavedForecast {
  const a = readArtifact(json);
  if (a.kind !== 'forecast') throw new Error(`not a saved forecast (kind ${a.kind})`);
  return a as SavedForecast;
}

/** Options that refit the saved forecast's method on new data (no new backtest; the constant rule still applies). */
export function refitOptions(saved: SavedForecast): ForecastOptions {
  const { period, extraPeriods, levels } = saved.params;
  return { period, extraPeriods, levels: levels ?? undefined, methods: saved.method === 'constant' ? undefined : [saved.method] };
}
