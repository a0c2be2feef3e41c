/**
 * The linear models' own preprocessing (PROTOCOL.md `linear` reference): numeric columns are
 * median-imputed then standardised; categorical columns are one-hot encoded with "missing" as its
 * own level (when training had missing values) and levels unseen in training as all zeros.
 *
 * The Frame marks both missing and unseen categories as code -1, so at prediction time a -1 goes
 * to the missing level when there is one, and to all zeros otherwise.
 *
 * Optional terms (DesignOptions, off by default so the plain model stays scikit-learn's): a
 * missing-value indicator per numeric input that had missing values in training, restricted cubic
 * spline terms per numeric input with enough distinct values (knots at fixed quantiles, linear beyond
 * the outer knots, so predictions do not swing outside the training range), and levels seen on fewer
 * than `minLevelRows` training rows pooled into one "other" column (which also takes unseen levels).
 * Every dense column is standardised, so one L2 penalty treats all terms alike.
 *
 * The design matrix stays sparse in its one-hot part: a dense standardised block (each numeric input's
 * value, then its spline terms and missing indicator) plus one active column index per categorical input.
 */
import { medianOfSorted } from '../../core/statistics.js';
import type { Frame } from '../../frame.js';

export interface NumericInput {
  name: string;
  median: number;
  mean: number; // of the imputed values
  scale: number; // population standard deviation; 1 for constant columns (as scikit-learn)
  /** Restricted cubic spline knots on the raw scale (≥ 3); absent = the value alone. */
  knots?: number[];
  /** Training mean and population sd of each spline term (knots.length − 2 of them). */
  splineMean?: number[];
  splineScale?: number[];
  /** Training mean and sd of the 0/1 missing indicator; absent = no indicator. */
  missingIndicator?: { mean: number; scale: number };
}

export interface DesignOptions {
  /** Knots of the restricted cubic spline per numeric input (0 = none; else 3..7). */
  splineKnots: number;
  missingIndicators: boolean;
  /** Levels with fewer training rows than this share one "other" column (0 = every level its own). */
  minLevelRows: number;
}

export const PLAIN_DESIGN: DesignOptions = { splineKnots: 0, missingIndicators: false, minLevelRows: 0 };

/** Harrell's knot placement (Regression Modeling Strategies, table 2.3) by number of knots. */
const KNOT_QUANTILES: Record<number, number[]> = {
  3: [0.1, 0.5, 0.9],
  4: [0.05, 0.35, 0.65, 0.95],
  5: [0.05, 0.275, 0.5, 0.725, 0.95],
  6: [0.05, 0.23, 0.41, 0.59, 0.77, 0.95],
  7: [0.025, 0.1833, 0.3417, 0.5, 0.6583, 0.8167, 0.975],
};

export interface CategoricalInput {
  name: string;
  levels: string[];
  hasMissingLevel: boolean;
  /** Index of this input's first one-hot column in the design; levels first, then "other", then "missing". */
  offset: number;
  /** Training share of each one-hot column (levels, then "other", then "missing"): their means, the explanations' baseline. Absent in older models. */
  shares?: number[];
  /** Rare training levels pooled into the "other" column, which also takes levels unseen in training. Absent = no "other" column. */
  pooled?: string[];
}

/** One-hot columns of a categorical input: its own levels, "other" when pooling, "missing" when seen. */
export function oneHotWidth(c: CategoricalInput): number {
  return c.levels.length + (c.pooled ? 1 : 0) + (c.hasMissingLevel ? 1 : 0);
}

export interface SerializedDesignSpec {
  numeric: NumericInput[];
  categorical: CategoricalInput[];
}

export class DesignSpec {
  readonly p: number;
  /** Dense design columns: the value, spline terms and missing indicator of each numeric input. */
  readonly pDense: number;
  /** Index of the numeric input behind each dense column. */
  readonly denseInput: Int32Array;

  constructor(
    readonly numeric: NumericInput[],
    readonly categorical: CategoricalInput[],
  ) {
    const owner: number[] = [];
    numeric.forEach((input, j) => {
      for (let t = 0; t < denseWidth(input); t++) owner.push(j);
    });
    this.denseInput = Int32Array.from(owner);
    this.pDense = owner.length;
    const last = categorical[categorical.length - 1];
    this.p = last ? last.offset + oneHotWidth(last) : this.pDense;
  }

