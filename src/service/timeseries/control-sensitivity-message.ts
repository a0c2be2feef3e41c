/**
 * The session message that says an impact estimate rests on its controls (ml/timeseries/impact/
 * sensitivity.ts): the estimate without them, the controls that moved the counterfactual most, and
 * what to do if the event touched them. Whether the event did is something only the reader knows.
 */
import type { ImpactComputeOutput, ServedEstimate } from './impact-compute-contract.js';

/** Controls named in the message; the rest are counted. */
const NAMED_CONTROLS = 3;

const percent = (x: number | string) => (typeof x === 'number' ? `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %` : 'undefined');
const pValue = (x: number | string) => (typeof x === 'number' ? `p = ${x.toPrecision(2)}` : 'p undefined');

function estimate(e: ServedEstimate): string {
  const [lo, hi] = e.relativeEffectInterval;
  const interval = typeof lo === 'number' && typeof hi === 'number' ? `, 95 % interval ${percent(lo)} to ${percent(hi)}` : '';
  return `${percent(e.relativeEffect)} (${pValue(e.pValue)}${interval})`;
}

export function controlSensitivityMessages(out: Pick<ImpactComputeOutput, 'metrics' | 'details'>): { severity: 'warning'; message: string }[] {
  const without = out.details.withoutControls;
  if (!without?.disagrees) return [];
  const shifts = out.details.controlShifts ?? [];
  const named = shifts.slice(0, NAMED_CONTROLS).map((c) => `'${c.column}' ${percent(c.shift)}`);
  const more = shifts.length > NAMED_CONTROLS ? ` and ${shifts.length - NAMED_CONTROLS} more` : '';
  const withControls = `${percent(out.metrics.relativeEffect)} (${pValue(out.metrics.pValue)})`;
  return [{
    severity: 'warning',
    message: `The result rests on the control columns: with them the effect is ${withControls}, without them ${estimate(without)}. `
      + `Over the event window the controls moved the counterfactual by ${named.join(', ')}${more}. `
      + 'Controls stand for what the target would have done without the event, so the result with them holds only if the event did not affect them. '
      + 'If it did (a law, campaign or outage that reached them too), set those columns\' role to none and run the session again.',
  }];
}
