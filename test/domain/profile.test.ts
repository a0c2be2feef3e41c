import { test } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture, type CsvTable } from '../support/fixtures.js';
import { ColumnProfiler, DATE_SET_CAP, TableProfiler, type ColumnProfile } from '../../src/domain/profile.js';
import { formatStoredTimestamp } from '../../src/domain/dates.js';

function profileOf(values: unknown[]): ColumnProfile {
  const p = new ColumnProfiler();
  for (const v of values) p.add(v);
  return p.result();
}

function profileTable(t: CsvTable): Record<string, ColumnProfile> {
  const p = new TableProfiler(t.header);
  for (const row of t.rows) p.addRow(row);
  return p.profiles();
}

const typeOf = (values: unknown[]) => profileOf(values).dataType;

test('numbers: integers are numeric, any decimal makes numericMeasure, 0/1 stays numeric', () => {
  assert.equal(typeOf(['1', '-2', '+30', '']), 'numeric');
  assert.equal(typeOf(['1', '2.5']), 'numericMeasure');
  assert.equal(typeOf(['1', '1e3']), 'numericMeasure');
  assert.equal(typeOf(['.5', '7.']), 'numericMeasure');
  assert.equal(typeOf([1, 2, 3]), 'numeric');
  assert.equal(typeOf([1, 2.5]), 'numericMeasure');
  const label = profileOf(['0', '1', '1', '', '0']);
  assert.equal(label.dataType, 'numeric');
  assert.equal(label.zeroOne, true);
  assert.equal(profileOf(['0', '1', '2']).zeroOne, false);
  assert.equal(profileOf(['0.0', '1.0']).zeroOne, false, 'decimal 0/1 is a measure, not a flag');
  assert.equal(typeOf(['2017', '2018']), 'numeric', 'years are numbers, not dates');
  assert.equal(typeOf(['20170101', '20170102']), 'numeric');
});

test('whole numbers rising from row to row, none missing: row numbers (text or JSON numbers, by any steps)', () => {
  assert.equal(profileOf(['1', '2', '3', '7']).risingWholeNumbers, true);
  assert.equal(profileOf([0, 1, 2]).risingWholeNumbers, true);
  assert.equal(profileOf(['1,000', '1,001']).risingWholeNumbers, true);
  for (const values of [['1', '3', '2'], ['1', '1', '2'], ['1', '', '2'], ['1', 'NA', '2'], ['1', '2.5', '3'], ['1'], ['$1', '$2'], ['1%', '2%'], ['3', '2', '1']]) {
    assert.equal(profileOf(values).risingWholeNumbers, undefined, values.join(' '));
  }
  const p = new TableProfiler(['n', 'late']);
  p.addRow(['1', '5']);
  p.addRecord({ n: 2 });
  assert.equal(p.profiles().n.risingWholeNumbers, true);
  assert.equal(p.profiles().late.risingWholeNumbers, undefined, 'a record without the column leaves a gap');
});

test('logical: true/false, yes/no, on/off words in any case, mixed with 1/0', () => {
  assert.equal(typeOf(['True', 'false', '']), 'logical');
  assert.equal(typeOf(['YES', 'no', 'On', 'off']), 'logical');
  assert.equal(typeOf(['true', '0', '1']), 'logical');
  assert.equal(typeOf([true, false, null]), 'logical');
  assert.equal(typeOf(['true', 'maybe']), 'string');
  assert.equal(typeOf(['y', 'n']), 'string', 'single letters are not in the documented logical values');
});

test('dates: every value a date; uniqueness needs no repeats and no missing values', () => {
  const daily = ['2017-04-01T00:00:00.0000000Z', '2017-04-02T00:00:00.0000000Z', '2017-04-03T00:00:00.0000000Z'];
  assert.deepEqual(profileOf(daily), { dataType: 'date', present: 3, missing: 0, zeroOne: false, uniqueDates: true, distinctDates: 3 });
  assert.equal(profileOf([...daily].reverse()).uniqueDates, true);
  assert.equal(profileOf(['06-01-2017', '2017-06-03', '06-02-2017']).uniqueDates, true, 'mixed formats, unsorted');
  assert.equal(profileOf([...daily, '04-02-2017']).uniqueDates, false, 'same instant in another format');
  assert.equal(profileOf([...daily, '']).uniqueDates, false);
  assert.equal(typeOf([...daily, 'soon']), 'string');
  assert.equal(typeOf([...daily, 20170405]), 'string', 'a JSON number is not a date');
});

