import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PredictionCounter } from '../../src/service/models/prediction-counter.js';
import type { ModelsStore } from '../../src/store/models-store.js';

/** A store whose writes commit only when released, as a busy database's do. */
function slowStore() {
  let stored = 0;
  const writes: (() => void)[] = [];
  const store = {
    predictions: async () => stored,
    addPredictions: (_account: string, _day: string, count: number) => new Promise<void>((resolve) => writes.push(() => { stored += count; resolve(); })),
  };
  return { store: store as unknown as ModelsStore, commit: () => writes.splice(0).forEach((w) => w()) };
}

test('predictions being written are counted while their write is under way, once', async () => {
  const { store, commit } = slowStore();
  const counter = new PredictionCounter(store, 3_600_000);
  counter.add('a', 3);
  assert.equal(await counter.current('a'), 3);
  const flushed = counter.flush();
  const during = counter.current('a');
  await new Promise((r) => setTimeout(r, 20));
  counter.add('a', 2);
  commit();
  await flushed;
  assert.equal(await during, 5, 'the batch in its write, and the predictions made since');
  assert.equal(await counter.current('a'), 5);
});