  static fit(frame: Frame, options: DesignOptions = PLAIN_DESIGN): DesignSpec {
    const numeric: NumericInput[] = [];
    const categorical: CategoricalInput[] = [];
    for (const col of frame.columns) if (col.kind === 'numeric') numeric.push(numericInput(col.name, col.values, options));
    let offset = numeric.reduce((a, input) => a + denseWidth(input), 0);
    for (const col of frame.columns) {
      if (col.kind !== 'categorical') continue;
      const hasMissingLevel = col.codes.some((c) => c < 0);
      const counts = new Array<number>(col.levels.length).fill(0);
      for (const c of col.codes) if (c >= 0) counts[c]!++;
      const rare = options.minLevelRows > 0 ? col.levels.filter((_, l) => counts[l]! < options.minLevelRows) : [];
      const levels = rare.length > 0 ? col.levels.filter((_, l) => counts[l]! >= options.minLevelRows) : col.levels;
      const input: CategoricalInput = { name: col.name, levels, hasMissingLevel, offset, shares: [] };
      if (options.minLevelRows > 0) input.pooled = rare;
      const columnOf = levelColumns(input, col.levels);
      const shares = new Array<number>(oneHotWidth(input)).fill(0);
      for (const c of col.codes) {
        const a = c < 0 ? levels.length + (input.pooled ? 1 : 0) : columnOf[c]!;
        if (a >= 0) shares[a]! += 1 / col.codes.length;
      }
      input.shares = shares;
      categorical.push(input);
      offset += oneHotWidth(input);
    }
    return new DesignSpec(numeric, categorical);
  }

  /** Design matrix for a frame; columns are matched by name, an absent column counts as missing. */
  transform(frame: Frame): Design {
    const n = frame.nRows;
    const byName = new Map(frame.columns.map((c) => [c.name, c]));
    const pNum = this.pDense;
    const dense = new Float64Array(n * pNum);
    let at = 0;
    const terms = new Float64Array(8);
    for (const input of this.numeric) {
      const col = byName.get(input.name);
      const values = col?.kind === 'numeric' ? col.values : undefined;
      const nSpline = input.knots ? input.knots.length - 2 : 0;
      for (let i = 0; i < n; i++) {
        const v = values ? values[i] : NaN;
        const x = Number.isNaN(v) ? input.median : v;
        const row = i * pNum + at;
        dense[row] = (x - input.mean) / input.scale;
        if (nSpline > 0) {
          splineTerms(x, input.knots!, terms);
          for (let t = 0; t < nSpline; t++) dense[row + 1 + t] = (terms[t] - input.splineMean![t]) / input.splineScale![t];
        }
        if (input.missingIndicator) dense[row + 1 + nSpline] = ((Number.isNaN(v) ? 1 : 0) - input.missingIndicator.mean) / input.missingIndicator.scale;
      }
      at += denseWidth(input);
    }
    const nCat = this.categorical.length;
    const active = new Int32Array(n * nCat);
    this.categorical.forEach((input, j) => {
      const col = byName.get(input.name);
      const missing = input.hasMissingLevel ? input.offset + input.levels.length + (input.pooled ? 1 : 0) : -1;
      // Map the frame's own level list onto training levels, so a frame encoded elsewhere still lines up.
      const toActive = col?.kind === 'categorical' ? levelColumns(input, col.levels).map((a) => (a < 0 ? a : input.offset + a)) : [];
      for (let i = 0; i < n; i++) {
        const code = col?.kind === 'categorical' ? col.codes[i] : -1;
        active[i * nCat + j] = code < 0 ? missing : toActive[code];
      }
    });
    return new Design(n, pNum, nCat, this.p, dense, active);
  }

  /** Name of the input column behind each design column. */
  inputNames(): string[] {
    const names = Array.from(this.denseInput, (j) => this.numeric[j].name);
    for (const c of this.categorical) {
      for (let k = 0; k < oneHotWidth(c); k++) names.push(c.name);
    }
    return names;
  }

  toJSON(): SerializedDesignSpec {
    return { numeric: this.numeric, categorical: this.categorical };
  }

  static load(json: SerializedDesignSpec): DesignSpec {
    return new DesignSpec(json.numeric, json.categorical);
  }
}

function numericInput(name: string, values: Float64Array, options: DesignOptions): NumericInput {
  const present = values.filter((v) => !Number.isNaN(v)).sort();
  const m = present.length;
  const median = m === 0 ? 0 : medianOfSorted(present);
  const imputed = values.map((v) => (Number.isNaN(v) ? median : v));
  const { mean, scale } = standardisation(imputed);
  const input: NumericInput = { name, median, mean, scale };
  const knots = options.splineKnots > 0 ? splineKnots(present, options.splineKnots) : undefined;
  if (knots) {
    const nSpline = knots.length - 2;
    const columns = Array.from({ length: nSpline }, () => new Float64Array(imputed.length));
    const terms = new Float64Array(8);
    imputed.forEach((x, i) => {
      splineTerms(x, knots, terms);
      for (let t = 0; t < nSpline; t++) columns[t][i] = terms[t];
    });
    const stats = columns.map(standardisation);
    input.knots = knots;
    input.splineMean = stats.map((s) => s.mean);
    input.splineScale = stats.map((s) => s.scale);
  }
  if (options.missingIndicators && m > 0 && m < values.length) {
    input.missingIndicator = standardisation(values.map((v) => (Number.isNaN(v) ? 1 : 0)));
  }
  return input;
}

