import { ColumnBuilder, DictColumnBuilder, NumberColumnBuilder, type LoadedColumns } from '../../ml/loaded-columns.js';
import type { MissingValues } from '../../domain/missing-values.js';
import { RowTextScanner } from './row-text-scanner.js';

/**
 * Stored rows (JSON text) → loaded columns, without making an object per row: each row's text is
 * scanned once (`row-text-scanner.ts`), its values go straight into the column builders.
 */
export class ColumnarLoader {
  private readonly builders: ColumnBuilder[];
  private readonly scanner: RowTextScanner;

  /** `missingValues`: the data set's markers for a missing value, read as empty cells. */
  constructor(private readonly columns: readonly { name: string; numeric: boolean }[], capacity: number, missingValues?: MissingValues) {
    this.builders = columns.map((c) => (c.numeric ? new NumberColumnBuilder(capacity) : new DictColumnBuilder(capacity)));
    this.scanner = new RowTextScanner(columns.map((c) => c.name), this.builders, missingValues);
  }

  get rowCount(): number {
    return this.scanner.rowCount;
  }

  add(texts: readonly string[]): void {
    this.scanner.add(texts);
  }

  finish(): LoadedColumns {
    const out: LoadedColumns = {};
    const rows = this.scanner.rowCount;
    this.columns.forEach((c, i) => { out[c.name] = this.builders[i]!.finish(rows); });
    return out;
  }
}
