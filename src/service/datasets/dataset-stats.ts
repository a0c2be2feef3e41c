/**
 * Column statistics of a data set (`GET /v1/data/<name>/stats`), kept per version of its rows.
 * Computing them reads every row (a minute for a million rows on the embedded store), and the
 * dashboard asks on every visit of a data set page and new-session form; the rows change only by
 * an upload or delete, each of which publishes new segments, so the live segments' ids name the
 * rows exactly. Kept with them: the column's type and the data set's missing-value markers, which
 * the numbers also depend on. Each process keeps its own (a few small objects per data set).
 */
import { ColumnStatsTally, type ColumnStats } from '../../domain/column-stats.js';
import { MissingValues } from '../../domain/missing-values.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import { RowTextScanner, type CellSink } from './row-text-scanner.js';

export interface KeptColumnStats extends ColumnStats {
  /** When these numbers were computed (the rows have not changed since). */
  lastCalculated: Date;
}

/** What the statistics need from the data set service: its rows and which version of them is live. */
export interface StatsRowSource {
  rowsVersion(dataset: DatasetRecord): Promise<string | null>;
  rowTexts(dataset: DatasetRecord): AsyncGenerator<string[]>;
}

/** Data set versions kept; the oldest read is forgotten past this. */
const KEPT_VERSIONS = 64;

export class DatasetStats {
  /** version key → `column \u0000 dataType` → statistics; Map order is the order of last use. */
  private readonly kept = new Map<string, Map<string, KeptColumnStats>>();

  constructor(private readonly rows: StatsRowSource) {}

  /** Statistics of the named columns, each read as `dataType` if given, else as its own type. */
  async of(dataset: DatasetRecord, names: readonly string[], dataType: string | undefined): Promise<Record<string, KeptColumnStats>> {
    const typeOf = (n: string) => dataType ?? dataset.columns[n]!.dataType;
    const slot = (n: string) => `${n}\u0000${typeOf(n)}`;
    const version = await this.rows.rowsVersion(dataset);
    // A view's rows follow the data sets it reads: it has no version of its own, so it is computed each time.
    const key = version === null ? null : `${dataset.id}\u0000${version}\u0000${JSON.stringify(dataset.missingValues)}`;
    const kept = key === null ? undefined : this.kept.get(key);
    if (key !== null && kept) { this.kept.delete(key); this.kept.set(key, kept); }
    const missing = names.filter((n) => !kept?.has(slot(n)));
    const computed = missing.length > 0 ? await this.compute(dataset, missing, typeOf) : new Map<string, KeptColumnStats>();
    // Kept only if no upload published while the rows were read: the numbers then belong to `version`.
    if (key !== null && missing.length > 0 && (await this.rows.rowsVersion(dataset)) === version) {
      const entry = this.kept.get(key) ?? new Map<string, KeptColumnStats>();
      for (const [n, s] of computed) entry.set(slot(n), s);
      this.kept.delete(key);
      this.kept.set(key, entry);
      for (const old of this.kept.keys()) {
        if (this.kept.size <= KEPT_VERSIONS) break;
        this.kept.delete(old);
      }
      // Older versions of the same data set can never be asked for again.
      const prefix = `${dataset.id}\u0000`;
      for (const k of [...this.kept.keys()]) if (k !== key && k.startsWith(prefix)) this.kept.delete(k);
    }
    return Object.fromEntries(names.map((n) => [n, computed.get(n) ?? kept!.get(slot(n))!]));
  }

  /** One pass over the rows for all the columns asked: each row's text scanned, its cells tallied, none kept. */
  private async compute(dataset: DatasetRecord, names: readonly string[], typeOf: (n: string) => string): Promise<Map<string, KeptColumnStats>> {
    const tallies = names.map((n) => new TalliedCells(new ColumnStatsTally(typeOf(n))));
    const scanner = new RowTextScanner(names, tallies, new MissingValues(dataset.missingValues));
    for await (const texts of this.rows.rowTexts(dataset)) scanner.add(texts);
    const lastCalculated = new Date();
    return new Map(names.map((n, j) => [n, { ...tallies[j]!.result(scanner.rowCount), lastCalculated }]));
  }
}

/**
 * A column's cells as the scanner hands them on: a row it skips (no cell, null or a marker) is an
 * empty cell. A cell is tallied once the next row's arrives, so a name repeated in a row's text
 * counts its last value, as JSON.parse reads it.
 */
class TalliedCells implements CellSink {
  /** Rows before this one are tallied. */
  private next = 0;
  private pending: string | undefined;

  constructor(private readonly tally: ColumnStatsTally) {}

  set(row: number, raw: string): void {
    this.tallyUpTo(row);
    this.pending = raw;
  }

  result(rows: number): ColumnStats {
    this.tallyUpTo(rows);
    return this.tally.result();
  }

  /** Tallies the rows before `row`: the pending cell, then empty cells. */
  private tallyUpTo(row: number): void {
    for (; this.next < row; this.next++) {
      this.tally.add(this.pending ?? '');
      this.pending = undefined;
    }
  }
}
