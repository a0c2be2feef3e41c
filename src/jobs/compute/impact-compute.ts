/**
 * An impact session's computation (worker thread): a structural time-series model fitted on the
 * periods before the event window predicts what the window would have looked like without the
 * event; the session's features act as controls.
 *
 * Result rows, one per period of the window: the timestamp column, `<target>` (observed),
 * `<target>:predicted` (the counterfactual mean), `<target>:lower` and `<target>:upper` (its 95 %
 * interval), `<target>:cumulativeEffect` (Σ observed − predicted so far) with its 95 % interval
 * `<target>:cumulativeEffect:lower` / `:upper`. The whole-window effects' intervals are
 * `absoluteEffectLower`/`Upper` and `relativeEffectLower`/`Upper` at `effectIntervalLevel` (0.95),
 * beside the metrics; warnings (short pre-period, poor fit) become session messages.
 */
import { estimateImpact, type ImpactInput } from '../../ml/timeseries/impact/estimate.js';
import { saveImpact } from '../../ml/timeseries/impact/saved-impact.js';
import { controlSensitivity, type EstimateSummary } from '../../ml/timeseries/impact/sensitivity.js';
import { seasonalPeriods } from '../../ml/timeseries/prepare.js';
import { finiteOrNaN } from '../../domain/metric-values.js';
import { indexOf, periodLabel, toGrid } from '../../service/timeseries/series-grid.js';
import { targetGaps, targetSeries } from '../../service/timeseries/target-gaps.js';
import { partialEdges } from '../../service/timeseries/partial-edges.js';
import type { ImpactComputeInput, ImpactComputeOutput, ServedEstimate } from '../../service/timeseries/impact-compute-contract.js';

export type { ImpactComputeInput, ImpactComputeOutput } from '../../service/timeseries/impact-compute-contract.js';

/** Level of the effect intervals and of the counterfactual band. */
const EFFECT_INTERVAL_LEVEL = 0.95;

export function compute(input: ImpactComputeInput): ImpactComputeOutput {
  const g = toGrid(input);
  const start = indexOf(g, input.startMs);
  const end = indexOf(g, input.endMs);
  if (start <= g.firstTarget || end > g.lastTarget || start > end) throw new Error('the event window must lie inside the data, after the first period');
  // Blank target cells are missing (NaN): skipped by the fit, left out of the effect.
  const y = targetSeries(g, g.firstTarget, end, input.target.imputationDeclared);
  const preEnd = start - 1 - g.firstTarget;
  const main = seasonalPeriods(input.interval).main;
  // A seasonal component needs two full cycles before the event to be estimated.
  const period = preEnd + 1 >= 2 * main ? main : 1;
  const impactInput: ImpactInput = {
    y, preEnd, period, seed: input.seed,
    controls: g.features.map((f) => f.slice(g.firstTarget, end + 1)),
  };
  const r = estimateImpact(impactInput);
  const sensitivity = controlSensitivity(impactInput, r);
  const target = input.target.name;
  const data: Record<string, string>[] = [];
  let cumulative = 0;
  for (let t = 0; t < r.predicted.length; t++) {
    if (Number.isFinite(y[preEnd + 1 + t])) cumulative += y[preEnd + 1 + t] - r.predicted[t];
    data.push({
      [input.timestampColumn]: periodLabel(g, start + t),
      [target]: String(y[preEnd + 1 + t]),
      [`${target}:predicted`]: String(r.predicted[t]),
      [`${target}:lower`]: String(r.lower[t]),
      [`${target}:upper`]: String(r.upper[t]),
      [`${target}:cumulativeEffect`]: String(cumulative),
      [`${target}:cumulativeEffect:lower`]: String(r.cumulativeLower[t]),
      [`${target}:cumulativeEffect:upper`]: String(r.cumulativeUpper[t]),
    });
  }
  return {
    metrics: { pValue: finiteOrNaN(r.pValue), absoluteEffect: finiteOrNaN(r.absoluteEffect), relativeEffect: finiteOrNaN(r.relativeEffect) },
    data,
    effectIntervals: {
      absoluteEffectLower: finiteOrNaN(r.absoluteEffectInterval[0]), absoluteEffectUpper: finiteOrNaN(r.absoluteEffectInterval[1]),
      relativeEffectLower: finiteOrNaN(r.relativeEffectInterval[0]), relativeEffectUpper: finiteOrNaN(r.relativeEffectInterval[1]),
      effectIntervalLevel: EFFECT_INTERVAL_LEVEL,
    },
    warnings: r.warnings,
    details: {
      absoluteEffectInterval: [finiteOrNaN(r.absoluteEffectInterval[0]), finiteOrNaN(r.absoluteEffectInterval[1])],
      relativeEffectInterval: [finiteOrNaN(r.relativeEffectInterval[0]), finiteOrNaN(r.relativeEffectInterval[1])],
      model: r.model, controlsUsed: r.controlsUsed.map((j) => input.features[j]!.name),
      calibration: { backtests: r.calibration.backtests, scale: r.calibration.scale, dof: r.calibration.dof },
      ...(sensitivity ? {
        withoutControls: { ...served(sensitivity.withoutControls), disagrees: sensitivity.disagree },
        controlShifts: sensitivity.shifts.map((c) => ({ column: input.features[c.index]!.name, shift: finiteOrNaN(c.shift) })),
      } : {}),
    },
    savedModel: saveImpact(r, impactInput),
    partialEdges: partialEdges(input, g, g.firstTarget, end),
    targetGaps: targetGaps(g, g.firstTarget, end, input.target.imputation, start, input.target.imputationDeclared),
  };
}

/** An estimate's figures as served (NaN as the string the API writes for it). */
function served(e: EstimateSummary): ServedEstimate {
  return {
    pValue: finiteOrNaN(e.pValue), absoluteEffect: finiteOrNaN(e.absoluteEffect), relativeEffect: finiteOrNaN(e.relativeEffect),
    absoluteEffectInterval: [finiteOrNaN(e.absoluteEffectInterval[0]), finiteOrNaN(e.absoluteEffectInterval[1])],
    relativeEffectInterval: [finiteOrNaN(e.relativeEffectInterval[0]), finiteOrNaN(e.relativeEffectInterval[1])],
  };
}