test('prices: one currency symbol keeps a column numeric; two make it text', () => {
  assert.equal(typeOf(['$1,250.00', '$99', '-$5.50', '12']), 'numericMeasure');
  assert.equal(typeOf(['$5', '$6']), 'numeric');
  assert.equal(typeOf(['$5', '€5']), 'string', 'dollars and euros are not one quantity');
});

test('percentages: a column whose numbers all carry a percent sign is numeric; 45% beside 0.45 is text', () => {
  assert.equal(typeOf(['45%', '2.5%', '', 'NA']), 'numericMeasure');
  assert.equal(typeOf(['45%', '0.45']), 'string');
  assert.equal(typeOf(['0.45', '45%']), 'string');
  assert.equal(typeOf(['$5%']), 'string');
});

test('day-first dates: text, flagged only when every value is one and some day is past 12', () => {
  const flagged = (values: unknown[]) => profileOf(values).dayFirstDates === true;
  assert.ok(flagged(['12/01/2017', '13/01/2017', '', '31.12.2017', '1-2-17 09:30']));
  assert.equal(typeOf(['12/01/2017', '13/01/2017']), 'string');
  assert.ok(!flagged(['11/01/2017', '12/01/2017']), 'a date month first: no sign of day first');
  assert.ok(!flagged(['13/01/2017', '13/13/2017']), 'no 13th month');
  assert.ok(!flagged(['13/01/2017', 'soon']));
  assert.ok(!flagged(['13/01/2017', 13]), 'a JSON number is no date');
  assert.ok(!flagged(['2017/01/13', '2017/01/14']));
});

test('beyond DATE_SET_CAP, uniqueness falls back to strict monotonic order', () => {
  const n = DATE_SET_CAP + 10;
  const hourly = Array.from({ length: n }, (_, i) => formatStoredTimestamp(Date.UTC(2000, 0, 1) + i * 3_600_000));
  assert.equal(profileOf(hourly).uniqueDates, true, 'sorted and distinct');
  assert.equal(profileOf([...hourly].reverse()).uniqueDates, true, 'sorted descending');
  assert.equal(profileOf([...hourly, hourly[5]]).uniqueDates, false, 'a repeat after the cap breaks the order');
  const swapped = [...hourly];
  [swapped[n - 1], swapped[n - 2]] = [swapped[n - 2], swapped[n - 1]];
  assert.equal(profileOf(swapped).uniqueDates, false, 'unsorted past the cap: conservatively not unique');
  const small = hourly.slice(0, 1000);
  [small[0], small[999]] = [small[999], small[0]];
  assert.equal(profileOf(small).uniqueDates, true, 'unsorted below the cap: exact check');
});

test('missing values and all-missing columns', () => {
  assert.deepEqual(profileOf(['', null, undefined, '  ']), { dataType: 'string', present: 0, missing: 4, zeroOne: false, uniqueDates: false });
  const p = profileOf(['3', '', '4']);
  assert.equal(p.present, 2);
  assert.equal(p.missing, 1);
  assert.equal(typeOf([{ a: 1 }, '2']), 'string');
});

test('TableProfiler: JSON records with columns appearing late count earlier rows as missing', () => {
  const t = new TableProfiler();
  t.addRecord({ time: '2017-01-01', a: 1 });
  t.addRecord({ time: '2017-01-02', a: 2, b: 'x' });
  t.addRecord({ time: '2017-01-03' });
  const p = t.profiles();
  assert.deepEqual(Object.keys(p), ['time', 'a', 'b']);
  assert.deepEqual([p.a.present, p.a.missing], [2, 1]);
  assert.deepEqual([p.b.present, p.b.missing], [1, 2]);
  assert.equal(p.time.uniqueDates, true);
});

