/**
 * Determinism of a model session's computation (the worker-thread `model` compute the session
 * runner calls): the same data, parameters and seed give byte-identical model artifacts, results and
 * messages, also when another process keeps a core busy. Budgets count work, never time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { creditSessionInput } from '../support/credit-session-input.js';
import { compute } from '../../src/jobs/compute/model-compute.js';

const creditInput = (rows: number) => creditSessionInput(rows);

/** A child process spinning on one core until killed. */
function busyCore(): () => void {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

/** The output without its debug messages, which report this run's time and memory (the phase table). */
const withoutRunReport = (out: unknown) => JSON.stringify(out, (k, v) => (k === 'messages' && Array.isArray(v) ? v.filter((m: { severity?: string }) => m.severity !== 'debug') : v));

test('a model session computed twice, once with another core busy, gives byte-identical artifacts and results', async () => {
  const first = withoutRunReport(await compute(creditInput(1200)));
  const stop = busyCore();
  let second: string;
  try {
    second = withoutRunReport(await compute(creditInput(1200)));
  } finally {
    stop();
  }
  assert.ok(!first.includes('"failure"'), first.slice(0, 300));
  assert.equal(second.length, first.length);
  assert.ok(second === first, 'the two runs differ');
});

test('anomaly sessions are deterministic too', async () => {
  const input = { ...creditInput(800), domain: 'anomalies' as const, targetColumn: null, specs: creditInput(800).specs.map((s) => ({ ...s, role: 'feature' })) };
  const a = withoutRunReport(await compute(input));
  const b = withoutRunReport(await compute(input));
  assert.ok(a === b);
});
