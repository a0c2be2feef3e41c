import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fixturePath, parseCsv } from '../support/fixtures.js';
import type { Db } from '../../src/store/db.js';
import { AccountsStore } from '../../src/store/accounts-store.js';
import { DatasetsStore } from '../../src/store/datasets-store.js';
import { ingest } from '../../src/service/datasets/ingest.js';
import { readRowTexts } from '../../src/service/datasets/row-reader.js';
import { CsvRecords, jsonRecords } from '../../src/service/datasets/record-sources.js';
import type { ColumnPatchMap } from '../../src/domain/columns.js';
import { scratchEmbeddedDb } from '../support/scratch-db.js';

/** Stored rows (in storage order) and sorted column metadata of one data set. */
async function stored(db: Db, accountId: string, name: string) {
  const store = new DatasetsStore(db);
  const d = (await store.find(accountId, name))!;
  const rows = [];
  for await (const batch of readRowTexts(db, d)) rows.push(...batch.map((t) => JSON.parse(t)));
  const columns = Object.fromEntries(Object.entries(d.columns).sort(([a], [b]) => a.localeCompare(b)));
  return { rows, columns, identity: [d.identityKind, d.identityColumn], rowCount: d.rowCount, dataBytes: d.dataBytes };
}

/** The CSV through the positional path, and as JSON records (empty cells left out) through the record path. */
async function bothPaths(file: string[] | Buffer, requestedColumns: ColumnPatchMap) {
  const db = await scratchEmbeddedDb();
  try {
    const account = await new AccountsStore(db).createAccount(crypto.randomUUID(), null);
    const bytes = Buffer.isBuffer(file) ? file : readFileSync(fixturePath(...file));
    const csv = new CsvRecords(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: Infinity });
    const positional = await ingest(db, { accountId: account.id, name: 'csv', records: csv, requestedColumns });
    const t = parseCsv(bytes.toString('utf8'));
    const records = t.rows.map((row) => Object.fromEntries(t.header.flatMap((h, i) => (row[i] === '' ? [] : [[h, row[i]]]))));
    const byRecord = await ingest(db, { accountId: account.id, name: 'json', records: jsonRecords(records), requestedColumns });
    assert.equal(positional.rowsReceived, byRecord.rowsReceived);
    return { csv: await stored(db, account.id, 'csv'), json: await stored(db, account.id, 'json'), rows: t.rows.length };
  } finally {
    await db.close();
  }
}

test('CSV rows are stored and profiled exactly as the same records are (auto mpg, missing values)', async () => {
  const r = await bothPaths(['regression', 'auto_mpg.csv'], {});
  assert.deepEqual(r.csv, r.json);
  assert.equal(r.csv.rowCount, r.rows);
  assert.equal(r.csv.columns.Horsepower!.dataType, 'numericMeasure');
});

test('a time series with a declared timestamp goes through staging the same way (a10)', async () => {
  const r = await bothPaths(['forecast', 'fpp2', 'a10.csv'], { date: { role: 'timestamp', dataType: 'date' } });
  assert.deepEqual(r.csv, r.json);
  assert.deepEqual(r.csv.identity, ['timestamp', 'date']);
  assert.equal(r.csv.rowCount, r.rows);
});

test('an inferred timestamp identity is assigned after the upload the same way (a10)', async () => {
  const r = await bothPaths(['forecast', 'fpp2', 'a10.csv'], {});
  assert.deepEqual(r.csv, r.json);
  assert.deepEqual(r.csv.identity, ['timestamp', 'date']);
});

test('values with backslashes, tabs, line breaks and \\N round-trip through the bulk load, as keys too', async () => {
  const db = await scratchEmbeddedDb();
  try {
    const account = await new AccountsStore(db).createAccount(crypto.randomUUID(), null);
    const body = 'id,text\r\n"a\\b","tab\there"\r\n"\\N","\\."\r\n"line\nbreak","cr\r\nlf ""q"""\r\n';
    for (const [name, requestedColumns] of [['plain', {}], ['keyed', { id: { role: 'key' } }]] as const) {
      await ingest(db, { accountId: account.id, name, records: new CsvRecords(Readable.from([Buffer.from(body)]), { maxBytes: Infinity }), requestedColumns: requestedColumns as ColumnPatchMap });
      const s = await stored(db, account.id, name);
      const expected = [{ id: 'a\\b', text: 'tab\there' }, { id: '\\N', text: '\\.' }, { id: 'line\nbreak', text: 'cr\r\nlf "q"' }];
      const byId = (a: Record<string, string>, b: Record<string, string>) => a.id!.localeCompare(b.id!);
      assert.deepEqual([...s.rows].sort(byId), [...expected].sort(byId), name);
      assert.equal(s.identity[0], name === 'keyed' ? 'key' : 'none');
    }
  } finally {
    await db.close();
  }
});

test('values that need escaping (backslash, tab, quotes, line breaks, non-ASCII) are stored and sized alike on both paths', async () => {
  const csv = 'name,note,n\r\nplain,"a ""quoted"" word",1\r\nback\\slash,tab\there,2\r\n"multi\nline",café ☕,3\r\nascii,again,4\r\n';
  const r = await bothPaths(Buffer.from(csv, 'utf8'), {});
  assert.deepEqual(r.csv, r.json);
  assert.deepEqual(r.csv.rows.map((x: Record<string, string>) => x.note), ['a "quoted" word', 'tab\there', 'café ☕', 'again']);
  assert.equal(r.csv.rows[1].name, 'back\\slash');
  assert.equal(r.csv.dataBytes, r.csv.rows.reduce((n: number, x: unknown) => n + Buffer.byteLength(JSON.stringify(x)), 0));
});
