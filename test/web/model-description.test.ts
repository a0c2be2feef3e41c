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
    'Weighted average of the predictions of: Linear model (0.67), Gradient Boosted Trees, small-data settings (0.28), Random Forest (0.03), Gradient Boosted Trees, default settings (0.02)');
});

test('without the contest, a description only loses its closing full stop', () => {
  assert.equal(describeModel('Average of fully grown decision trees.'), 'Average of fully grown decision trees');
  assert.equal(describeModel('Weighted average of: A (0.5), B (0.5).', champion, []), 'Weighted average of: A (0.5), B (0.5)');
});

test('a leaderboard candidate is named with its settings only when another has its name', () => {
  const all = [linear, gbdt, gbdtSmall];
  assert.equal(candidateName(linear, all), 'Linear model');
  assert.equal(candidateName(gbdtSmall, all), 'Gradient Boosted Trees, small-data settings');
  assert.equal(candidateName(gbdt, all), 'Gradient Boosted Trees, default settings');
});
