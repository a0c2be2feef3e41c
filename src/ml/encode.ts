/**
 * Stored rows (columnar strings; empty or null = missing) → `Frame`, and targets → numbers.
 * The encoder is fitted on training data so that prediction-time data gets the same columns and
 * the same categorical codes (unseen level → -1), and it serialises with the model.
 */
import { isMissingOrMarker, parseLogicalCell, readNumberCell } from '../domain/cells.js';
import type { FeatureColumn, Frame, Task } from './frame.js';
import { fitTextVectorizer, TextVectorizer, type SerializedTextVectorizer, type TextTarget, type VocabularyWord } from './text/text-vectorizer.js';
import { isIdentifierName, numberIdentifier, textIdentifier, type IdentifierColumn } from './identifier-columns.js';
import { fitSeasonalBaseline, seasonalDeviation, type SeasonalBaseline } from './timeseries/seasonal-baseline.js';

export type DataType = 'numeric' | 'numericMeasure' | 'string' | 'logical' | 'date' | 'text';

export interface ColumnSpec {
  name: string;
  dataType: DataType;
  role?: string | null;
}

/**
 * Raw values by column name: stored strings (empty string or null = missing), or numbers where a
 * numeric column was loaded as numbers (NaN = missing; see loaded-columns.ts).
 */
export type RawValue = string | number | null | undefined;
export type RawColumns = Record<string, ArrayLike<RawValue>>;

/** Roles whose columns are never model inputs. */
const NON_FEATURE_ROLES = new Set(['target', 'key', 'none']);

export function isFeatureColumn(spec: ColumnSpec): boolean {
  return !NON_FEATURE_ROLES.has((spec.role ?? '').toLowerCase());
}

/** PROTOCOL.md §0: numeric when every non-missing value parses as a number. */
export function inferDataType(values: ArrayLike<string | null | undefined>): 'numeric' | 'string' {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v != null && v.trim() !== '' && Number.isNaN(parseNumber(v))) return 'string';
  }
  return 'numeric';
}

function isMissing(v: RawValue): v is null | undefined | '' {
  return v == null || (typeof v === 'number' ? Number.isNaN(v) : v.trim() === '');
}

/** A value as stored text (numbers come from columns loaded as numbers, or JSON predict requests). */
function asText(v: RawValue): string | null | undefined {
  return typeof v === 'number' ? (Number.isNaN(v) ? null : String(v)) : v;
}

/** readNumberCell (Number() rather than parseFloat(): "12abc" is not a number). Non-finite values count as missing. */
function parseNumber(v: RawValue): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (isMissing(v)) return NaN;
  return readNumberCell(v);
}

const LOGICAL_LEVELS = ['FALSE', 'TRUE'];

/** Service spec: an empty logical cell means FALSE; a value that is no truth value is missing. */
function logicalCode(v: string | null | undefined): number {
  const flag = parseLogicalCell(v);
  return flag === null ? -1 : flag ? 1 : 0;
}

// ---- dates -------------------------------------------------------------------------------------

const DATE_PARTS = ['year', 'month', 'dayOfMonth', 'dayOfWeek', 'hour', 'epochDays'] as const;
type DatePart = (typeof DATE_PARTS)[number];
const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Wall-clock time as a UTC epoch (ms). ISO strings keep the clock they were written in (an
 * offset is not applied: "23:00-05:00" is 23 h, the hour the data describes); other formats go
 * through Date.parse and its local interpretation. NaN when unparseable.
 */
function wallClockMs(v: string | null | undefined): number {
  if (isMissing(v)) return NaN;
  const s = v.trim();
  const m = ISO_DATE.exec(s);
  if (m) {
    const [y, mo, d, h, mi, sec] = m.slice(1, 7).map((x) => (x === undefined ? 0 : Number(x)));
    const ms = Date.UTC(y, mo - 1, d, h, mi, sec);
    return new Date(ms).getUTCDate() === d ? ms : NaN; // rejects 2021-02-30
  }
  const local = Date.parse(s);
  if (Number.isNaN(local)) return NaN;
  const t = new Date(local);
  return Date.UTC(t.getFullYear(), t.getMonth(), t.getDate(), t.getHours(), t.getMinutes(), t.getSeconds());
}

