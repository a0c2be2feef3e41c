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

test('timestamps before 1970 and keys are stored as the text path stores them (binary COPY: negative bigints, UTF-8 keys)', async () => {
  const db = await scratchEmbeddedDb();
  try {
    const account = await new AccountsStore(db).createAccount(crypto.randomUUID(), null);
    const csv = 'date,k,y\r\n1955-03-01,ключ-1,1\r\n1969-12-31T23:59:59.999Z,b,2\r\n1970-01-01,c,3\r\n2100-01-01,d,4\r\n';
    const rows = parseCsv(csv).rows;
    const records = rows.map(([date, k, y]) => ({ date, k, y }));
    const kinds = [['timestamp', { date: { role: 'timestamp', dataType: 'date' } }], ['key', { k: { role: 'key' } }]] as const;
    for (const [kind, requestedColumns] of kinds) {
      const identities: unknown[][] = [];
      for (const [path, source] of [['csv', new CsvRecords(Readable.from([Buffer.from(csv)]), { maxBytes: Infinity })], ['json', jsonRecords(records)]] as const) {
        const name = `${kind}-${path}`;
        await ingest(db, { accountId: account.id, name, records: source, requestedColumns: requestedColumns as ColumnPatchMap });
        const d = (await new DatasetsStore(db).find(account.id, name))!;
        identities.push(await db.query<{ ident: string; ts: number | null }>(
          `SELECT r.ident, r.ts FROM dataset_rows r JOIN dataset_segments s ON s.id = r.segment_id WHERE s.dataset_id = $1 AND s.state = 'live' ORDER BY r.ident`, [d.id]));
      }
      assert.deepEqual(identities[0], identities[1], kind);
      if (kind === 'timestamp') {
        assert.deepEqual(identities[0]!.map((r) => (r as { ts: number }).ts).sort((a, b) => a - b),
          [Date.UTC(1955, 2, 1), Date.UTC(1969, 11, 31, 23, 59, 59, 999), 0, Date.UTC(2100, 0, 1)]);
      } else {
        assert.deepEqual(identities[0]!.map((r) => (r as { ident: string }).ident).sort(), ['b', 'c', 'd', 'ключ-1']);
      }
    }
  } finally {
    await db.close();
  }
});
