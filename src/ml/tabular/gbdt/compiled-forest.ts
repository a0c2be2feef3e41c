/**
 * The trained ensemble compiled into flat typed arrays, scored from raw Frame values: numeric nodes
 * compare the raw value with a threshold (NaN follows the learned default side); categorical nodes test
 * the level's training bin against a bitset. Tree t adds to raw score t % numScores.
 */
import type { Frame } from '../../frame.js';
import { type CategoricalBins, type FeatureBins, codeToBinTable } from './bin-mapper.js';
import type { FeatureLayout } from './binned-data.js';
import type { Tree } from './tree.js';
import { Kernels, SCORE_LANES } from './wasm-kernels.js';
import { walkLayout, type WalkLayout } from './walk-layout.js';

/** Rows scored per kernel call. */
const CHUNK_ROWS = 8192;

/** What prediction needs to know of each used feature. */
export interface ForestFeature {
  name: string;
  /** Categorical features carry their training levels and level → bin mapping. */
  categorical: CategoricalBins | null;
}

export interface ForestArrays {
  /** Tree t's nodes are nodeOffset[t] .. nodeOffset[t+1]-1; its leaves likewise with leafOffset. */
  nodeOffset: Int32Array;
  leafOffset: Int32Array;
  /** Feature index f of a numeric node, ~f of a categorical one (so numeric nodes need no other test). */
  feature: Int32Array;
  threshold: Float64Array;
  /** Node i's left child at 2i, right child at 2i+1, local to the tree: ≥ 0 node, < 0 leaf ~c. */
  children: Int32Array;
  defaultLeft: Uint8Array;
  /** Categorical nodes: first word of the node's bin bitset in catBits (−1 for numeric nodes). */
  catOffset: Int32Array;
  catBits: Uint32Array;
  leafValue: Float64Array;
}

export class Forest {
  /** The forest's walk layout (walk-layout.ts) in wasm memory, made on first use; inputs and outputs follow it. */
  private scorer: { kernels: Kernels; at: Record<keyof WalkLayout, number>; end: number } | null = null;

  constructor(
    readonly features: ForestFeature[],
    readonly arrays: ForestArrays,
    readonly numScores: number,
    readonly initScores: Float64Array,
    /** Training rows per leaf, like leafValue (TreeSHAP's covers); null for models saved before they were kept. */
    readonly leafCover: Float64Array | null = null,
  ) {}

  get numTrees(): number {
    return this.arrays.nodeOffset.length - 1;
  }

  /**
   * Raw scores, row-major nRows × numScores, by the wasm score kernels (tree walks over the walk layout,
   * walk-layout.ts): score4 over the rows in fours, score1 over the one to three left, in chunks of rows
   * so that the kernel memory stays small whatever the batch size.
   */
  rawScores(frame: Frame): Float64Array {
    const nf = this.features.length;
    const n = frame.nRows;
    const k = this.numScores;
    const { kernels, at, end } = (this.scorer ??= this.copyToWasm());
    const chunk = Math.min(CHUNK_ROWS, n);
    const xAt = end;
    const outAt = xAt + chunk * nf * 8;
    kernels.ensureBytes(outAt + chunk * k * 8);
    const x = new Float64Array(kernels.buffer, xAt, chunk * nf);
    const out = new Float64Array(kernels.buffer, outAt, chunk * k);
    const columns = this.inputColumns(frame);
    const result = new Float64Array(n * k);
    for (let start = 0; start < n; start += chunk) {
      const rows = Math.min(chunk, n - start);
      const fours = rows - (rows % SCORE_LANES);
      this.rowMajorInputs(columns, start, rows, x);
      for (let r = 0; r < rows; r++) out.set(this.initScores, r * k);
      if (fours > 0) kernels.score4(xAt, nf, fours, at.treeRoot, this.numTrees, at.nodes, at.value, at.catBits, outAt, k);
      if (rows > fours) {
        kernels.score1(xAt + fours * nf * 8, nf, rows - fours, at.treeRoot, this.numTrees, at.nodes, at.value, at.catBits, outAt + fours * k * 8, k);
      }
      result.set(out.subarray(0, rows * k), start * k);
    }
    return result;
  }