test('real data: titanic, house votes, auto mpg, pima (fixtures)', () => {
  const titanic = profileTable(readFixture('classification/titanic.csv'));
  assert.deepEqual(Object.values(titanic).map((c) => c.dataType), ['string', 'string', 'string', 'logical']); // Survived Yes/No

  const votes = profileTable(readFixture('classification/house_votes84.csv'));
  assert.ok(Object.values(votes).every((c) => c.dataType === 'string'));
  assert.equal(votes.V1.missing, readFixture('classification/house_votes84.csv').rows.filter((r) => r[1] === '').length);

  const mpg = profileTable(readFixture('regression/auto_mpg.csv'));
  assert.deepEqual(
    Object.fromEntries(Object.entries(mpg).map(([k, v]) => [k, v.dataType])),
    { Name: 'string', Cylinders: 'numeric', Displacement: 'numericMeasure', Horsepower: 'numericMeasure', Weight_in_lbs: 'numeric',
      Acceleration: 'numericMeasure', Year: 'numeric', Origin: 'string', Miles_per_Gallon: 'numericMeasure' },
  );
  assert.equal(mpg.Horsepower.missing, 6); // catalogue: 6 missing Horsepower
  assert.equal(mpg.Miles_per_Gallon.missing, 8);

  const pima = readFixture('classification/pima_diabetes.csv');
  const insulin = profileOf(column(pima, 'insulin'));
  assert.equal(insulin.dataType, 'numeric');
  assert.equal(insulin.missing + insulin.present, 768);
  assert.ok(insulin.missing > 300, 'version 2 recodes impossible zeros to NA');
});

test('real data: monthly series dates are unique, stacked series dates are not (fixtures)', () => {
  const a10 = profileTable(readFixture('forecast/fpp2/a10.csv'));
  assert.equal(a10.date.dataType, 'date');
  assert.equal(a10.date.uniqueDates, true);
  assert.equal(a10.value.dataType, 'numericMeasure');
  const m3 = profileTable(readFixture('forecast/m3/m3_yearly_train.csv'));
  assert.equal(m3.date.dataType, 'date');
  assert.equal(m3.date.uniqueDates, false);
  assert.equal(m3.series_id.dataType, 'string');
});

test('text cells: any whitespace around values is trimmed, blank is missing, 1e999 is not a number', () => {
  assert.deepEqual(profileOf(['\u00a012\u00a0', ' 3', '4\t', '\u2003', '\ufeff']), {
    dataType: 'numeric', present: 3, missing: 2, zeroOne: false, uniqueDates: false,
    extremes: { low: 3, lowCount: 1, nextLow: 4, high: 12, highCount: 1, nextHigh: 4, count: 3 },
  });
  assert.equal(typeOf(['0', '1', ' Yes ']), 'logical');
  assert.equal(typeOf(['2', '1e999']), 'string', 'an infinite value is not numeric, even after the 0/1 question is settled');
  assert.equal(typeOf(['2', '9'.repeat(400)]), 'string');
  assert.equal(profileOf(['1', '+1', '01', '-0', '0.0e0']).zeroOne, false, 'an exponent makes a measure');
  assert.equal(profileOf(['1', '+1', '01', '-0', '00']).zeroOne, true);
});

test('TableProfiler: known columns first, then the row header; known columns missing from rows count as missing', () => {
  const t = new TableProfiler(['stored', 'b'], ['a', 'b']);
  t.addRow(['1', 'x']);
  t.addRow(['', 'y']);
  const p = t.profiles();
  assert.deepEqual(Object.keys(p), ['stored', 'b', 'a']);
  assert.deepEqual([p.stored.present, p.stored.missing], [0, 2]);
  assert.deepEqual([p.a.present, p.a.missing, p.a.dataType], [1, 1, 'numeric']);
  assert.deepEqual([p.b.present, p.b.dataType], [2, 'string']);
});