function datePart(ms: number, part: DatePart): number {
  if (Number.isNaN(ms)) return NaN;
  const t = new Date(ms);
  switch (part) {
    case 'year': return t.getUTCFullYear();
    case 'month': return t.getUTCMonth() + 1;
    case 'dayOfMonth': return t.getUTCDate();
    case 'dayOfWeek': return t.getUTCDay();
    case 'hour': return t.getUTCHours();
    case 'epochDays': return ms / MS_PER_DAY;
  }
}

// ---- encoder -------------------------------------------------------------------------------------

/** What the encoder learned about one input column. */
type EncodedInput =
  /**
   * range: the training values' smallest and largest (absent in encoders written before it, or with no
   * value); gaps: the words training rows held for a missing number ('unknown'), read as missing again.
   */
  | { name: string; dataType: 'numeric' | 'numericMeasure'; range?: [number, number]; gaps?: string[] }
  | { name: string; dataType: 'string' | 'logical'; levels: string[] }
  /** Text: tf-idf of the kept 1- and 2-grams (ml/text). Encoders written before text features held `levels` instead. */
  | { name: string; dataType: 'text'; levels?: string[]; text?: SerializedTextVectorizer }
  /** Only the calendar parts that varied in training are kept. */
  | { name: string; dataType: 'date'; parts: DatePart[] }
  /**
   * A series' timestamp, read with its measured column `of`: one frame column, deviationFeatureName(of),
   * the value's deviation from the series' usual value at that time (ml/timeseries/seasonal-baseline.ts).
   */
  | { name: string; dataType: 'seasonalDeviation'; of: string; baseline: SeasonalBaseline };

/** A series whose values an anomaly model judges against their time: its timestamp and its measured column. */
export interface SeriesColumns {
  timestamp: string;
  value: string;
}

/** Frame column name of a series value's deviation from its usual value at its time. */
export const deviationFeatureName = (column: string) => `${column}:deviation`;

export interface SerializedFrameEncoder {
  format: 'sibyl-frame-encoder';
  version: 1;
  inputs: EncodedInput[];
}

/** The vocabulary of one text column, as the model uses it. */
export interface ColumnVocabulary {
  columnName: string;
  words: VocabularyWord[];
}

/** Frame column name of a text column's term. */
export const textFeatureName = (column: string, term: string) => `${column}:${term}`;

/**
 * Values present in new rows that an input column could not read, so the model took them as missing
 * (a word in a numeric column, a category not seen in training): encode reports them when asked.
 */
export interface UnreadValues {
  column: string;
  /** What the column reads: numbers, truth values, dates, or the categories seen in training. */
  expects: 'number' | 'truthValue' | 'date' | 'knownCategory';
  count: number;
  /** The first such row (0-based) and its value as text. */
  firstRow: number;
  firstValue: string;
}

export class FrameEncoder {
  private readonly vectorizers = new Map<string, TextVectorizer>();

  /**
   * `fitted`: the text vectorizers just fitted (they also know the terms they left out, for the
   * vocabulary); `identifiers`: the columns fitting left out as identifiers (identifier-columns.ts; not saved).
   */
  constructor(private readonly inputs: EncodedInput[], fitted: Map<string, TextVectorizer> = new Map(), readonly identifiers: IdentifierColumn[] = []) {
    for (const input of inputs) {
      if (input.dataType === 'text' && input.text) this.vectorizers.set(input.name, fitted.get(input.name) ?? new TextVectorizer(input.text));
    }
  }

