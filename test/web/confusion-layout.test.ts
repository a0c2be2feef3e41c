import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confusionLayout } from '../../web/src/lib/confusion-layout.js';

test('a matrix of two or three classes shows every count large, in one column of the grid', () => {
  for (const classes of [['neg', 'pos'], ['setosa', 'versicolor', 'virginica']]) {
    const l = confusionLayout(classes);
    assert.equal(l.showZeros, true);
    assert.equal(l.wide, false);
    assert.equal(l.cellFontSize, 14);
  }
  assert.ok(confusionLayout(['setosa', 'versicolor', 'virginica']).yLabelWidth >= 'versicolor'.length * 6, 'the axis title clears the longest name');
});

test('a matrix of 26 classes leaves zeros blank, uses small numbers and the full width, and stays under a screen and a half tall', () => {
  const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
  const l = confusionLayout(letters);
  assert.equal(l.showZeros, false);
  assert.equal(l.wide, true);
  assert.ok(l.cellFontSize <= 10);
  assert.ok(l.height < 1000, `height ${l.height}`);
  assert.equal(l.xLabelRotate, 0, 'one-letter names need no rotation');
  assert.equal(confusionLayout(letters.map((c) => `class ${c}`)).xLabelRotate, 45);
});
