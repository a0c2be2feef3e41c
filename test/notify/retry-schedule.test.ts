import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/notify/retry-schedule.js';

describe('notification retry schedule', () => {
  it('doubles from one second and is capped at ten minutes', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(retryDelayMs), [1000, 2000, 4000, 8000, 16000]);
    assert.equal(retryDelayMs(10), 512_000);
    assert.equal(retryDelayMs(11), 600_000);
    assert.equal(retryDelayMs(100), 600_000);
  });

  it('gives up after about a day of trying', () => {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const delay = retryDelayMs(attempt);
      if (delay === null) {
        assert.equal(attempt, MAX_ATTEMPTS);
        break;
      }
      waited += delay;
    }
    const hours = waited / 3_600_000;
    assert.ok(hours > 23.8 && hours <= 24, `waited ${hours} h in all`);
  });
});