  /** The vocabulary of every text column (empty when the encoder has none). */
  vocabularies(): ColumnVocabulary[] {
    return [...this.vectorizers].map(([columnName, v]) => ({ columnName, words: v.vocabulary() }));
  }

  /** Names of the input columns used, in order. */
  get inputColumns(): string[] {
    return this.inputs.map((c) => c.name);
  }

  /**
   * Frame for new rows. An absent column is entirely missing; `nRows` is needed only when no
   * input column is present. Given `unread`, each column's values that were present but could not be
   * read are added to it; given `far`, each numeric column's values far outside its training values.
   */
  encode(columns: RawColumns, nRows?: number, unread?: UnreadValues[], far?: FarValues[]): Frame {
    const n = nRows ?? rowCount(columns, this.inputColumns);
    const out: FeatureColumn[] = [];
    for (const input of this.inputs) {
      const raw = columns[input.name];
      const value = (i: number) => (raw === undefined ? null : asText(raw[i]));
      const start = out.length;
      switch (input.dataType) {
        case 'numeric':
        case 'numericMeasure': {
          const values = new Float64Array(n);
          // Predict requests carry JSON numbers: taken as they are, without a round trip through text.
          const given = raw === undefined ? undefined : (raw as unknown as ArrayLike<unknown>);
          for (let i = 0; i < n; i++) {
            const v = given === undefined ? null : given[i];
            values[i] = typeof v === 'number' ? (Number.isFinite(v) ? v : NaN) : parseNumber(v as string | null | undefined);
          }
          out.push({ kind: 'numeric', name: input.name, values });
          const found = far && input.range ? farIn(input.name, input.range, values) : undefined;
          if (found) far!.push(found);
          break;
        }
        case 'logical': {
          const codes = new Int32Array(n);
          // A wholly absent column is missing, not a column of empty (= FALSE) cells.
          for (let i = 0; i < n; i++) codes[i] = raw === undefined ? -1 : logicalCode(value(i));
          out.push({ kind: 'categorical', name: input.name, codes, levels: input.levels });
          break;
        }
        case 'text':
          if (input.text) {
            const vectorizer = this.vectorizers.get(input.name)!;
            const texts = Array.from({ length: n }, (_, i) => value(i));
            const cols = vectorizer.transform(texts, n);
            vectorizer.terms.forEach((term, j) => out.push({ kind: 'numeric', name: textFeatureName(input.name, term), values: cols[j]! }));
          } else {
            // An encoder from before text features treated text as categories.
            out.push(categorical(input.name, input.levels ?? [], n, value));
          }
          break;
        case 'string':
          out.push(categorical(input.name, input.levels, n, value));
          break;
        case 'date': {
          const ms = new Float64Array(n);
          for (let i = 0; i < n; i++) ms[i] = wallClockMs(value(i));
          for (const part of input.parts) {
            const values = new Float64Array(n);
            for (let i = 0; i < n; i++) values[i] = datePart(ms[i], part);
            out.push({ kind: 'numeric', name: `${input.name}:${part}`, values });
          }
          break;
        }
        case 'seasonalDeviation': {
          const ms = Float64Array.from({ length: n }, (_, i) => wallClockMs(value(i)));
          const of = columns[input.of];
          const values = new Float64Array(n);
          for (let i = 0; i < n; i++) values[i] = seasonalDeviation(input.baseline, ms[i]!, of === undefined ? NaN : parseNumber(of[i]));
          out.push({ kind: 'numeric', name: deviationFeatureName(input.of), values });
          // The deviation is missing also where the value is: the times alone say what was not read.
          const found = unread && raw !== undefined ? unreadIn(input.name, 'date', { kind: 'numeric', name: input.name, values: ms }, raw, n) : undefined;
          if (found) unread!.push(found);
          continue;
        }
      }
      // A date whose parts never varied in training adds no frame column, and nothing is read from it.
      if (unread && raw !== undefined && input.dataType !== 'text' && out.length > start) {
        const gaps = (input.dataType === 'numeric' || input.dataType === 'numericMeasure') && input.gaps ? new Set(input.gaps) : undefined;
        const found = unreadIn(input.name, expectation(input.dataType), out[start]!, raw, n, gaps);
        if (found) unread.push(found);
      }
    }
    return { nRows: n, columns: out };
  }

