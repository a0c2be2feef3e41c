/**
 * The data tests read: test/fixtures/ (small public tables, protocol folds, reference results and the
 * recorded conformance cassettes; sources, licences and cuts in test/fixtures/README.md). The folder has
 * the layout of the benchmark data, so the protocol's loaders work on either.
 */
import { resolve } from 'node:path';
import { dataRoot, repositoryRoot } from '../../bench/lib/data-root.js';
import { loadAnomalyTable, referenceIsolationForest } from '../../bench/lib/anomaly-table.js';
import { loadBenchTable, type TabularKind } from '../../bench/lib/tabular-table.js';

export const fixtures = dataRoot(resolve(repositoryRoot(), 'test/fixtures'));

/** Path of a fixture file, e.g. fixturePath('classification', 'iris.csv'). */
export const fixturePath = fixtures.path;
/** A fixture CSV parsed by the reference reader, e.g. readFixture('forecast/fpp2/a10.csv'). */
export const readFixture = fixtures.read;

/** The recorded exchanges of the original service (Nexosis/nexosisclient-js test cassettes). */
export const CASSETTES = fixturePath('conformance', 'nexosis-js', 'cassettes');

/** A tabular protocol table with its fixed folds (take a fold with benchFold). */
export const fixtureTable = (kind: TabularKind, name: string) => loadBenchTable(fixtures, kind, name);
/** An ODDS-style anomaly table and scikit-learn's IsolationForest result on the same rows. */
export const fixtureAnomalyTable = (name: string) => loadAnomalyTable(fixtures, name);
export const fixtureIsolationForestReference = (name: string) => referenceIsolationForest(fixtures, name);

export { column, parseCsv, seriesValues, type CsvTable } from '../../bench/lib/csv.js';
export { benchFold } from '../../bench/lib/tabular-table.js';
export { evaluateIsolationForest } from '../../bench/lib/anomaly-table.js';
