/** Rolling-origin evaluation of the candidates on the end of the series. */
import { mae, mase, smape } from './metrics.js';
import type { BacktestScore } from './types.js';

/** Shortest training span a backtest origin may leave. */
const MIN_TRAIN = 8;

/**
 * Training lengths of the backtest origins: windows of h points ending at the end of the series,
 * stepping back h at a time, at most `maxOrigins`, each leaving at least MIN_TRAIN points (and a
 * full seasonal cycle) for fitting. A `step` shorter than h gives overlapping windows (more errors
 * at each horizon step, for calibrating the spread; the last windows are then cut short by the end).
 */
export function backtestOrigins(n: number, h: number, period: number, maxOrigins: number, step = h, shortest = MIN_TRAIN): number[] {
  const minTrain = Math.max(shortest, period + 1);
  const out: number[] = [];
  for (let i = 1; i <= maxOrigins; i++) {
    const len = n - i * step;
    if (len < minTrain) break;
    out.push(len);
  }
  return out;
}

export class ScoreAccumulator {
  private sums = { mae: 0, smape: 0, mase: 0 };
  private counts = { mae: 0, smape: 0, mase: 0 };

  add(train: Float64Array, actual: Float64Array, fc: Float64Array, period: number): void {
    const scores = { mae: mae(actual, fc), smape: smape(actual, fc), mase: mase(train, actual, fc, period) };
    for (const k of ['mae', 'smape', 'mase'] as const) {
      if (Number.isFinite(scores[k])) { this.sums[k] += scores[k]; this.counts[k]++; }
    }
  }

  get origins(): number {
    return this.counts.mae;
  }

  score(): BacktestScore {
    const avg = (k: 'mae' | 'smape' | 'mase') => (this.counts[k] ? this.sums[k] / this.counts[k] : NaN);
    return { mae: avg('mae'), smape: avg('smape'), mase: avg('mase') };
  }
}