  /** The input column a frame column comes from (`when:month` → `when`, a text column's term `review:great` → `review`). */
  sourceColumn(frameColumn: string): string {
    for (const input of this.inputs) {
      if (input.dataType === 'seasonalDeviation') {
        if (frameColumn === deviationFeatureName(input.of)) return input.of;
        continue;
      }
      if (frameColumn === input.name && input.dataType !== 'text') return input.name;
      if (!frameColumn.startsWith(`${input.name}:`)) continue;
      if (input.dataType === 'date' && input.parts.some((p) => frameColumn === `${input.name}:${p}`)) return input.name;
      if (input.dataType === 'text' && input.text?.terms.some((t) => frameColumn === textFeatureName(input.name, t))) return input.name;
    }
    return frameColumn;
  }

  /** Sums per-frame-column importances (e.g. `when:year`, `when:month`) into their input column. */
  inputImportance(frameImportance: Record<string, number>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const input of this.inputs) {
      const keys = input.dataType === 'date' ? input.parts.map((p) => `${input.name}:${p}`)
        : input.dataType === 'text' && input.text ? input.text.terms.map((t) => textFeatureName(input.name, t))
        : input.dataType === 'seasonalDeviation' ? [deviationFeatureName(input.of)]
        : [input.name];
      let sum = 0;
      for (const k of keys) sum += frameImportance[k] ?? 0;
      const source = input.dataType === 'seasonalDeviation' ? input.of : input.name;
      out[source] = (out[source] ?? 0) + sum;
    }
    return out;
  }

  toJSON(): SerializedFrameEncoder {
    return { format: 'sibyl-frame-encoder', version: 1, inputs: this.inputs };
  }
}

function expectation(dataType: Exclude<DataType, 'text'>): UnreadValues['expects'] {
  switch (dataType) {
    case 'numeric':
    case 'numericMeasure': return 'number';
    case 'logical': return 'truthValue';
    case 'date': return 'date';
    case 'string': return 'knownCategory';
  }
}

/**
 * The values of `raw` that were present but encoded as missing in `encoded` (the column's frame
 * column; for a date, its first part, which is missing exactly when the date was not read).
 */
function unreadIn(column: string, expects: UnreadValues['expects'], encoded: FeatureColumn, raw: ArrayLike<RawValue>, n: number, gaps?: ReadonlySet<string>): UnreadValues | undefined {
  let found: UnreadValues | undefined;
  for (let i = 0; i < n; i++) {
    const missing = encoded.kind === 'numeric' ? Number.isNaN(encoded.values[i]) : encoded.codes[i] === -1;
    // A marker (NA, '?') is a gap in a number, date or truth value, and a value of a category.
    if (!missing || (expects === 'knownCategory' ? isMissing(raw[i]) : isMissingOrMarker(raw[i]))) continue;
    if (gaps !== undefined && typeof raw[i] === 'string' && gaps.has((raw[i] as string).trim())) continue;
    if (found) found.count++;
    else found = { column, expects, count: 1, firstRow: i, firstValue: String(raw[i]) };
  }
  return found;
}

function categorical(name: string, levels: string[], n: number, value: (i: number) => string | null | undefined): FeatureColumn {
  const index = new Map(levels.map((l, j) => [l, j]));
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = value(i);
    codes[i] = isMissing(v) ? -1 : index.get(v) ?? -1;
  }
  return { kind: 'categorical', name, codes, levels };
}

/** The smallest and largest value of a numeric training column, if it has any. */
function trainingRange(raw: ArrayLike<RawValue>): { range?: [number, number] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < raw.length; i++) {
    const x = parseNumber(raw[i]);
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return lo <= hi ? { range: [lo, hi] } : {};
}

