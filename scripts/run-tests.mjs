#!/usr/bin/env node
// Runs the compiled test files with node's own test runner.
// Default: every dist/test/**/*.test.js except the suites with their own scripts (*.slow.test.js,
// *.clients.test.js, *.cluster.test.js, *.fuzz.test.js); `--slow` runs only the slow ones, `--clients` only
// the original clients driven against a live server, `--suite=NAME` only *.NAME.test.js.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { prepareEmbeddedTemplate } from './embedded-template.mjs';

const SUITES = ['slow', 'clients', 'cluster', 'fuzz'];
const suite = process.argv.includes('--slow') ? 'slow' : process.argv.includes('--clients') ? 'clients'
  : process.argv.find((a) => a.startsWith('--suite='))?.slice('--suite='.length);
const suiteOf = (f) => SUITES.find((s) => f.endsWith(`.${s}.test.js`));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const root = 'dist/test';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

let files = walk(root).filter((f) => suiteOf(f) === suite);
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
files.sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const removeTemplate = await prepareEmbeddedTemplate();
// Files run in separate processes, SIBYL_TEST_CONCURRENCY at a time. The default run takes 2: one file
// alone keeps about 1.3 of the 2 cores busy, waiting on its servers, workers and polls; two keep both
// busy (10.0 min instead of 12.1 on a quiet 2-core machine). The other suites (slow, clients, cluster,
// fuzz) take 1: they start process groups, private databases and load of their own. Files that measure
// latency run alone after the others.
const concurrency = Number(process.env.SIBYL_TEST_CONCURRENCY ?? (suite ? 1 : 2));
const ALONE = ['responsiveness'];
const alone = files.filter((f) => ALONE.some((a) => f.includes(a)));
const shared = files.filter((f) => !alone.includes(f));
let status = 0;
for (const [batch, n] of [[shared, concurrency], [alone, 1]]) {
  if (batch.length === 0) continue;
  const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${n}`, '--test-reporter=spec', ...batch], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  });
  if (r.status !== 0) status = r.status ?? 1;
}
removeTemplate();
process.exit(status);
