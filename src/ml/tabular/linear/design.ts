/**
 * The linear models' own preprocessing (PROTOCOL.md `linear` reference): numeric columns are
 * median-imputed then standardised; categorical columns are one-hot encoded with "missing" as its
 * own level (when training had missing values) and levels unseen in training as all zeros.
 *
 * The Frame marks both missing and unseen categories as code -1, so at prediction time a -1 goes
 * to the missing level when there is one, and to all zeros otherwise.
 *
 * The design matrix stays sparse in its one-hot part: a dense standardised numeric block plus one
 * active column index per categorical input.
 */
import { medianOfSorted } from '../../core/statistics.js';
import type { Frame } from '../../frame.js';

export interface NumericInput {
  name: string;
  median: number;
  mean: number; // of the imputed values
  scale: number; // population standard deviation; 1 for constant columns (as scikit-learn)
}

export interface CategoricalInput {
  name: string;
  levels: string[];
  hasMissingLevel: boolean;
  /** Index of this input's first one-hot column in the design; levels first, then "missing". */
  offset: number;
  /** Training share of each one-hot column (levels, then "missing"): their means, the explanations' baseline. Absent in older models. */
  shares?: number[];
}

export interface SerializedDesignSpec {
  numeric: NumericInput[];
  categorical: CategoricalInput[];
}

export class DesignSpec {
  readonly p: number;

  constructor(
    readonly numeric: NumericInput[],
    readonly categorical: CategoricalInput[],
  ) {
    const last = categorical[categorical.length - 1];
    this.p = last ? last.offset + last.levels.length + (last.hasMissingLevel ? 1 : 0) : numeric.length;
  }

  static fit(frame: Frame): DesignSpec {
    const numeric: NumericInput[] = [];
    const categorical: CategoricalInput[] = [];
    for (const col of frame.columns) if (col.kind === 'numeric') numeric.push(numericInput(col.name, col.values));
    let offset = numeric.length;
    for (const col of frame.columns) {
      if (col.kind !== 'categorical') continue;
      const hasMissingLevel = col.codes.some((c) => c < 0);
      const shares = new Array<number>(col.levels.length + (hasMissingLevel ? 1 : 0)).fill(0);
      for (const c of col.codes) shares[c < 0 ? col.levels.length : c]! += 1 / col.codes.length;
      categorical.push({ name: col.name, levels: col.levels, hasMissingLevel, offset, shares });
      offset += col.levels.length + (hasMissingLevel ? 1 : 0);
    }
    return new DesignSpec(numeric, categorical);
  }

  /** Design matrix for a frame; columns are matched by name, an absent column counts as missing. */
  transform(frame: Frame): Design {
    const n = frame.nRows;
    const byName = new Map(frame.columns.map((c) => [c.name, c]));
    const pNum = this.numeric.length;
    const dense = new Float64Array(n * pNum);
    this.numeric.forEach((input, j) => {
      const col = byName.get(input.name);
      const values = col?.kind === 'numeric' ? col.values : undefined;
      for (let i = 0; i < n; i++) {
        const v = values ? values[i] : NaN;
        dense[i * pNum + j] = ((Number.isNaN(v) ? input.median : v) - input.mean) / input.scale;
      }
    });
    const nCat = this.categorical.length;
    const active = new Int32Array(n * nCat);
    this.categorical.forEach((input, j) => {
      const col = byName.get(input.name);
      const missing = input.hasMissingLevel ? input.offset + input.levels.length : -1;
      // Map the frame's own level list onto training levels, so a frame encoded elsewhere still lines up.
      const trainingIndex = new Map(input.levels.map((l, k) => [l, k]));
      const toActive = col?.kind === 'categorical'
        ? col.levels.map((l) => {
            const k = trainingIndex.get(l);
            return k === undefined ? -1 : input.offset + k;
          })
        : [];
      for (let i = 0; i < n; i++) {
        const code = col?.kind === 'categorical' ? col.codes[i] : -1;
        active[i * nCat + j] = code < 0 ? missing : toActive[code];
      }
    });
    return new Design(n, pNum, nCat, this.p, dense, active);
  }

  /** Name of the input column behind each design column. */
  inputNames(): string[] {
    const names = this.numeric.map((c) => c.name);
    for (const c of this.categorical) {
      for (let k = 0; k < c.levels.length + (c.hasMissingLevel ? 1 : 0); k++) names.push(c.name);
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

function numericInput(name: string, values: Float64Array): NumericInput {
  const present = values.filter((v) => !Number.isNaN(v)).sort();
  const m = present.length;
  const median = m === 0 ? 0 : medianOfSorted(present);
  let mean = 0;
  for (const v of values) mean += Number.isNaN(v) ? median : v;
  mean /= values.length || 1;
  let ss = 0;
  for (const v of values) ss += ((Number.isNaN(v) ? median : v) - mean) ** 2;
  const sd = Math.sqrt(ss / (values.length || 1));
  return { name, median, mean, scale: sd > 1e-12 * Math.max(1, Math.abs(mean)) ? sd : 1 };
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