/**
 * New values of a numeric input far outside the training values: below their smallest or above their
 * largest by more than their whole range (a -9999 code among temperatures of 10 to 43, grams where the
 * model learnt kilograms). A model answers them as it can (trees as for the nearest value seen, a
 * linear model by extrapolating), with nothing in its training behind the answer.
 */
export interface FarValues {
  column: string;
  count: number;
  range: [number, number];
  /** The first such row (0-based) and its value. */
  firstRow: number;
  firstValue: number;
}

function farIn(column: string, range: [number, number], values: Float64Array): FarValues | undefined {
  const [lo, hi] = range;
  const width = hi - lo;
  // A constant training column says nothing about what is far from it.
  if (!(width > 0)) return undefined;
  let found: FarValues | undefined;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!(x < lo - width || x > hi + width)) continue;
    if (found) found.count++;
    else found = { column, count: 1, range, firstRow: i, firstValue: x };
  }
  return found;
}

function rowCount(columns: RawColumns, names: string[]): number {
  for (const name of names) if (columns[name] !== undefined) return columns[name].length;
  throw new Error('no input column present: pass nRows');
}

export interface EncoderOptions {
  /** A time series an anomaly model judges each value of against its time. */
  series?: SeriesColumns;
  /** Per numeric column, the few words its training rows held for a missing number ('unknown'). */
  gapWords?: Readonly<Record<string, readonly string[]>>;
}

function gapWords(words: readonly string[] | undefined): { gaps?: string[] } {
  return words?.length ? { gaps: [...words] } : {};
}

/**
 * Learns levels, date parts and text vocabularies from training data (never from held-back rows:
 * the caller passes the training rows only). `target` (the training rows' encoded target) lets text
 * columns keep the terms that say most about it. Columns with role target/key/none are skipped.
 */
export function fitFrameEncoder(specs: ColumnSpec[], columns: RawColumns, target?: TextTarget, opts: EncoderOptions = {}): FrameEncoder {
  const { series } = opts;
  const inputs: EncodedInput[] = [];
  const fitted = new Map<string, TextVectorizer>();
  const identifiers: IdentifierColumn[] = [];
  for (const spec of specs.filter(isFeatureColumn)) {
    const raw = columns[spec.name];
    if (raw === undefined) throw new Error(`training data lacks column ${spec.name}`);
    if (spec.name === series?.timestamp) {
      // A series' time places its values in their cycle; on its own it says nothing of them.
      const input = seasonalInput(series, raw, columns[series.value]);
      if (input) inputs.push(input);
      continue;
    }
    switch (spec.dataType) {
      case 'numeric':
      case 'numericMeasure': {
        // The name decides first: the values are read only for a column named as an identifier.
        const identifier = isIdentifierName(spec.name) ? numberIdentifier(spec.name, Float64Array.from({ length: raw.length }, (_, i) => parseNumber(raw[i]))) : undefined;
        if (identifier) identifiers.push(identifier);
        else inputs.push({ name: spec.name, dataType: spec.dataType, ...trainingRange(raw), ...gapWords(opts.gapWords?.[spec.name]) });
        break;
      }
      case 'logical':
        inputs.push({ name: spec.name, dataType: 'logical', levels: LOGICAL_LEVELS });
        break;
      case 'text': {
        const texts = Array.from({ length: raw.length }, (_, i) => asText(raw[i]));
        const vectorizer = fitTextVectorizer(texts, target);
        fitted.set(spec.name, vectorizer);
        inputs.push({ name: spec.name, dataType: 'text', text: vectorizer.toJSON() });
        break;
      }
      case 'string': {
        const { identifier, levels } = textIdentifier(spec.name, Array.from({ length: raw.length }, (_, i) => asText(raw[i])));
        if (identifier) identifiers.push(identifier);
        else inputs.push({ name: spec.name, dataType: spec.dataType, levels });
        break;
      }
      case 'date':
        inputs.push({ name: spec.name, dataType: 'date', parts: varyingDateParts(raw) });
        break;
      default:
        throw new Error(`column ${spec.name}: unknown dataType ${String(spec.dataType)}`);
    }
  }
  return new FrameEncoder(inputs, fitted, identifiers);
}

