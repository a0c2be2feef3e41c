import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CASSETTES, parseCsv, readFixture, type CsvTable } from '../support/fixtures.js';
import { columnsToJson, normalizeColumnMap, type ColumnMap, type ColumnPatchMap } from '../../src/domain/columns.js';
import { findIdentity, inferColumns, mergeColumns } from '../../src/domain/infer.js';
import { TableProfiler, type ColumnProfile } from '../../src/domain/profile.js';

function profileTable(t: CsvTable): Record<string, ColumnProfile> {
  const p = new TableProfiler(t.header);
  for (const row of t.rows) p.addRow(row);
  return p.profiles();
}

function profileRecords(records: Record<string, unknown>[]): Record<string, ColumnProfile> {
  const p = new TableProfiler();
  for (const r of records) p.addRecord(r);
  return p.profiles();
}

/** Request and response bodies of a recorded exchange with the original service. */
function cassette(name: string): { request: any; response: any } {
  const text = readFileSync(resolve(CASSETTES, name), 'utf8');
  const [request, response] = [...text.matchAll(/body: "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(JSON.parse(`"${m[1]}"`)));
  return { request, response };
}

/** What an upload ends up with: inference steered by the declared metadata, then the merge. */
function upload(profiles: Record<string, ColumnProfile>, requested: ColumnPatchMap = {}, stored?: ColumnMap): ColumnMap {
  return mergeColumns(inferColumns(profiles, stored ? [stored, requested] : [requested]), stored, requested);
}

const summary = (columns: ColumnMap) =>
  Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, `${c.dataType}/${c.role}/${c.imputation}/${c.aggregation}`]));

test("spec's worked example: labelled cheater-detection CSV with empty ratio cells", () => {
  const csv = [
    'PlayerID,total_accuracy,accuracy_ak47,accuracy_awp,win_ratio,kill_to_death_ratio,total_wins_per_hour,mvp_per_round,total_headshots_per_round,total_games_owned,label',
    '76561197960265729,0.1893,0.2011,,0.4931,1.0732,0.8841,0.1012,0.0931,112,0',
    '76561197960265730,0.2544,,0.4102,0.5208,2.9410,1.2203,0.1944,0.2210,3,1',
    '76561197960265731,0.1721,0.1689,0.3333,0.4877,0.9981,0.7012,0.0877,0.0812,57,0',
    '76561197960265732,0.3012,0.3321,,0.5533,3.4402,1.5120,0.2201,0.2877,1,1',
  ].join('\n');
  const columns = upload(profileTable(parseCsv(csv)));
  // Nothing marks PlayerID as a key, so it is an ordinary integer feature; no date, so no time series.
  assert.equal(summary(columns).PlayerID, 'numeric/feature/zeroes/sum');
  assert.equal(summary(columns).label, 'numeric/feature/mode/mode');
  assert.equal(summary(columns).total_games_owned, 'numeric/feature/zeroes/sum');
  for (const ratio of ['total_accuracy', 'accuracy_ak47', 'accuracy_awp', 'win_ratio', 'kill_to_death_ratio', 'mvp_per_round']) {
    assert.equal(summary(columns)[ratio], 'numericMeasure/feature/mean/mean', ratio);
  }
  assert.deepEqual(findIdentity(columns), { kind: 'none' });
  // The model session then names the label as target.
  const session = mergeColumns({}, columns, normalizeColumnMap({ label: { role: 'target' } }).columns);
  assert.equal(summary(session).label, 'numeric/target/mode/mode');
});

test('time series upload of the JS client reproduces the recorded response (put-dataset-testJavascript)', () => {
  const { request, response } = cassette('put-dataset-testJavascript.json5');
  const declared = normalizeColumnMap(request.columns);
  assert.deepEqual(declared.errors, {});
  const profiles = profileRecords(request.data);
  assert.equal(profiles.time.uniqueDates, true);
  assert.equal(profiles['es6-client'].dataType, 'numericMeasure');
  const columns = upload(profiles, declared.columns);
  assert.deepEqual(columnsToJson(columns), response.columns);
  assert.deepEqual(findIdentity(columns), { kind: 'timestamp', column: 'time' });
  // Without metadata, the same data infers a timestamp and a measure target.
  assert.deepEqual(summary(upload(profiles)), { time: 'date/timestamp/null/null', 'es6-client': 'numericMeasure/target/mean/mean' });
});

