/**
 * The saved form of an impact estimate: an artifact of the common schema (kind "impact") with the
 * settings and the model chosen (what a refit on new data needs) and the counterfactual with its
 * interval and the effects (what a chart needs).
 */
import { artifactHeader, type SerializedModel } from '../../estimator.js';
import { readArtifact } from '../../model-loader.js';
import type { CandidateModel, ImpactInput, ImpactResult } from './estimate.js';

export interface SavedImpact extends SerializedModel {
  kind: 'impact';
  params: { preEnd: number; period: number; nSimulations: number | null; seed: number; controls: number };
  model: string;
  controlsUsed: number[];
  coefficients: number[];
  variances: Record<string, number>;
  candidates: CandidateModel[];
  predicted: number[];
  lower: number[];
  upper: number[];
  absoluteEffect: number;
  relativeEffect: number;
  absoluteEffectInterval: [number, number];
  relativeEffectInterval: [number, number];
  pValue: number;
  /** Backtest calibration of the counterfactual's spread (absent in artifacts saved before it). */
  calibration?: { backtests: number; scale: number; dof: number };
}

export function saveImpact(result: ImpactResult, input: ImpactInput): SavedImpact {
  const params = {
    preEnd: input.preEnd,
    period: input.period ?? 1,
    nSimulations: input.nSimulations ?? null,
    seed: input.seed ?? 0,
    controls: input.controls?.length ?? 0,
  };
  return {
    ...artifactHeader('impact', null, params),
    kind: 'impact',
    params,
    model: result.model,
    controlsUsed: result.controlsUsed,
    coefficients: result.coefficients,
    variances: result.variances,
    candidates: result.candidates,
    predicted: Array.from(result.predicted),
    lower: Array.from(result.lower),
    upper: Array.from(result.upper),
    absoluteEffect: result.absoluteEffect,
    relativeEffect: result.relativeEffect,
    absoluteEffectInterval: result.absoluteEffectInterval,
    relativeEffectInterval: result.relativeEffectInterval,
    pValue: result.pValue,
    calibration: { backtests: result.calibration.backtests, scale: result.calibration.scale, dof: result.calibration.dof },
  };
}

/** A saved impact estimate of any artifact version. */
export function loadSavedImpact(json: unknown): SavedImpact {
  const a = readArtifact(json);
  if (a.kind !== 'impact') throw new Error(`not a saved impact estimate (kind ${a.kind})`);
  return a as SavedImpact;
}
