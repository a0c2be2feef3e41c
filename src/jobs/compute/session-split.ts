/**
 * A model session's train/test split (random, or the latest rows by time) and what the session says
 * about it; the contest's folds follow the split (forward-chaining when it is by time).
 */
import { cellText, type LoadedColumns } from '../../ml/loaded-columns.js';
import type { RawColumns } from '../../ml/encode.js';
import type { Task } from '../../ml/frame.js';
import { holdoutSplit, type Split } from '../../service/models/holdout-split.js';
import { latestRowsSplit, rowTimes, timeOrder } from '../../service/models/latest-rows-split.js';
import type { ModelComputeInput } from '../../service/models/model-compute-contract.js';
import type { Message } from '../../store/schema.js';
import { listInWords } from '../../domain/wording.js';

/** How the session's rows were split by time: the test period's ends and the training rows' times. */
export interface TimeOrder {
  column: string;
  /** Rows (of the kept rows) with the test period's earliest and latest time. */
  firstTest: number;
  lastTest: number;
  /** Each training row's time (NaN: none), in the training rows' order. */
  trainTimes: Float64Array;
  /** Classification: classes whose every row is among the latest, so the rows were split at random instead. */
  unseen?: number[];
}

/**
 * The test rows: the latest ones when a column has role timestamp (latest-rows-split.ts), else the
 * seeded random split (by class in classification), which is what every data set without one keeps.
 * A classification whose latest rows hold every row of a class is split at random, and says so: a
 * model cannot be tested on a class it never saw.
 */
export function splitRows(input: ModelComputeInput, columns: RawColumns, y: Float64Array, nClasses: number): { split: Split; order?: TimeOrder } {
  const random = () => holdoutSplit(y.length, input.seed, nClasses > 0 ? y : undefined);
  const timestamp = input.specs.find((s) => (s.role ?? '').toLowerCase() === 'timestamp' && columns[s.name] !== undefined);
  if (!timestamp) return { split: random() };
  const times = rowTimes(columns[timestamp.name]!);
  const latest = latestRowsSplit(times);
  if (!latest) return { split: random() };
  const order = (split: Split, unseen?: number[]): TimeOrder => ({ column: timestamp.name, firstTest: latest.firstTest, lastTest: latest.lastTest, trainTimes: Float64Array.from(split.train, (r) => times[r]!), unseen });
  if (nClasses > 0) {
    const trained = new Set(Array.from(latest.train, (r) => y[r]!));
    const unseen = Array.from({ length: nClasses }, (_, c) => c).filter((c) => !trained.has(c));
    if (unseen.length > 0) {
      const split = random();
      return { split, order: order(split, unseen) };
    }
  }
  return { split: latest, order: order(latest) };
}

/**
 * Rows split by time are cross-validated forward too (folds.ts forwardChainingSplits): random folds
 * let each fold's rows be predicted from the days around them, which favours models that fill in gaps
 * over those that carry the series on. Undefined (random folds) when the split itself was random.
 */
export function contestTimeOrder(order: TimeOrder | undefined, sample: Int32Array | undefined): Int32Array | undefined {
  if (!order || order.unseen) return undefined;
  return timeOrder(sample ? Float64Array.from(sample, (r) => order.trainTimes[r]!) : order.trainTimes);
}

/** What the test rows of a session on time-ordered rows are, or why they are not its latest rows. */
export function timeSplitMessage(order: TimeOrder, columns: LoadedColumns, rows: number[], split: Split, task: Task): Message {
  if (order.unseen) {
    const names = order.unseen.map((c) => `'${task.kind === 'classification' ? task.classes[c] : c}'`);
    return {
      severity: 'warning',
      message: `The rows have a timestamp, '${order.column}', but every row of class ${listInWords(names)} is among the latest rows by it: holding those back would test the model on ${names.length === 1 ? 'a class' : 'classes'} it never saw, so the test rows were drawn at random instead, and the test metrics may overstate how well the model predicts later rows.`,
    };
  }
  const time = (row: number) => cellText(columns[order.column]!, rows[row]!);
  return {
    severity: 'informational',
    message: `The test rows are the last ${split.test.length} of the ${rows.length} rows by '${order.column}', from ${time(order.firstTest)} to ${time(order.lastTest)}, and the model tested was trained on the ${split.train.length} earlier rows, so the test metrics measure predicting later rows from earlier ones. The contest compared algorithms the same way: each fold predicted rows later than those it was trained on.`,
  };
}