test('housing upload with role-only metadata matches the recorded inference (put-dataset-jsHousingData)', () => {
  const { request, response } = cassette('put-dataset-jsHousingData.json5');
  const declared = normalizeColumnMap(request.columns);
  assert.deepEqual(declared.errors, {});
  const ours = columnsToJson(upload(profileRecords(request.data), declared.columns));
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(response.columns).sort());
  const differing = Object.keys(ours).filter((c) => JSON.stringify(ours[c]) !== JSON.stringify(response.columns[c]));
  // Dec 2017 typed decimal columns numeric; by Apr 2018 they were numericMeasure, which we follow.
  assert.deepEqual(differing.sort(), ['GarageYrBlt', 'LotFrontage']);
  for (const c of differing) assert.deepEqual(ours[c], { dataType: 'numericMeasure', role: 'feature', imputation: 'mean', aggregation: 'mean' });
});

test('real time series (fixtures): a sole numeric column becomes the target, several stay features', () => {
  assert.deepEqual(summary(upload(profileTable(readFixture('forecast/fpp2/a10.csv')))),
    { date: 'date/timestamp/null/null', value: 'numericMeasure/target/mean/mean' });

  const nab = summary(upload(profileTable(readFixture('anomaly/nab/realKnownCause/nyc_taxi.csv'))));
  assert.deepEqual(nab, {
    timestamp: 'date/timestamp/null/null',
    value: 'numeric/feature/zeroes/sum',
    label_window: 'numeric/feature/mode/mode',
    label_point: 'numeric/feature/mode/mode',
  });

  const seatbelts = upload(profileTable(readFixture('impact/seatbelts_uk.csv')));
  assert.deepEqual(findIdentity(seatbelts), { kind: 'timestamp', column: 'date' });
  assert.equal(summary(seatbelts).law, 'numeric/feature/mode/mode');
  assert.equal(summary(seatbelts).PetrolPrice, 'numericMeasure/feature/mean/mean');
  assert.ok(Object.values(seatbelts).every((c) => c.role === 'timestamp' || c.role === 'feature'));
});

test('a numeric column declared with role none or key is no candidate for a time series\' target', () => {
  const profiles = profileRecords([{ n: 1, when: '2017-01-01', v: 5.5 }, { n: 2, when: '2017-01-02', v: 6.5 }]);
  assert.equal(summary(upload(profiles)).v, 'numericMeasure/feature/mean/mean', 'two numbers: no target inferred');
  assert.equal(summary(upload(profiles, { n: { role: 'none' } })).v, 'numericMeasure/target/mean/mean');
  assert.equal(summary(upload(profiles, { n: { role: 'key' } })).v, 'numericMeasure/feature/mean/mean', 'a key rules out the inferred timestamp, so no series');
});

test('real tables without a unique date column (fixtures): no timestamp, no inferred target', () => {
  const air = upload(profileTable(readFixture('regression/airquality.csv')));
  assert.ok(Object.values(air).every((c) => c.role === 'feature'));
  assert.deepEqual(findIdentity(air), { kind: 'none' });
  const m3 = upload(profileTable(readFixture('forecast/m3/m3_yearly_train.csv')));
  assert.equal(summary(m3).date, 'date/null/null/null', 'stacked series repeat dates');
  assert.equal(summary(m3).series_id, 'string/feature/mode/mode');
  assert.deepEqual(findIdentity(m3), { kind: 'none' });
});

test('declared identity suppresses timestamp inference; a declared timestamp makes a time series', () => {
  const profiles = profileRecords([
    { id: 'a', when: '2017-01-01', v: '1.5' },
    { id: 'b', when: '2017-01-02', v: '2.5' },
  ]);
  assert.deepEqual(summary(upload(profiles)), { id: 'string/feature/mode/mode', when: 'date/timestamp/null/null', v: 'numericMeasure/target/mean/mean' });
  const keyed = upload(profiles, { id: { role: 'key' } });
  assert.deepEqual(summary(keyed), { id: 'string/key/mode/mode', when: 'date/null/null/null', v: 'numericMeasure/feature/mean/mean' });
  assert.deepEqual(findIdentity(keyed), { kind: 'key', column: 'id' });
  // The stored dataset's timestamp counts as declared on later uploads.
  const stored = upload(profiles, { when: { role: 'timestamp' } });
  const again = upload(profiles, {}, stored);
  assert.deepEqual(findIdentity(again), { kind: 'timestamp', column: 'when' });
  assert.equal(again.v.role, 'target');
  // A declared target elsewhere means no inferred target.
  assert.equal(upload(profiles, { id: { role: 'target' } }).v.role, 'feature');
});