  private copyToWasm(): { kernels: Kernels; at: Record<keyof WalkLayout, number>; end: number } {
    const entries = Object.entries(walkLayout(this.arrays)) as [keyof WalkLayout, WalkLayout[keyof WalkLayout]][];
    // 16-byte alignment: node records never straddle a cache line.
    const align = (b: number) => Math.ceil(b / 16) * 16;
    const total = entries.reduce((sum, [, a]) => sum + align(a.byteLength), 0);
    const kernels = new Kernels(total);
    const at = {} as Record<keyof WalkLayout, number>;
    let offset = 0;
    for (const [key, a] of entries) {
      new Uint8Array(kernels.buffer, offset, a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      at[key] = offset;
      offset += align(a.byteLength);
    }
    return { kernels, at, end: offset };
  }

  /** Per used feature: its raw values, or its codes mapped to training bins (−1 / unseen → missing bin). */
  inputColumns(frame: Frame): (Float64Array | Int32Array)[] {
    const byName = new Map(frame.columns.map((c) => [c.name, c]));
    return this.features.map((feat) => {
      const col = byName.get(feat.name);
      if (!col) throw new Error(`GBDT: prediction frame lacks column ${feat.name}`);
      const cat = feat.categorical;
      if (!cat) {
        if (col.kind !== 'numeric') throw new Error(`GBDT: column ${feat.name} must be numeric`);
        return col.values;
      }
      if (col.kind !== 'categorical') throw new Error(`GBDT: column ${feat.name} must be categorical`);
      const table = codeToBinTable(cat, col.levels);
      return Int32Array.from(col.codes, (c) => (c >= 0 && c < table.length ? table[c] : cat.missingBin));
    });
  }

  /** x = rows start .. start+rows of the input columns, row by row. */
  private rowMajorInputs(columns: (Float64Array | Int32Array)[], start: number, rows: number, x: Float64Array): void {
    const nf = columns.length;
    for (let f = 0; f < nf; f++) {
      const col = columns[f];
      for (let r = 0; r < rows; r++) x[r * nf + f] = col[start + r];
    }
  }
}

/** Flattens trained trees (bin thresholds → raw-value thresholds, categorical bins → bitsets). */
export function compileForest(
  trees: Tree[], layout: FeatureLayout, names: string[], numScores: number, initScores: Float64Array,
): Forest {
  const nodeOffset = new Int32Array(trees.length + 1);
  const leafOffset = new Int32Array(trees.length + 1);
  trees.forEach((t, i) => {
    nodeOffset[i + 1] = nodeOffset[i] + t.numNodes;
    leafOffset[i + 1] = leafOffset[i] + t.numLeaves;
  });
  const nNodes = nodeOffset[trees.length];
  const a: ForestArrays = {
    nodeOffset, leafOffset,
    feature: new Int32Array(nNodes),
    threshold: new Float64Array(nNodes),
    children: new Int32Array(2 * nNodes),
    defaultLeft: new Uint8Array(nNodes),
    catOffset: new Int32Array(nNodes).fill(-1),
    catBits: new Uint32Array(0),
    leafValue: new Float64Array(leafOffset[trees.length]),
  };
  const leafCover = new Float64Array(leafOffset[trees.length]);
  const bits: number[] = [];
  trees.forEach((t, i) => {
    for (let j = 0; j < t.numNodes; j++) {
      const o = nodeOffset[i] + j;
      const f = t.feature[j];
      a.feature[o] = t.leftBins[j] ? ~f : f;
      a.children[2 * o] = t.left[j];
      a.children[2 * o + 1] = t.right[j];
      a.defaultLeft[o] = t.defaultLeft[j];
      const leftBins = t.leftBins[j];
      const bins = layout.bins[f];
      if (leftBins) {
        a.catOffset[o] = bits.length;
        const words = new Uint32Array((leftBins.length + 31) >>> 5);
        leftBins.forEach((isLeft, b) => {
          if (isLeft) words[b >>> 5] |= 1 << (b & 31);
        });
        bits.push(...words);
      } else if (bins.kind === 'numeric') a.threshold[o] = bins.upperBounds[t.thresholdBin[j]];
    }
    a.leafValue.set(t.leafValue.subarray(0, t.numLeaves), leafOffset[i]);
    leafCover.set(t.leafCover.subarray(0, t.numLeaves), leafOffset[i]);
  });
  a.catBits = Uint32Array.from(bits);
  const features = layout.bins.map((b: FeatureBins, f) => ({ name: names[f], categorical: b.kind === 'categorical' ? b : null }));
  return new Forest(features, a, numScores, initScores, leafCover);
}
