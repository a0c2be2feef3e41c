/**
 * The trained ensemble compiled into flat typed arrays, scored from raw Frame values: numeric nodes
 * compare the raw value with a threshold (NaN follows the learned default side); categorical nodes test
 * the level's training bin against a bitset. Tree t adds to raw score t % numScores.
 */
import type { Frame } from '../../frame.js';
import { type CategoricalBins, type FeatureBins, codeToBinTable } from './bin-mapper.js';
import type { FeatureLayout } from './binned-data.js';
import type { Tree } from './tree.js';
import { MaskScorer } from './mask-scorer.js';
import { WalkScorer } from './walk-scorer.js';

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
  /** How this forest scores rows (made on first use): the leaf-mask kernel where it applies, else the tree walk. */
  private scorer: MaskScorer | WalkScorer | null = null;

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
   * Raw scores, row-major nRows × numScores: by the leaf-mask kernel (mask-scorer.ts) when the forest
   * fits its layout (trees of at most 32 leaves, leaf-mask-layout.ts), else by tree walks
   * (walk-scorer.ts). Both add the same leaves in the same order: the scores are the same to the bit.
   */
  rawScores(frame: Frame): Float64Array {
    this.scorer ??= MaskScorer.of(this.arrays, this.features.map((f) => f.categorical !== null)) ?? new WalkScorer(this.arrays, this.numTrees);
    return this.scorer.rawScores(this.inputColumns(frame), frame.nRows, this.initScores);
  }

  /** rawScores by tree walks whatever the forest (tests compare the two ways). */
  walkedRawScores(frame: Frame): Float64Array {
    return new WalkScorer(this.arrays, this.numTrees).rawScores(this.inputColumns(frame), frame.nRows, this.initScores);
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
