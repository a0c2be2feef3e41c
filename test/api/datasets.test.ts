import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { readFixture } from '../support/fixtures.js';

/** The spec's worked example: one row per player, a 0/1 label, ratio features with empty cells. */
function cheaterCsv(n: number): string {
  const lines = ['PlayerID,total_accuracy,accuracy_ak47,accuracy_awp,win_ratio,kill_to_death_ratio,total_games_owned,cheater'];
  for (let i = 0; i < n; i++) {
    const awp = i % 3 === 0 ? '' : (0.1 + (i % 7) / 20).toFixed(4);
    lines.push(`${7656119800 + i},${(0.15 + (i % 10) / 50).toFixed(4)},${(0.2 + (i % 5) / 25).toFixed(4)},${awp},${(0.4 + (i % 9) / 30).toFixed(3)},${(0.8 + (i % 11) / 10).toFixed(2)},${10 + (i % 40)},${i % 2}`);
  }
  return lines.join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`data sets over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('creates from JSON with 201 + Location, then updates with 200', async () => {
      const body = {
        data: [{ time: '2017-04-01T00:00:00.0000000Z', 'es6-client': '59.1' }, { time: '2017-04-02T00:00:00.0000000Z', 'es6-client': 53.6 }],
        columns: { 'es6-client': { DataType: 'numeric', Role: 'target' }, time: { DataType: 'date', Role: 'timestamp' } },
      };
      const r = await s.call('PUT', '/v1/data/testJavascript', { json: body });
      assert.equal(r.status, 201);
      assert.equal(r.headers.get('location'), `${s.url}/v1/data/testJavascript`);
      assert.equal(r.json.dataSetName, 'testJavascript');
      assert.equal(r.json.isTimeSeries, true);
      assert.deepEqual(r.json.columns, {
        'es6-client': { dataType: 'numeric', role: 'target', imputation: 'zeroes', aggregation: 'sum' },
        time: { dataType: 'date', role: 'timestamp' },
      });
      const again = await s.call('PUT', '/v1/data/testJavascript', { json: body });
      assert.equal(again.status, 201, 'the original answered every successful PUT with 201');
      assert.equal(again.json.rowCount, 2, 'identical rows upsert, not duplicate');
      assert.match(again.headers.get('nexosis-account-balance') ?? '', /^\d+\.\d\d USD$/);
    });

    it('infers the metadata of the worked example (cheater detection CSV)', async () => {
      const r = await s.call('PUT', '/v1/data/cheaters', { body: cheaterCsv(300), headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201);
      const c = r.json.columns;
      assert.equal(r.json.rowCount, 300);
      assert.equal(r.json.isTimeSeries, false);
      assert.deepEqual(c.PlayerID, { dataType: 'numeric', role: 'feature', imputation: 'zeroes', aggregation: 'sum' });
      assert.equal(c.accuracy_awp.dataType, 'numericMeasure', 'ratios with empty cells are non-integer measures');
      assert.equal(c.accuracy_awp.imputation, 'mean');
      assert.equal(c.total_games_owned.dataType, 'numeric');
      assert.equal(c.cheater.dataType, 'numeric');
      assert.equal(c.cheater.imputation, 'mode', '0/1 labels are imputed by mode');
      const rows = await s.call('GET', '/v1/data/cheaters?page=0&pageSize=3');
      assert.equal(rows.json.data.length, 3);
      assert.equal(rows.json.data[0].accuracy_awp, '', 'empty cells come back empty');
      assert.equal(typeof rows.json.data[0].total_accuracy, 'string', 'values come back as strings');
      assert.equal(rows.json.totalCount, 300);
      assert.equal(rows.json.totalPages, 100);
    });

    it('upserts by timestamp: equal dates overwrite, new dates append, partial rows merge', async () => {
      const csv = 'day,sales\n2017-01-01,10\n2017-01-02,12\n2017-01-03,9\n';
      let r = await s.call('PUT', '/v1/data/sales?timestampColumn=day', { body: csv, headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201);
      assert.equal(r.json.columns.day.role, 'timestamp');
      assert.equal(r.json.columns.sales.role, 'target', 'the one numeric column of a time series is its target');
      // A different spelling of the same instant is the same row.
      r = await s.call('PUT', '/v1/data/sales', { json: [{ day: '01-02-2017', sales: 20 }, { day: '2017-01-04T00:00:00Z', sales: 7 }] });
      assert.equal(r.status, 201);
      assert.equal(r.json.rowCount, 4);
      // Future records carrying only a feature column keep the stored target of known dates.
      r = await s.call('PUT', '/v1/data/sales', { json: { data: [{ day: '2017-01-03', promo: 'true' }, { day: '2017-01-05', promo: 'true' }], columns: { promo: { dataType: 'logical', role: 'feature' } } } });
      assert.equal(r.json.rowCount, 5);
      assert.equal(r.json.columns.promo.dataType, 'logical');
      const data = (await s.call('GET', '/v1/data/sales')).json.data;
      assert.deepEqual(data.map((d: any) => [d.sales, d.promo]), [['10', ''], ['20', ''], ['9', 'true'], ['7', ''], ['', 'true']]);
      assert.deepEqual(Object.keys(r.json.columns), ['day', 'sales', 'promo'], 'columns keep the order of the data');
      assert.deepEqual(Object.keys(data[0]), ['day', 'sales', 'promo']);
    });

    it('upserts by key and appends without identity', async () => {
      let r = await s.call('PUT', '/v1/data/keyed', { json: { data: [{ id: 'a', v: 1 }, { id: 'b', v: 2 }], columns: { id: { role: 'key' } } } });
      assert.equal(r.json.columns.id.role, 'key');
      r = await s.call('PUT', '/v1/data/keyed', { json: [{ id: 'b', v: 3 }, { id: 'c', v: 4 }, { id: 'c', v: 5 }] });
      assert.equal(r.json.rowCount, 3);
      const data = (await s.call('GET', '/v1/data/keyed')).json.data;
      assert.deepEqual(data.map((d: any) => `${d.id}=${d.v}`).sort(), ['a=1', 'b=3', 'c=5']);
      await s.call('PUT', '/v1/data/plain', { json: [{ x: 1 }, { x: 2 }] });
      r = await s.call('PUT', '/v1/data/plain', { json: [{ x: 1 }] });
      assert.equal(r.json.rowCount, 3, 'no key or timestamp: rows are appended');
    });

    it('a metadata-only PUT changes metadata and nothing else; one without anything is 400 NoData', async () => {
      const r = await s.call('PUT', '/v1/data/plain', { json: { columns: { x: { dataType: 'numericMeasure', role: 'target' } } } });
      assert.equal(r.status, 201);
      assert.deepEqual(r.json.columns.x, { dataType: 'numericMeasure', role: 'target', imputation: 'mean', aggregation: 'mean' });
      assert.equal(r.json.rowCount, 3);
      const none = await s.call('PUT', '/v1/data/empty', { json: {} });
      assert.equal(none.status, 400);
      assert.equal(none.json.errorType, 'NoData');
      assert.equal((await s.call('GET', '/v1/data/empty')).status, 404);
    });

    it('an empty CSV, or one of a header line alone, is 400 NoData saying so, and makes no data set (it made one of no columns)', async () => {
      const empty = await s.call('PUT', '/v1/data/blank', { body: '', headers: { 'content-type': 'text/csv' } });
      assert.equal(empty.status, 400, empty.text);
      assert.deepEqual([empty.json.errorType, empty.json.errorDetails], ['NoData', { data: ['The CSV is empty: it has no header line and no rows.'] }]);
      const header = await s.call('PUT', '/v1/data/blank', { body: 'day,sales,region\r\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(header.status, 400, header.text);
      assert.equal(header.json.errorType, 'NoData');
      assert.match(header.json.errorDetails.data[0], /^The CSV holds a header line \(day, sales, region\) and no rows: send the rows with it\./);
      assert.equal((await s.call('GET', '/v1/data/blank')).status, 404);
      // Sent to a data set that exists, they change nothing.
      const before = (await s.call('GET', '/v1/data/sales')).json;
      assert.equal((await s.call('PUT', '/v1/data/sales', { body: 'day,sales\n', headers: { 'content-type': 'text/csv' } })).status, 400);
      const after = (await s.call('GET', '/v1/data/sales')).json;
      assert.deepEqual([after.rowCount, after.columns], [before.rowCount, before.columns]);
    });

    it('a bad upload changes nothing', async () => {
      const before = (await s.call('GET', '/v1/data/sales')).json;
      const csv = 'day,sales\n2017-01-06,1\nnot a date,2\n';
      const r = await s.call('PUT', '/v1/data/sales', { body: csv, headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 400);
      assert.equal(r.json.errorType, 'RequestValidation');
      assert.match(JSON.stringify(r.json.errorDetails), /not a date/);
      const after = (await s.call('GET', '/v1/data/sales')).json;
      assert.equal(after.totalCount, before.totalCount);
      assert.deepEqual(after.columns, before.columns);
      const ragged = await s.call('PUT', '/v1/data/ragged', { body: 'a,b\n1,2\n3\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(ragged.status, 400);
      assert.equal((await s.call('GET', '/v1/data/ragged')).status, 404, 'a failed first upload does not create the data set');
    });

    it('reads NA, N/A and null as missing when it infers types (R\'s write.csv): the column stays numeric, the cells as sent; in a string column NA is a value', async () => {
      const csv = 'ozone,solar,region\n41,190,EU\nNA,118,NA\n12,N/A,EU\n18,null,NA\n';
      const up = await s.call('PUT', '/v1/data/rstyle', { body: csv, headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.columns.ozone.dataType, 'numeric');
      assert.equal(up.json.columns.solar.dataType, 'numeric');
      assert.equal(up.json.columns.region.dataType, 'string');
      const rows = (await s.call('GET', '/v1/data/rstyle')).json.data;
      assert.deepEqual(rows.map((r: any) => r.ozone), ['41', 'NA', '12', '18'], 'cells are kept as sent');
      const stats = (await s.call('GET', '/v1/data/rstyle/stats')).json.columns;
      assert.deepEqual([stats.ozone.missingCount, stats.ozone.errorCount, stats.solar.missingCount, stats.solar.mean], [1, 0, 2, 154]);
      assert.deepEqual([stats.region.missingCount, stats.region.distinctCount], [0, 2]);
      assert.equal((await s.call('DELETE', '/v1/data/rstyle')).status, 204);
      assert.deepEqual(up.json.messages, []);
      // The dashboard-era missingValues markers are the data set's own (test/api/missing-codes.test.ts).
      const marked = await s.call('PUT', '/v1/data/marked', { json: { data: [{ a: '1' }, { a: '-99' }], missingValues: ['-99'] } });
      assert.equal(marked.status, 201, marked.text);
      assert.deepEqual(marked.json.messages.map((m: any) => m.severity), ['informational']);
      assert.match(marked.json.messages[0].message, /^Cells reading '-99' are missing values in every column/);
      assert.deepEqual((await s.call('GET', '/v1/data/marked/stats/a')).json.columns.a.missingCount, 1);
      assert.equal((await s.call('DELETE', '/v1/data/marked')).status, 204);
    });

    it('keeps a data set\'s column statistics until its rows, markers or the type asked change', async () => {
      const csv = (rows: string[]) => ({ body: 'x,g\n' + rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } });
      assert.equal((await s.call('PUT', '/v1/data/kept', csv(['1,a', '2,b', '3,a', '-1,b']))).status, 201);
      const first = (await s.call('GET', '/v1/data/kept/stats')).json;
      await new Promise((r) => setTimeout(r, 20));
      const again = (await s.call('GET', '/v1/data/kept/stats')).json;
      assert.deepEqual(again, first, 'the same rows: the statistics computed once, lastCalculated included');
      assert.deepEqual((await s.call('GET', '/v1/data/kept/stats/x')).json.columns.x, first.columns.x, 'one column from the same computation');
      const asText = (await s.call('GET', '/v1/data/kept/stats/x?dataType=string')).json.columns.x;
      assert.deepEqual([asText.mean, asText.min], [null, '-1'], 'another type asked: computed for it');
      assert.equal((await s.call('PUT', '/v1/data/kept', csv(['10,c']))).status, 201);
      const appended = (await s.call('GET', '/v1/data/kept/stats')).json.columns;
      assert.deepEqual([appended.x.totalCount, appended.x.max, appended.g.distinctCount], [5, 10, 3], 'rows appended: computed again');
      assert.ok(appended.x.lastCalculated > first.columns.x.lastCalculated);
      assert.equal((await s.call('PUT', '/v1/data/kept', { json: { missingValues: ['-1'] } })).status, 201);
      const marked = (await s.call('GET', '/v1/data/kept/stats/x')).json.columns.x;
      assert.deepEqual([marked.missingCount, marked.min], [1, 1], 'markers changed: computed again');
      assert.equal((await s.call('DELETE', '/v1/data/kept')).status, 204);
      assert.equal((await s.call('PUT', '/v1/data/kept', csv(['7,z']))).status, 201);
      assert.deepEqual((await s.call('GET', '/v1/data/kept/stats/x')).json.columns.x.totalCount, 1, 'deleted and uploaded again under the same name');
      assert.equal((await s.call('DELETE', '/v1/data/kept')).status, 204);
    });

    it('reads UCI\'s ? and a printed table\'s - as gaps, and spreadsheet thousands separators, currency symbols and percent signs as numbers: numeric columns, cells as sent; a decimal comma stays text', async () => {
      const csv = 'horsepower,weight,grade,ratio,price,rate\n130,"3,504",-,"1,5","$1,250.00",45%\n?,"1,234.5",A,"2,5",$99,2.5%\n165,-,B,"3,0",-$5.50,-\n';
      const up = await s.call('PUT', '/v1/data/uci', { body: csv, headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
      assert.deepEqual(['horsepower', 'weight', 'grade', 'ratio', 'price', 'rate'].map((c) => up.json.columns[c].dataType), ['numeric', 'numericMeasure', 'string', 'string', 'numericMeasure', 'numericMeasure']);
      const rows = (await s.call('GET', '/v1/data/uci')).json.data;
      assert.deepEqual(rows.map((r: any) => r.weight), ['3,504', '1,234.5', '-'], 'cells are kept as sent');
      const stats = (await s.call('GET', '/v1/data/uci/stats')).json.columns;
      assert.deepEqual([stats.horsepower.missingCount, stats.horsepower.mean, stats.weight.missingCount, stats.weight.errorCount, stats.weight.max], [1, 147.5, 1, 0, 3504]);
      assert.deepEqual([stats.grade.missingCount, stats.grade.distinctCount], [0, 3], "in a string column '-' is a level");
      assert.deepEqual([stats.price.min, stats.price.max, stats.price.errorCount], [-5.5, 1250, 0]);
      assert.deepEqual([stats.rate.min, stats.rate.max, stats.rate.missingCount], [2.5, 45, 1]);
      assert.equal((await s.call('DELETE', '/v1/data/uci')).status, 204);
    });

    it('dates written day first are kept as text, and the upload says so and how to send them; month-first, ISO and month-name dates are dates without a word', async () => {
      const uk = 'day,sales\n11/01/2017,3\n12/01/2017,4\n13/01/2017,5\n14/01/2017,6\n';
      const up = await s.call('PUT', '/v1/data/uk', { body: uk, headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
      assert.equal(up.json.columns.day.dataType, 'string');
      assert.deepEqual(up.json.messages.map((m: { severity: string; message: string }) => [m.severity, m.message.slice(0, 73)]), [['warning', "Column 'day' holds dates written day first (as 13/01/2017 for 13 January)"]]);
      assert.match(up.json.messages[0].message, /Send them as 2017-01-13 \(ISO 8601\)/);
      for (const [name, body] of [['us', 'day,sales\n01/11/2017,3\n01/13/2017,5\n'], ['iso', 'day,sales\n2017-01-13,5\n2017-01-14,6\n'], ['named', 'day,sales\n13-Jan-2017,5\n14-Jan-2017,6\n']]) {
        const ok = await s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });
        assert.deepEqual([ok.json.columns.day.dataType, ok.json.columns.day.role], ['date', 'timestamp'], name);
        assert.deepEqual(ok.json.messages, [], name);
      }
      for (const name of ['uk', 'us', 'iso', 'named']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
    });

    it('a quarterly series written day first with no day past 12 (fpp2 ausbeer as a UK spreadsheet writes it) is read month first, and the upload says every date falls in January; statistics order dates by time', async () => {
      const beer = readFixture('forecast/fpp2/ausbeer.csv');
      const rows = beer.rows.slice(0, 12).map(([date, value]) => {
        const [y, m, d] = date!.split('-');
        return `${d}/${m}/${y},${value}`;
      });
      const up = await s.call('PUT', '/v1/data/ukbeer', { body: `Quarter,Beer\n${rows.join('\n')}\n`, headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
      assert.deepEqual([up.json.columns.Quarter.dataType, up.json.columns.Quarter.role], ['date', 'timestamp']);
      assert.deepEqual(up.json.messages.map((m: { severity: string }) => m.severity), ['warning'], JSON.stringify(up.json.messages));
      assert.equal(up.json.messages[0].message, "Column 'Quarter' holds dates such as '01/04/1956' whose first number is always 1 while the second changes. Sibyl reads them month first, as the original service did, so every one falls on a day from 1 to 12 of January. If they were written day first (1 April for '01/04/1956'), send them as 1956-04-01 (ISO 8601): read as they are, sessions work on the wrong dates.");
      // The same series written month first, as the original service read it, gets no word.
      const us = beer.rows.slice(0, 12).map(([date, value]) => {
        const [y, m, d] = date!.split('-');
        return `${m}/${d}/${y},${value}`;
      });
      const ok = await s.call('PUT', '/v1/data/usbeer', { body: `Quarter,Beer\n${us.join('\n')}\n`, headers: { 'content-type': 'text/csv' } });
      assert.deepEqual(ok.json.messages, []);
      // Statistics order dates by time, not as text.
      const stats = (await s.call('GET', '/v1/data/usbeer/stats')).json.columns.Quarter;
      assert.deepEqual([stats.min, stats.median, stats.max, stats.errorCount], ['01/01/1956', '04/01/1957', '10/01/1958', 0]);
      for (const name of ['ukbeer', 'usbeer']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
    });

    it('a spreadsheet\'s empty columns at its edge (a header ending ",,") are left out, saying so; an unnamed column with values is named by its position', async () => {
      const up = await s.call('PUT', '/v1/data/phantom', { body: 'name,price,,\r\nA,1.5,,\r\nB,2.5,,\r\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(up.status, 201, up.text);
      assert.deepEqual(Object.keys(up.json.columns), ['name', 'price']);
      assert.deepEqual(up.json.messages, [{ severity: 'informational', message: "The CSV's columns 3 and 4 had no name and no value in any row (as empty columns at a spreadsheet's edge): left out." }]);
      assert.deepEqual((await s.call('GET', '/v1/data/phantom')).json.data, [{ name: 'A', price: '1.5' }, { name: 'B', price: '2.5' }]);
      const named = await s.call('PUT', '/v1/data/unnamed', { body: 'name,,price\nA,x,1\nB,y,2\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(named.status, 201, named.text);
      assert.deepEqual(Object.keys(named.json.columns), ['name', 'column2', 'price']);
      assert.deepEqual(named.json.messages, []);
      for (const name of ['phantom', 'unnamed']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
    });

    it('the unnamed index column R\'s write.csv and pandas\' to_csv write first gets role none, saying so; a time series\' value is still its target', async () => {
      const r = await s.call('PUT', '/v1/data/rexport', { body: '"","weight","height"\n"1",60,170\n"2",72,181\n"3",55,160\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual([r.json.columns.column1.dataType, r.json.columns.column1.role, r.json.columns.weight.role], ['numeric', 'none', 'feature']);
      assert.deepEqual(r.json.messages, [{ severity: 'informational', message: "The CSV's column 1 has no name and numbers the rows (3 whole numbers rising from row to row, as R's write.csv and pandas' to_csv write row names and the index): it is kept as 'column1' with role none, so models leave it out. Give it role feature in the columns metadata if its numbers mean more." }]);
      const series = await s.call('PUT', '/v1/data/pexport', { body: ',day,sales\n0,2017-01-01,5\n1,2017-01-02,7\n2,2017-01-03,6\n', headers: { 'content-type': 'text/csv' } });
      assert.deepEqual(Object.fromEntries(Object.entries(series.json.columns).map(([n, c]: [string, any]) => [n, c.role])), { column1: 'none', day: 'timestamp', sales: 'target' });
      // Not: numbers that do not rise, a file without a header (every column positional), JSON.
      const cases: [string, string, string | Record<string, unknown>][] = [
        ['unsorted', 'text/csv', ',weight\n2,60\n1,72\n3,55\n'],
        ['headerless', 'text/csv', '1,60\n2,72\n3,55\n'],
        ['json', 'application/json', { data: [{ column1: 1, weight: 60 }, { column1: 2, weight: 72 }] }],
      ];
      for (const [name, type, body] of cases) {
        const up = await s.call('PUT', `/v1/data/${name}`, typeof body === 'string' ? { body, headers: { 'content-type': type } } : { json: body });
        assert.equal(up.json.columns.column1.role, 'feature', name);
        assert.deepEqual(up.json.messages, [], name);
      }
      const overridden = await s.call('PUT', '/v1/data/rexport', { json: { columns: { column1: { role: 'feature' } } } });
      assert.equal(overridden.json.columns.column1.role, 'feature', 'the metadata may give it a role');
      const appended = await s.call('PUT', '/v1/data/unsorted', { body: ',weight\n4,61\n5,62\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(appended.json.columns.column1.role, 'feature', 'a stored column keeps its role');
      for (const name of ['rexport', 'pexport', 'unsorted', 'headerless', 'json']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
    });

    it('a file with semicolons between its values and decimal commas (Excel\'s CSV in most of Europe), with tabs, or in Windows-1252, is read so, saying how', async () => {
      const euro = await s.call('PUT', '/v1/data/euro', { body: '\ufeffname;price;share;"Umsatz (Tsd., EUR)";Datum;Menge\r\nA;1,5;12,5 %;1.234,56;13.01.2017;1.234\r\nB;-2,25;7 %;980;14.01.2017;980\r\n"C;D";3;0,5%;1.5;15.01.2017;2.500\r\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(euro.status, 201, euro.text);
      assert.deepEqual(euro.json.messages.slice(0, 1), [{ severity: 'informational', message: 'The CSV separates its values with semicolons, as Excel writes CSV where the comma is the decimal separator: it was read so, with numbers written with a decimal comma (1,5 · 1.234,5 · 12,5 % · 1.234,00 €) stored as 1.5, 1234.5, 12.5% and €1234.00, and dates written day first (13.01.2017 · 13/01/2017) stored as 2017-01-13.' }]);
      assert.deepEqual(Object.fromEntries(Object.entries(euro.json.columns).map(([n, c]: [string, any]) => [n, c.dataType])),
        { name: 'string', price: 'numericMeasure', share: 'numericMeasure', 'Umsatz (Tsd., EUR)': 'numericMeasure', Datum: 'date', Menge: 'numericMeasure' });
      assert.equal(euro.json.columns.Datum.role, 'timestamp');
      assert.deepEqual(euro.json.messages.slice(1), [{ severity: 'warning', message: "Column 'Menge' holds 2 values such as '1.234', with a point before three digits and no decimal comma: read as written, 1.234 (the point as a decimal point). In a file with decimal commas such a point usually groups thousands (1.234 = 1234): if it does, format the column in Excel without the 1000 separator and upload the file again." }], "'1.5' in the Umsatz column shows its points are decimal points");
      assert.deepEqual((await s.call('GET', '/v1/data/euro')).json.data.map((r: any) => [r.name, r.price, r.share, r['Umsatz (Tsd., EUR)'], r.Datum]),
        [['A', '1.5', '12.5%', '1234.56', '2017-01-13'], ['B', '-2.25', '7%', '980', '2017-01-14'], ['C;D', '3', '0.5%', '1.5', '2017-01-15']], 'points without a comma are left as written');
      const tabbed = await s.call('PUT', '/v1/data/tabbed', { body: 'name\tprice\tqty\nA\t1.5\t3\nB\t2,5\t4\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(tabbed.status, 201, tabbed.text);
      assert.deepEqual(tabbed.json.messages, [{ severity: 'informational', message: 'The CSV separates its values with tabs: it was read so.' }]);
      assert.deepEqual((await s.call('GET', '/v1/data/tabbed')).json.data, [{ name: 'A', price: '1.5', qty: '3' }, { name: 'B', price: '2,5', qty: '4' }], 'tabs bring no decimal comma');
      const ragged = await s.call('PUT', '/v1/data/ragged', { body: 'a;b\n1;2;3\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(ragged.status, 400);
      assert.match(ragged.json.errorDetails.data[0], /line 2: 3 values where the first line has 2/);
      for (const name of ['euro', 'tabbed']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
      // Bytes that are not UTF-8 (Excel's Windows-1252 "café") are read as Windows-1252, not stored as U+FFFD, and said so.
      const latin1 = await s.call('PUT', '/v1/data/latin1', { body: Buffer.from('name,price\ncaf\xe9 \x80,1.5\n', 'latin1'), headers: { 'content-type': 'text/csv' } });
      assert.equal(latin1.status, 201, latin1.text);
      assert.match(latin1.json.messages[0].message, /^The CSV is not UTF-8 text: it was read as Windows-1252, the encoding Excel's "CSV \(Comma delimited\)" writes on Windows/);
      assert.deepEqual((await s.call('GET', '/v1/data/latin1')).json.data, [{ name: 'café €', price: '1.5' }]);
      assert.equal((await s.call('DELETE', '/v1/data/latin1')).status, 204);
      const utf8 = await s.call('PUT', '/v1/data/utf8', { body: '\ufeffname,price\ncafé,1.5\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(utf8.status, 201, utf8.text);
      assert.deepEqual((await s.call('GET', '/v1/data/utf8')).json.data, [{ name: 'café', price: '1.5' }]);
      assert.equal((await s.call('DELETE', '/v1/data/utf8')).status, 204);
      // A single column, and commas with a semicolon inside a value, are read as before.
      assert.equal((await s.call('PUT', '/v1/data/single', { body: 'count\n1\n2\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      const quoted = await s.call('PUT', '/v1/data/quoted', { body: 'note,n\n"a;b",1\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(quoted.status, 201, quoted.text);
      for (const name of ['single', 'quoted']) assert.equal((await s.call('DELETE', `/v1/data/${name}`)).status, 204);
    });

    it('lists with partialName, paging fields and links as the original service wrote them', async () => {
      const sal = await s.call('GET', '/v1/data?partialName=SAL');
      assert.deepEqual(sal.json.items.map((i: any) => i.dataSetName), ['sales'], 'partialName matches case-insensitively');
      const r = await s.call('GET', '/v1/data?partialName=S&page=0&pageSize=1');
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.items.map((i: any) => i.dataSetName), ['cheaters']);
      assert.equal(r.json.totalCount, 3, 'cheaters, sales and testJavascript contain an s');
      assert.equal(r.json.pageSize, 1);
      assert.equal(r.json.totalPages, 3);
      const rels = r.json.links.map((l: any) => l.rel);
      assert.deepEqual(rels, ['self', 'first', 'next', 'last']);
      assert.equal(r.json.links[2].href, `${s.url}/v1/data?partialName=S&page=0&pageSize=1&page=1`);
      const past = await s.call('GET', '/v1/data?page=5&pageSize=10');
      assert.equal(past.json.pageNumber, 5);
      assert.deepEqual(past.json.items, []);
      const big = await s.call('GET', '/v1/data?pageSize=5000');
      assert.equal(big.status, 400);
      assert.ok(big.json.errorDetails.pageSize);
    });

    it('reads rows by date range, with include, as CSV, and with a sessions link', async () => {
      const r = await s.call('GET', '/v1/data/sales?startDate=2017-01-02&endDate=01-04-2017&include=sales');
      assert.deepEqual(r.json.data, [{ sales: '20' }, { sales: '9' }, { sales: '7' }]);
      assert.deepEqual(r.json.links.map((l: any) => l.rel), ['self', 'sessions', 'first', 'last']);
      const csv = await s.call('GET', '/v1/data/sales?include=day&include=sales', { headers: { accept: 'text/csv' } });
      assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
      assert.equal(csv.text.split('\r\n')[0], 'day,sales');
      assert.equal(csv.text.split('\r\n')[1], '2017-01-01,10');
      const bad = await s.call('GET', '/v1/data/sales?startDate=yesterday-ish');
      assert.equal(bad.status, 400);
      assert.deepEqual(Object.keys(bad.json.errorDetails), ['startDate']);
    });

    it('deletes rows in a date range, rows by key, and whole data sets (204), with an empty JSON body tolerated', async () => {
      let r = await s.call('DELETE', '/v1/data/sales?startDate=2017-01-04', { headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 204);
      assert.equal((await s.call('GET', '/v1/data/sales')).json.totalCount, 3);
      r = await s.call('DELETE', '/v1/data/keyed?keys=a,b');
      assert.equal(r.status, 204);
      assert.deepEqual((await s.call('GET', '/v1/data/keyed')).json.data.map((d: any) => d.id), ['c']);
      r = await s.call('DELETE', '/v1/data/keyed');
      assert.equal(r.status, 204);
      const gone = await s.call('GET', '/v1/data/keyed');
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.json, {
        statusCode: 404, message: 'Item of type dataSet with identifier keyed was not found', errorType: 'NotFound',
        errorDetails: { itemType: 'dataSet', itemId: 'keyed' },
      });
    });

    it('isolates accounts: another account\'s data set is a 404', async () => {
      const other = await s.server.services.accounts.createAccount('other@example.com');
      const { key } = await s.server.services.accounts.createKey(other.id);
      const r = await s.call('GET', '/v1/data/sales', { headers: { 'api-key': key } });
      assert.equal(r.status, 404);
      assert.equal(r.json.errorType, 'NotFound');
      const list = await s.call('GET', '/v1/data', { headers: { 'api-key': key } });
      assert.deepEqual(list.json.items, []);
      const own = await s.call('PUT', '/v1/data/sales', { json: [{ a: 1 }], headers: { 'api-key': key } });
      assert.equal(own.status, 201, 'the same name in another account is another data set');
      assert.equal((await s.call('DELETE', '/v1/data/cheaters', { headers: { 'api-key': key } })).status, 404);
      assert.equal((await s.call('GET', '/v1/data/cheaters')).status, 200);
    });

    it('accepts names with spaces and dots, and routes case-insensitively', async () => {
      let r = await s.call('PUT', '/v1/data/My%20Data.v1', { json: [{ a: 1 }] });
      assert.equal(r.status, 201);
      assert.equal(r.json.dataSetName, 'My Data.v1');
      r = await s.call('GET', '/v1/DATA/My%20Data.v1');
      assert.equal(r.status, 200);
      assert.equal(r.json.dataSetName, 'My Data.v1');
    });
  });
}