function seasonalInput(series: SeriesColumns, times: ArrayLike<RawValue>, values: ArrayLike<RawValue> | undefined): EncodedInput | undefined {
  if (values === undefined) throw new Error(`training data lacks column ${series.value}`);
  const ms = Float64Array.from({ length: times.length }, (_, i) => wallClockMs(asText(times[i])));
  const baseline = fitSeasonalBaseline(ms, Float64Array.from({ length: values.length }, (_, i) => parseNumber(values[i])));
  return baseline && { name: series.timestamp, dataType: 'seasonalDeviation', of: series.value, baseline };
}

function varyingDateParts(raw: ArrayLike<RawValue>): DatePart[] {
  const ms: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = wallClockMs(asText(raw[i]));
    if (!Number.isNaN(t)) ms.push(t);
  }
  return DATE_PARTS.filter((part) => new Set(ms.map((t) => datePart(t, part))).size > 1);
}

export function loadFrameEncoder(json: SerializedFrameEncoder): FrameEncoder {
  if (json.format !== 'sibyl-frame-encoder' || json.version !== 1) {
    throw new Error(`not a sibyl frame encoder (format ${String(json.format)}, version ${String(json.version)})`);
  }
  return new FrameEncoder(json.inputs);
}

// ---- targets ------------------------------------------------------------------------------------

export interface EncodedTarget {
  task: Task;
  /** Class index (classification) or value (regression); NaN where missing. */
  y: Float64Array;
  /** Rows whose target is missing (or, with given classes, an unknown label): the caller drops them. */
  missingRows: number[];
}

/**
 * Classification: labels → index into `classes` (default: the sorted distinct labels present).
 * Regression: parsed numbers.
 */
export function encodeTarget(
  values: ArrayLike<RawValue>,
  kind: Task['kind'],
  classes?: string[],
): EncodedTarget {
  const n = values.length;
  const y = new Float64Array(n);
  const missingRows: number[] = [];
  if (kind === 'regression') {
    for (let i = 0; i < n; i++) {
      y[i] = parseNumber(values[i]);
      if (Number.isNaN(y[i])) missingRows.push(i);
    }
    return { task: { kind: 'regression' }, y, missingRows };
  }
  const labels = classes ?? distinctSorted(values);
  const index = new Map(labels.map((l, j) => [l, j]));
  for (let i = 0; i < n; i++) {
    const v = asText(values[i]);
    y[i] = isMissing(v) ? NaN : index.get(v) ?? NaN;
    if (Number.isNaN(y[i])) missingRows.push(i);
  }
  return { task: { kind: 'classification', classes: labels }, y, missingRows };
}

function distinctSorted(values: ArrayLike<RawValue>): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < values.length; i++) {
    const v = asText(values[i]);
    if (!isMissing(v)) seen.add(v);
  }
  return [...seen].sort();
}

/**
 * Per-row weight total / (k · count of the row's class), so every class carries the same total
 * weight (scikit-learn's class_weight='balanced'; the contest's `balance` option; sessions train
 * unweighted and balance their decisions instead, model-compute.ts).
 */
export function balancedClassWeights(yIdx: ArrayLike<number>, k: number): Float64Array {
  const counts = new Float64Array(k);
  for (let i = 0; i < yIdx.length; i++) counts[yIdx[i]]++;
  const w = new Float64Array(yIdx.length);
  for (let i = 0; i < yIdx.length; i++) w[i] = yIdx.length / (k * counts[yIdx[i]]);
  return w;
}