test('two unique date columns: unsure which is the timestamp, so neither', () => {
  const profiles = profileRecords([
    { start: '2017-01-01', end: '2017-01-05', n: 1 },
    { start: '2017-02-01', end: '2017-02-05', n: 2 },
  ]);
  const columns = upload(profiles);
  assert.deepEqual([columns.start.role, columns.end.role, columns.n.role], [null, null, 'feature']);
  assert.deepEqual(findIdentity(columns), { kind: 'none' });
});

test('merge: request over stored over inferred, field by field; strategies follow the deciding type', () => {
  const inferred: ColumnMap = { a: { dataType: 'numeric', role: 'feature', imputation: 'mode', aggregation: 'mode' }, b: { dataType: 'string', role: 'feature' } };
  const stored: ColumnMap = { a: { dataType: 'numeric', role: 'target', imputation: 'median', aggregation: 'max' }, b: { dataType: 'string', role: 'feature', imputation: 'mode', aggregation: 'mode' } };
  assert.deepEqual(summary(mergeColumns(inferred, stored, {})), { a: 'numeric/target/median/max', b: 'string/feature/mode/mode' });
  assert.deepEqual(summary(mergeColumns(inferred, stored, { a: { role: 'none' } })), { a: 'numeric/none/median/max', b: 'string/feature/mode/mode' });
  // A new type in the request drops strategies chosen for the old one…
  assert.deepEqual(summary(mergeColumns(inferred, stored, { a: { dataType: 'numericMeasure' } })).a, 'numericMeasure/target/mean/mean');
  // …unless the request sets them too.
  assert.deepEqual(summary(mergeColumns(inferred, stored, { a: { dataType: 'numericMeasure', aggregation: 'sum' } })).a, 'numericMeasure/target/mean/sum');
  // Inferred 0/1 strategies apply only while the type is the inferred one.
  assert.deepEqual(summary(mergeColumns(inferred, undefined, { a: { role: 'target' } })).a, 'numeric/target/mode/mode');
  assert.deepEqual(summary(mergeColumns(inferred, undefined, { a: { dataType: 'numeric' } })).a, 'numeric/feature/zeroes/sum');
  assert.deepEqual(summary(mergeColumns(inferred, undefined, { b: { dataType: 'date' } })).b, 'date/feature/null/null');
});

test('merge: metadata-only columns (empty keyed dataset, future-dated feature PUT)', () => {
  const columns = mergeColumns({}, undefined, { id: { role: 'key' }, day: { role: 'timestamp' }, promo: { dataType: 'logical', role: 'feature' } });
  assert.deepEqual(summary(columns), { id: 'string/key/mode/mode', day: 'date/timestamp/null/null', promo: 'logical/feature/mode/mode' });
  // Stored columns come first, in their order; new ones follow.
  assert.deepEqual(Object.keys(mergeColumns({ z: { dataType: 'numeric', role: 'feature' }, a: { dataType: 'numeric', role: 'feature' } }, { a: { dataType: 'numeric', role: 'feature' } }, { q: { role: 'none' } })), ['a', 'z', 'q']);
});

test('findIdentity: key wins over timestamp; none without either', () => {
  const base = { dataType: 'string' as const, role: 'feature' as const };
  assert.deepEqual(findIdentity({ x: base }), { kind: 'none' });
  assert.deepEqual(findIdentity({ t: { dataType: 'date', role: 'timestamp' }, k: { ...base, role: 'key' } }), { kind: 'key', column: 'k' });
  assert.deepEqual(findIdentity({ t: { dataType: 'date', role: 'timestamp' }, x: base }), { kind: 'timestamp', column: 't' });
});
