/**
 * Choice of the counterfactual model by AICc on the pre-period (AIC with the small-sample correction,
 * which matters for short yearly pre-periods with several controls): local level with or without a
 * fixed drift, each with and without the seasonal, each on the original and — for a
 * positive series — the log scale (multiplicative seasonality and growth, as in airline passengers).
 * Likelihoods are compared on the same observations (after the longest diffuse phase), with the
 * log-scale ones converted to the original scale by the Jacobian, −Σ log y.
 */
import { fitStructural, logLikelihoodFrom, type StructuralFit } from '../statespace/fit.js';
import { specLabel, stateDimension, type Slope, type StructuralSpec } from '../statespace/structural.js';

export type Scale = 'original' | 'log';

export interface CandidateFit {
  scale: Scale;
  fit: StructuralFit;
  label: string;
  /** AICc on the common observations (lower is better). */
  aicc: number;
}

export interface CandidateOptions {
  period: number;
  /** Fit only this model (on the original scale) instead of choosing. */
  model?: StructuralSpec;
}

/**
 * A random-walk slope (local linear trend) often wins on one-step-ahead likelihood but extrapolates
 * its last slope over the whole post-period: on hourly taxi demand its 48-hour counterfactual mean
 * went negative. A fixed drift is the trend the counterfactual can afford; the random slope stays
 * available through the `model` option.
 */
const SLOPES: readonly Slope[] = ['none', 'fixed'];

/**
 * Models the pre-period can support: the seasonal needs its cycle covered twice (its diffuse start
 * alone takes one cycle), and every model needs a few observations beyond its diffuse states. The
 * plain local level is always a candidate.
 */
function candidateSpecs(nObserved: number, period: number): StructuralSpec[] {
  const seasonal = period > 1 && nObserved >= 2 * period ? [1, period] : [1];
  const specs = seasonal.flatMap((seasonalPeriod) => SLOPES.map((slope) => ({ slope, seasonalPeriod })));
  return specs.filter((s) => (s.slope === 'none' && s.seasonalPeriod === 1) || nObserved >= stateDimension(s) + 3);
}

export function labelOf(scale: Scale, spec: StructuralSpec): string {
  return scale === 'log' ? `${specLabel(spec)}_log` : specLabel(spec);
}

/** Every candidate fitted on the pre-period, with its AICc; `allPositive` allows the log scale. */
export function fitCandidates(
  yPre: Float64Array,
  xPre: Float64Array[],
  allPositive: boolean,
  { period, model }: CandidateOptions,
): CandidateFit[] {
  const specs = model ? [model] : candidateSpecs(yPre.filter(Number.isFinite).length, period);
  const scales: Scale[] = model || !allPositive ? ['original'] : ['original', 'log'];
  const logY = yPre.map(Math.log);
  const fits = scales.flatMap((scale) =>
    specs.map((spec) => ({ scale, spec, fit: fitStructural(scale === 'log' ? logY : yPre, xPre, spec) })),
  );
  if (fits.length === 1) {
    const { scale, spec, fit } = fits[0];
    return [{ scale, fit, label: labelOf(scale, spec), aicc: aicc(fit.logLikelihood, fit, fit.nObs) }];
  }
  const from = Math.max(...fits.map((f) => f.fit.firstUsed));
  let jacobian = 0;
  let nObs = 0;
  for (let t = from; t < yPre.length; t++) {
    if (!Number.isFinite(yPre[t])) continue;
    jacobian += logY[t];
    nObs++;
  }
  return fits.map(({ scale, spec, fit }) => {
    const logLik = scale === 'log' ? logLikelihoodFrom(fit, logY, xPre, from) - jacobian : logLikelihoodFrom(fit, yPre, xPre, from);
    return { scale, fit, label: labelOf(scale, spec), aicc: aicc(logLik, fit, nObs) };
  });
}

function aicc(logLik: number, fit: StructuralFit, nObs: number): number {
  const k = fit.variances.length + fit.coefficients.length;
  const correction = nObs > k + 1 ? (2 * k * (k + 1)) / (nObs - k - 1) : Infinity;
  return -2 * logLik + 2 * k + correction;
}
