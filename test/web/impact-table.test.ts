import { test } from 'node:test';
import assert from 'node:assert/strict';
import { impactTable } from '../../web/src/lib/impact-table.js';

// Two periods of the seat-belt law's impact on DriversKilled as the results API gives them.
const ROWS = [
  {
    date: '1983-02-01T00:00:00.0000000Z', DriversKilled: '95', 'DriversKilled:predicted': '72.33678672225184',
    'DriversKilled:lower': '45.09474933037166', 'DriversKilled:upper': '100.61072913255722',
    'DriversKilled:cumulativeEffect': '22.663213277748156', 'DriversKilled:cumulativeEffect:lower': '-5.610729132557221', 'DriversKilled:cumulativeEffect:upper': '49.90525066962834',
  },
  {
    date: '1983-03-01T00:00:00.0000000Z', DriversKilled: '100', 'DriversKilled:predicted': '87.65',
    'DriversKilled:lower': '60.04', 'DriversKilled:upper': '116.1',
    'DriversKilled:cumulativeEffect': '35.01', 'DriversKilled:cumulativeEffect:lower': '-5.508', 'DriversKilled:cumulativeEffect:upper': '75.2',
  },
];

test('the per-period table names each column in words and gives its intervals their level', () => {
  const t = impactTable(ROWS, 'date', 'DriversKilled', 0.95);
  assert.deepEqual(t.columns, [
    'date', 'DriversKilled observed', 'expected without the event', 'expected: 95 % interval from', 'expected: 95 % interval to',
    'effect (observed − expected)', 'cumulative effect', 'cumulative effect: 95 % interval from', 'cumulative effect: 95 % interval to',
  ]);
  assert.ok(t.columns.every((c) => !c.includes(':lower') && !c.includes(':upper') && !c.includes(':predicted')), 'no API field name left');
  assert.deepEqual(t.rows[0], {
    date: '1983-02-01', 'DriversKilled observed': '95', 'expected without the event': '72.34',
    'expected: 95 % interval from': '45.09', 'expected: 95 % interval to': '100.6',
    'effect (observed − expected)': '22.66', 'cumulative effect': '22.66',
    'cumulative effect: 95 % interval from': '-5.611', 'cumulative effect: 95 % interval to': '49.91',
  });
  assert.equal(t.rows[1]!['effect (observed − expected)'], '12.35', 'each period its own effect: 100 − 87.65');
});

test('the level is the session\'s, and columns the rows lack are left out rather than shown empty', () => {
  const older = ROWS.map(({ 'DriversKilled:cumulativeEffect:lower': _l, 'DriversKilled:cumulativeEffect:upper': _u, ...r }) => r);
  const t = impactTable(older, 'date', 'DriversKilled', 0.9);
  assert.deepEqual(t.columns, [
    'date', 'DriversKilled observed', 'expected without the event', 'expected: 90 % interval from', 'expected: 90 % interval to',
    'effect (observed − expected)', 'cumulative effect',
  ]);
});

test('a field the table does not know keeps its name, after the known ones', () => {
  const t = impactTable([{ ...ROWS[0]!, 'DriversKilled:somethingNew': '1.234567' }], 'date', 'DriversKilled', 0.95);
  assert.equal(t.columns[t.columns.length - 1], 'DriversKilled:somethingNew');
  assert.equal(t.rows[0]!['DriversKilled:somethingNew'], '1.235');
});

test('an observed value missing in a period leaves its effect empty, not NaN', () => {
  const t = impactTable([{ ...ROWS[0]!, DriversKilled: '' }, ROWS[1]!], 'date', 'DriversKilled', 0.95);
  assert.equal(t.rows[0]!['effect (observed − expected)'], '');
  assert.equal(t.rows[0]!['DriversKilled observed'], '');
});

test('hourly periods keep their hour: a day\'s 24 rows are not all labelled with its date', () => {
  const hours = ['2014-12-30T22:00:00Z', '2014-12-30T23:00:00Z', '2014-12-31T00:00:00Z'].map((date, i) => ({ ...ROWS[0]!, date, DriversKilled: String(90 + i) }));
  const t = impactTable(hours, 'date', 'DriversKilled', 0.95);
  assert.deepEqual(t.rows.map((r) => r.date), ['2014-12-30 22:00', '2014-12-30 23:00', '2014-12-31 00:00']);
});
