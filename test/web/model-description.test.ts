import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candidateName, describeModel } from '../../web/src/lib/model-description.js';

const gbdt = { id: 'gbdt', algorithm: { name: 'Gradient Boosted Trees', key: 'gbdt' } };
const gbdtSmall = { id: 'gbdt_small_data', algorithm: { name: 'Gradient Boosted Trees', key: 'gbdt' } };
const linear = { id: 'linear', algorithm: { name: 'Linear model', key: 'linear' } };
const forest = { id: 'random_forest', algorithm: { name: 'Random Forest', key: 'random_forest' } };
const champion = { id: 'stack(linear:0.67+gbdt_small_data:0.28+random_forest:0.03+gbdt:0.02)', algorithm: { name: 'Blend', key: 'blend' } };

test('a blend whose members share a name tells them apart by their settings, and its description ends once', () => {
  const text = 'Weighted average of the predictions of: Linear model (0.67), Gradient Boosted Trees (0.28), Random Forest (0.03), Gradient Boosted Trees (0.02).';
  assert.equal(describeModel(text, champion, [linear, gbdtSmall, forest, gbdt, champion]),
    'Weighted average of the predictions of: Linear model (0.67), Gradient Boosted Trees with small-data settings (0.28), Random Forest (0.03), Gradient Boosted Trees with default settings (0.02)');
});

test('without the contest, a description only loses its closing full stop', () => {
  assert.equal(describeModel('Average of fully grown decision trees.'), 'Average of fully grown decision trees');
  assert.equal(describeModel('Weighted average of: A (0.5), B (0.5).', champion, []), 'Weighted average of: A (0.5), B (0.5)');
});

test('a leaderboard candidate is named with its settings only when another has its name', () => {
  const all = [linear, gbdt, gbdtSmall];
  assert.equal(candidateName(linear, all), 'Linear model');
  assert.equal(candidateName(gbdtSmall, all), 'Gradient Boosted Trees with small-data settings');
  assert.equal(candidateName(gbdt, all), 'Gradient Boosted Trees with default settings');
});

test('a blend on the leaderboard is named by its members in words, weights as percentages, never by its internal id', () => {
  const extra = { id: 'extra_trees', algorithm: { name: 'Extremely Randomized Trees', key: 'extra_trees' } };
  const all = [extra, forest, linear, gbdt, gbdtSmall];
  const blend = (id: string) => ({ id, algorithm: { name: 'Blend', key: 'blend' } });
  assert.equal(candidateName(blend('blend(extra_trees+random_forest)'), all), 'Average of Extremely Randomized Trees and Random Forest');
  assert.equal(candidateName(blend('stack(extra_trees:0.65+random_forest:0.35)'), all), 'Weighted average of Extremely Randomized Trees (65 %) and Random Forest (35 %)');
  assert.equal(candidateName(blend('blend(gbdt_small_data+gbdt+linear)'), all), 'Average of Gradient Boosted Trees with small-data settings, Gradient Boosted Trees with default settings and Linear model');
});

test('the contest\'s own settings are said in words', () => {
  const slow = { id: 'gbdt_slow_early_stop', algorithm: { name: 'Gradient Boosted Trees', key: 'gbdt' } };
  const spline = { id: 'linear_spline', algorithm: { name: 'Linear model', key: 'linear' } };
  assert.equal(candidateName(slow, [gbdt, slow]), 'Gradient Boosted Trees with slow learning and early stopping');
  assert.equal(candidateName(spline, [linear, spline]), 'Linear model with curves (splines)');
});
