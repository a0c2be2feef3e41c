import type { Message } from '../../store/schema.js';
import { classificationMetrics, type ClassificationMetrics } from '../../ml/metrics/classification.js';

/**
 * Balanced decisions (`balance`, on by default) predict the class whose calibrated probability is
 * largest relative to its share of the training rows: rarer classes are predicted more often, and on
 * an imbalanced set the accuracy falls, at times below that of always answering the most frequent
 * class (glass_odds: 90.7 % against 95.3 %, and 100 % by the most probable class). Said with the test
 * rows' figures when the accuracy falls below that rate (a warning), or by NOTABLE_ACCURACY_COST or
 * more below the most probable class's; the class scores themselves do not change.
 */
const NOTABLE_ACCURACY_COST = 0.02;

export function balanceTradeMessage(o: {
  yTest: Int32Array;
  /** The test rows' calibrated class scores, k per row. */
  proba: Float64Array;
  /** The metrics of the balanced decisions, as the session reports them. */
  balanced: ClassificationMetrics;
  classes: readonly string[];
  yTrain: ArrayLike<number>;
}): Message | undefined {
  const k = o.classes.length;
  const n = o.yTest.length;
  if (n === 0 || k < 2) return undefined;
  const probable = classificationMetrics(o.yTest, o.proba, k, { rocAuc: false });
  const majority = mostFrequent(o.yTrain, k);
  const majorityRate = o.yTest.filter((y) => y === majority).length / n;
  const { balanced } = o;
  const belowMajority = balanced.accuracy < majorityRate;
  if (!belowMajority && probable.accuracy - balanced.accuracy < NOTABLE_ACCURACY_COST) return undefined;
  const against = belowMajority
    ? `less than the ${pct(majorityRate)} of always answering '${o.classes[majority]}', the most frequent class, and the ${pct(probable.accuracy)} of answering each row's most probable class`
    : `against ${pct(probable.accuracy)} by answering each row's most probable class`;
  return {
    severity: belowMajority ? 'warning' : 'informational',
    message: `Balanced decisions (balance, on by default) cost accuracy here: on the ${n} test rows the model is right ${pct(balanced.accuracy)} of the time, ${against}; `
      + `macroAverageRecall is ${pct(balanced.macroAverageRecall)} balanced, ${pct(probable.macroAverageRecall)} by the most probable class. `
      + 'With balance the predicted class is the one whose score is largest relative to its share of the training rows, so rarer classes are predicted more often, in the results and in predictions; '
      + 'the class scores are the same either way, probabilities calibrated to the data\'s class mix. '
      + 'To predict each row\'s most probable class, set "extraParameters": {"balance": false}.',
  };
}

function mostFrequent(y: ArrayLike<number>, k: number): number {
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < y.length; i++) counts[y[i]!]!++;
  return counts.indexOf(Math.max(...counts));
}

function pct(share: number): string {
  return `${(100 * share).toFixed(1).replace(/\.0$/, '')} %`;
}