function standardisation(values: Float64Array): { mean: number; scale: number } {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length || 1;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / (values.length || 1));
  return { mean, scale: sd > 1e-12 * Math.max(1, Math.abs(mean)) ? sd : 1 };
}

function denseWidth(input: NumericInput): number {
  return 1 + (input.knots ? input.knots.length - 2 : 0) + (input.missingIndicator ? 1 : 0);
}

/**
 * Knots at Harrell's quantiles of the present values (sorted), fewer when ties merge them; none when
 * fewer than 3 distinct knots remain or the column has too few distinct values to bend (a 0/1 column, a
 * small count), since a spline there only adds noise.
 */
function splineKnots(sorted: Float64Array, count: number): number[] | undefined {
  const quantiles = KNOT_QUANTILES[Math.min(7, Math.max(3, count))]!;
  if (sorted.length === 0) return undefined;
  let distinct = 1;
  for (let i = 1; i < sorted.length && distinct <= 2 * quantiles.length; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  if (distinct <= 2 * quantiles.length) return undefined;
  const knots: number[] = [];
  for (const q of quantiles) {
    const v = sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]!;
    if (knots.length === 0 || v > knots[knots.length - 1]!) knots.push(v);
  }
  return knots.length >= 3 ? knots : undefined;
}

/**
 * The K − 2 non-linear terms of a restricted cubic spline with knots t (Harrell 2015, eq. 2.25), each
 * divided by (t_K − t_1)² so their size does not depend on the unit; linear beyond the outer knots.
 */
function splineTerms(x: number, t: number[], out: Float64Array): void {
  const K = t.length;
  const last = t[K - 1]!;
  const before = t[K - 2]!;
  const norm = (last - t[0]!) ** 2;
  const cube = (v: number) => (v > 0 ? v * v * v : 0);
  for (let j = 0; j < K - 2; j++) {
    const tj = t[j]!;
    out[j] = (cube(x - tj) - (cube(x - before) * (last - tj)) / (last - before) + (cube(x - last) * (before - tj)) / (last - before)) / norm;
  }
}

/** Design column (relative to the input's offset) of each of a frame's levels: its own, "other" or −1. */
function levelColumns(input: CategoricalInput, frameLevels: string[]): number[] {
  const trainingIndex = new Map(input.levels.map((l, k) => [l, k]));
  const other = input.pooled ? input.levels.length : -1;
  return frameLevels.map((l) => trainingIndex.get(l) ?? other);
}

/** n × p matrix: dense numeric block (n × pNum) and one active one-hot column (or -1) per categorical input. */
export class Design {
  constructor(
    readonly n: number,
    readonly pNum: number,
    readonly nCat: number,
    readonly p: number,
    readonly dense: Float64Array,
    readonly active: Int32Array,
  ) {}

  /**
   * z[c] = x_i · θ[·, c] + θ[p, c] for c < outputs. θ is feature-major, (p + 1) × outputs with the
   * intercepts in the last row, so one pass over the row serves every output.
   */
  scores(i: number, theta: Float64Array, outputs: number, z: Float64Array): void {
    const interceptRow = this.p * outputs;
    for (let c = 0; c < outputs; c++) z[c] = theta[interceptRow + c];
    const base = i * this.pNum;
    for (let j = 0; j < this.pNum; j++) {
      const v = this.dense[base + j];
      const row = j * outputs;
      for (let c = 0; c < outputs; c++) z[c] += v * theta[row + c];
    }
    const cBase = i * this.nCat;
    for (let j = 0; j < this.nCat; j++) {
      const a = this.active[cBase + j];
      if (a < 0) continue;
      const row = a * outputs;
      for (let c = 0; c < outputs; c++) z[c] += theta[row + c];
    }
  }

  /** grad[·, c] += r[c] · (x_i, 1): the transpose of `scores`, same layout. */
  accumulate(i: number, r: Float64Array, grad: Float64Array, outputs: number): void {
    const interceptRow = this.p * outputs;
    for (let c = 0; c < outputs; c++) grad[interceptRow + c] += r[c];
    const base = i * this.pNum;
    for (let j = 0; j < this.pNum; j++) {
      const v = this.dense[base + j];
      const row = j * outputs;
      for (let c = 0; c < outputs; c++) grad[row + c] += v * r[c];
    }
    const cBase = i * this.nCat;
    for (let j = 0; j < this.nCat; j++) {
      const a = this.active[cBase + j];
      if (a < 0) continue;
      const row = a * outputs;
      for (let c = 0; c < outputs; c++) grad[row + c] += r[c];
    }
  }
}