test('a column of numbers with a few words in it stays one of numbers, the words missing; words common or varied make it text', () => {
  // auto mpg's horsepower as a survey writes its gaps: 'unknown' for the 6 it lacks.
  const horsepower = column(readFixture('regression/auto_mpg.csv'), 'Horsepower');
  const surveyed = profileOf(horsepower.map((v) => (v === '' ? 'unknown' : v)));
  assert.equal(surveyed.dataType, 'numericMeasure');
  assert.deepEqual([surveyed.present, surveyed.missing, surveyed.missingWords], [400, 6, [{ word: 'unknown', count: 6 }]]);
  // Three different words are still gaps; a fourth makes the column text.
  let blank = 0;
  const three = horsepower.map((v) => (v === '' ? ['unknown', 'refused', 'n.k.'][blank++ % 3]! : v));
  assert.equal(profileOf(three).dataType, 'numericMeasure');
  assert.equal(profileOf(three.map((v, i) => (i === 0 ? 'other' : v))).dataType, 'string');
  // Words in more than 1 cell in 20: text (titanic's Age is words only).
  assert.equal(profileOf(horsepower.map((v, i) => (i % 10 === 0 ? 'unknown' : v))).dataType, 'string');
  assert.equal(profileOf([...Array.from({ length: 19 }, (_, i) => String(i)), 'unknown']).dataType, 'string', 'under 20 numbers the words decide nothing');
  assert.equal(profileOf(column(readFixture('classification/titanic.csv'), 'Age')).dataType, 'string');
  assert.equal(profileOf(horsepower).missingWords, undefined);
});

test('prose: a column of reviews is text (AutoGluon\'s rule: over 1 % different values, three words each on average); categories and names are not', () => {
  const foods = profileTable(readFixture('text/fine_foods.csv'));
  assert.deepEqual(Object.values(foods).map((c) => c.dataType), ['string', 'text', 'string']); // product codes, reviews, great/other
  assert.equal(foods.review!.prose!.sampled, foods.review!.present);
  assert.ok(foods.review!.prose!.distinct > 1400 && foods.review!.prose!.meanWords > 50, JSON.stringify(foods.review!.prose));
  const phrases = Array.from({ length: 60 }, (_, i) => `store number ${i} downtown`);
  // 60 four-word values among 1,200 cells (5 %): text; among 12,000 cells of which 5,000 are read (1.2 %): still text.
  assert.equal(typeOf(Array.from({ length: 1200 }, (_, i) => phrases[i % 60])), 'text');
  assert.equal(typeOf(Array.from({ length: 12_000 }, (_, i) => phrases[i % 60])), 'text');
  // Among 10,000 cells, the first 5,000 holding only 40 of them (0.8 %): categories.
  assert.equal(typeOf(Array.from({ length: 10_000 }, (_, i) => phrases[i % (i < 5000 ? 40 : 60)])), 'string');
  // Fewer than 20 different values are categories however long and however few the rows.
  assert.equal(typeOf(Array.from({ length: 100 }, (_, i) => phrases[i % 19])), 'string');
  // Two words a value, each its own: names, not prose.
  assert.equal(typeOf(Array.from({ length: 500 }, (_, i) => `Person ${i}`)), 'string');
  // Words are runs between any white space.
  assert.equal(typeOf(Array.from({ length: 50 }, (_, i) => `a\tb\u00a0c${i}`)), 'text');
  assert.equal(typeOf(Array.from({ length: 50 }, (_, i) => `a\u00a0\u00a0b${i}`)), 'string');
  // Dates written with words stay dates.
  assert.equal(typeOf(Array.from({ length: 50 }, (_, i) => `Jan ${1 + (i % 28)}, ${1990 + i}`)), 'date');
});

test('dates read month first whose first number never changes while the second does: day first likely (UK monthly or quarterly series)', () => {
  const likely = (values: unknown[]) => profileOf(values).dayFirstLikely;
  assert.deepEqual(likely(['01/01/1991', '01/04/1991', '01/07/1991', '01/10/1991']), { first: 1, example: '01/04/1991' });
  assert.equal(profileOf(['01/01/1991', '01/04/1991', '01/07/1991']).dataType, 'date', 'still read month first, as the original service did');
  assert.deepEqual(likely(['5/1/2017', '5/2/2017', '5/3/2017']), { first: 5, example: '5/1/2017' });
  assert.equal(likely(['01/01/1991', '04/01/1991', '07/01/1991']), undefined, 'month first on the 1st: the second number stays');
  assert.equal(likely(['01/01/1991', '01/01/1992', '01/01/1993']), undefined, 'yearly on 1 January: neither changes');
  assert.equal(likely(['01/01/1991', '01/02/1991']), undefined, 'two dates tell nothing');
  assert.equal(likely(['01/07/1991', '02/07/1991', '03/07/1991']), undefined);
  assert.equal(likely(['1991-01-01', '1991-04-01', '1991-07-01']), undefined);
});
