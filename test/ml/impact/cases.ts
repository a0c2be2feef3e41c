/** Impact benchmark cases read for tests (PROTOCOL §4), with the statsmodels reference rows. */
import { column, readFixture } from '../../support/fixtures.js';

export interface ReferenceRow {
  absEffect: number;
  absLo: number;
  absHi: number;
  relEffect: number;
  pValue: number;
  sigma2Level: number;
  sigma2Irregular: number;
}

export function reference(caseId: string, model: 'local_level' | 'local_level_seasonal'): ReferenceRow {
  const t = readFixture('reference/impact.csv');
  const ids = column(t, 'case_id');
  const models = column(t, 'model');
  const i = ids.findIndex((id, r) => id === caseId && models[r] === model);
  if (i < 0) throw new Error(`no reference row for ${caseId} ${model}`);
  const get = (name: string) => Number(t.rows[i][t.header.indexOf(name)]);
  return {
    absEffect: get('abs_effect'),
    absLo: get('abs_effect_lo'),
    absHi: get('abs_effect_hi'),
    relEffect: get('rel_effect'),
    pValue: get('p_value'),
    sigma2Level: get('sigma2_level'),
    sigma2Irregular: get('sigma2_irregular'),
  };
}

export interface SemiSyntheticCase {
  y: Float64Array;
  preEnd: number;
  /** Σ(y − y_counterfactual) over the post-period. */
  trueEffect: number;
}

/** A monthly semi-synthetic case (impact/semisynthetic/<name>.csv); its `post` column marks the post-period. */
export function semiSynthetic(name: string): SemiSyntheticCase {
  const t = readFixture(`impact/semisynthetic/${name}.csv`);
  const y = Float64Array.from(column(t, 'y'), Number);
  const cf = column(t, 'y_counterfactual').map(Number);
  const post = column(t, 'post').map(Number);
  const preEnd = post.indexOf(1) - 1;
  let trueEffect = 0;
  for (let i = preEnd + 1; i < y.length; i++) trueEffect += y[i] - cf[i];
  return { y, preEnd, trueEffect };
}

/** UK seat-belt law case: target and covariate columns, law in force from 1983-02 (index 169). */
export function seatbelts(target: string, covariates: string[]): { y: Float64Array; controls: Float64Array[]; preEnd: number } {
  const t = readFixture('impact/seatbelts_uk.csv');
  const dates = column(t, 'date');
  return {
    y: Float64Array.from(column(t, target), Number),
    controls: covariates.map((c) => Float64Array.from(column(t, c), Number)),
    preEnd: dates.indexOf('1983-01-01'),
  };
}
