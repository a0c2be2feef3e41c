/**
 * The controls of an impact analysis said in words: which columns the counterfactual leaned on, how
 * much each moved it over the window, and what the analysis gives without them (the API's
 * `controlShifts` and `withoutControls`). A reader who knows the event touched one of them then
 * knows the result with controls hides part of its effect.
 */
import { formatNumber, formatPercent } from './words.js';

export interface ControlShift { column: string; shift: number | string }
export interface WithoutControls { pValue: number | string; relativeEffect: number | string; absoluteEffect: number | string; disagrees: boolean }

const signedPercent = (x: number) => `${x < 0 ? '−' : '+'}${formatPercent(Math.abs(x))}`;

export interface ControlsInWords { controls: string; without: string; disagrees: boolean }

export function controlsInWords(fields: Record<string, unknown>): ControlsInWords | undefined {
  const shifts = fields.controlShifts as ControlShift[] | undefined;
  const without = fields.withoutControls as WithoutControls | undefined;
  if (!Array.isArray(shifts) || shifts.length === 0 || !without) return undefined;
  const named = shifts.map((c) => (typeof c.shift === 'number' ? `${c.column} (moved it ${signedPercent(c.shift)})` : c.column));
  const relative = Number(without.relativeEffect);
  const p = Number(without.pValue);
  return {
    controls: `The expectation leans on ${shifts.length === 1 ? 'one control column' : `${shifts.length} control columns`}: ${named.join(', ')}.`,
    without: `Without them the effect would be ${Number.isFinite(relative) ? signedPercent(relative) : 'undefined'}${Number.isFinite(p) ? ` (p = ${formatNumber(p, 2)})` : ''}.`,
    disagrees: without.disagrees === true,
  };
}
