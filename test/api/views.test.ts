/**
 * Views through the HTTP API: a daily series joined with another series, with the US holiday
 * calendar (date-holidays) and with an iCalendar file by URL; listing with the filters the Python
 * and JavaScript clients send; a view as a forecast session's data source; and bad definitions.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { backends } from '../support/backends.js';

const DAYS = 90;
const day = (i: number) => new Date(Date.UTC(2017, 5, 1) + i * 86_400_000).toISOString().slice(0, 10);
// Sales jump on the holidays (4 July is day 33), so a model that sees the calendar can explain them.
const sales = Array.from({ length: DAYS }, (_, i) => ({ date: day(i), sales: String(100 + (i % 7) * 3 + (day(i) === '2017-07-04' ? 60 : 0)) }));
const weather = Array.from({ length: DAYS }, (_, i) => ({ date: day(i), temperature: String(20 + (i % 5)) }));

/** Joins nested `levels` deep (each a join of the same data set). */
const nested = (levels: number): unknown[] => (levels === 0 ? [] : [{ dataSet: { name: 'weather' }, joins: nested(levels - 1) }]);

const ICS = [
  'BEGIN:VCALENDAR', 'VERSION:2.0',
  'BEGIN:VEVENT', 'DTSTART;VALUE=DATE:20170615', 'SUMMARY:Store\\, anniversary', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART:20170701T030000Z', 'SUMMARY:Late sale', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

for (const backend of await backends()) {
  describe(`views (${backend})`, () => {
    let s: TestServer;
    let strict: TestServer;
    let ics: { server: Server; url: string };
    before(async () => {
      const server = createServer((req, res) => { if (req.url === '/cal.ics') { res.setHeader('content-type', 'text/calendar'); res.end(ICS); } else { res.statusCode = 404; res.end(); } });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      ics = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/cal.ics` };
      s = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
      strict = await startTestServer(backend);
      for (const [name, data, cols] of [['sales', sales, { date: { role: 'timestamp', dataType: 'date' }, sales: { role: 'target', dataType: 'numeric' } }], ['weather', weather, { date: { role: 'timestamp', dataType: 'date' }, temperature: { role: 'target', dataType: 'numeric' } }]] as const) {
        const r = await s.call('PUT', `/v1/data/${name}`, { json: { data, columns: cols } });
        assert.equal(r.status, 201, r.text);
      }
      const r = await strict.call('PUT', '/v1/data/sales', { json: { data: sales, columns: { date: { role: 'timestamp', dataType: 'date' } } } });
      assert.equal(r.status, 201, r.text);
    });
    after(async () => { await s.close(); await strict.close(); ics.server.close(); });

    it('joins two series on their timestamps: 201 + Location, also on replace; the joined target becomes a feature', async () => {
      const body = { dataSetName: 'sales', joins: [{ dataSet: { name: 'weather' } }] };
      const r = await s.call('PUT', '/v1/views/salesWeather', { json: body });
      assert.equal(r.status, 201, r.text);
      assert.match(r.headers.get('location') ?? '', /\/v1\/views\/salesWeather$/);
      assert.equal(r.json.viewName, 'salesWeather');
      assert.equal(r.json.dataSetName, 'sales');
      assert.equal(r.json.isTimeSeries, true);
      assert.deepEqual(r.json.joins, [{ dataSet: { name: 'weather' }, columnOptions: {} }]);
      assert.equal(r.json.columns.temperature.role, 'feature');
      assert.equal(r.json.columns.temperature.dataType, 'numeric');
      assert.equal(r.json.columns.sales.role, 'target');
      const again = await s.call('PUT', '/v1/views/salesWeather', { json: body });
      assert.equal(again.status, 201);

      const data = await s.call('GET', '/v1/views/salesWeather?page=1&pageSize=10');
      assert.equal(data.status, 200);
      assert.equal(data.json.totalCount, DAYS);
      assert.equal(data.json.data.length, 10);
      const row = data.json.data[0];
      assert.equal(row.date.slice(0, 10), day(10));
      assert.equal(row.sales, sales[10]!.sales);
      assert.equal(row.temperature, weather[10]!.temperature);
      const ranged = await s.call('GET', '/v1/views/salesWeather?startDate=2017-06-05&endDate=2017-06-06&include=temperature');
      assert.deepEqual(ranged.json.data.map((x: Record<string, string>) => [x.date.slice(0, 10), x.temperature, x.sales]), [['2017-06-05', weather[4]!.temperature, undefined], ['2017-06-06', weather[5]!.temperature, undefined]]);
    });

    it('an alias keeps a joined column whose name is taken; a join interval matches periods', async () => {
      const r = await s.call('PUT', '/v1/views/selfJoin', {
        json: { viewName: 'selfJoin', dataSetName: 'sales', columns: {}, joins: [{ dataSet: { name: 'sales' }, columnOptions: { sales: { alias: 'salesAgain' }, date: { joinInterval: 'day' } } }] },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(Object.keys(r.json.columns).sort(), ['date', 'sales', 'salesAgain']);
      const data = await s.call('GET', '/v1/views/selfJoin?pageSize=3');
      for (const x of data.json.data) assert.equal(x.salesAgain, x.sales);
    });

    it('joins the US holiday calendar by name: the holiday rows carry the event and a 0/1 feature', async () => {
      const r = await s.call('PUT', '/v1/views/salesHolidays', { json: { dataSetName: 'sales', joins: [{ calendar: { name: 'Nexosis.Holidays-US' } }] } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.joins, [{ calendar: { name: 'Nexosis.Holidays-US' }, columnOptions: {} }]);
      for (const c of ['eventTimestamp', 'eventName', 'calendarName', 'calendar:Nexosis.Holidays-US']) assert.ok(c in r.json.columns, c);
      const data = await s.call('GET', '/v1/views/salesHolidays?pageSize=1000');
      const july4 = data.json.data.find((x: Record<string, string>) => x.date.startsWith('2017-07-04'));
      assert.equal(july4['calendar:Nexosis.Holidays-US'], '1');
      assert.equal(july4.eventName, 'Independence Day');
      assert.equal(july4.calendarName, 'Nexosis.Holidays-US');
      const marked = data.json.data.filter((x: Record<string, string>) => x['calendar:Nexosis.Holidays-US'] === '1').map((x: Record<string, string>) => x.date.slice(0, 10));
      // Independence Day in the data; after it (the data end on 29 August) the calendar goes on for a year, target empty.
      assert.deepEqual(marked.slice(0, 3), ['2017-07-04', '2017-09-04', '2017-10-09']);
      const labourDay = data.json.data.find((x: Record<string, string>) => x.date.startsWith('2017-09-04'));
      assert.equal(labourDay.sales, '');
      assert.equal(data.json.totalCount, DAYS + 366);
    });

    it('joins an iCalendar file by URL (events moved into the given time zone), through the outbound guard', async () => {
      const r = await s.call('PUT', '/v1/views/salesIcs', { json: { dataSetName: 'sales', joins: [{ calendar: { url: ics.url, timeZone: 'America/New_York' } }] } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.joins[0].calendar.url, ics.url);
      const data = await s.call('GET', '/v1/views/salesIcs?pageSize=1000');
      const events = data.json.data.filter((x: Record<string, string>) => x.eventName).map((x: Record<string, string>) => [x.date.slice(0, 10), x.eventName]);
      assert.deepEqual(events, [['2017-06-15', 'Store, anniversary'], ['2017-06-30', 'Late sale']]);
      const refused = await strict.call('PUT', '/v1/views/salesIcs', { json: { dataSetName: 'sales', joins: [{ calendar: { url: ics.url } }] } });
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.json.message + JSON.stringify(refused.json.errorDetails), /loopback|SIBYL_ALLOW_PRIVATE_HOSTS/);
    });

    it('lists with the filters clients send (empty = no filter), paged', async () => {
      const all = await s.call('GET', '/v1/views?partialName=&dataSetName=&page=0&pageSize=50');
      assert.equal(all.status, 200);
      assert.ok(all.json.totalCount >= 4);
      assert.ok(all.json.items.every((v: { links: unknown[] }) => Array.isArray(v.links)));
      const byName = await s.call('GET', '/v1/views?partialName=HOLIDAYS');
      assert.deepEqual(byName.json.items.map((v: { viewName: string }) => v.viewName), ['salesHolidays']);
      const byData = await s.call('GET', '/v1/views?dataSetName=weather');
      assert.deepEqual(byData.json.items.map((v: { viewName: string }) => v.viewName), ['salesWeather']);
      const paged = await s.call('GET', '/v1/views?page=1&pageSize=2');
      assert.equal(paged.json.pageNumber, 1);
      assert.equal(paged.json.pageSize, 2);
      assert.equal(paged.json.items.length, 2);
    });

    it('is a forecast session data source: the calendar feature is used, the session names the view', async () => {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'salesHolidays', targetColumn: 'sales', startDate: '2017-08-30', endDate: '2017-09-05', resultInterval: 'day' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.dataSourceName, 'salesHolidays');
      const done = await completedSession(s, r.json.sessionId);
      assert.equal(done.dataSourceName, 'salesHolidays');
      assert.match(done.links.find((l: { rel: string }) => l.rel === 'data').href, /\/v1\/views\/salesHolidays$/);
      const results = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.equal(results.json.data.length, 7);
      const listed = await s.call('GET', '/v1/sessions?dataSourceName=salesHolidays');
      assert.deepEqual(listed.json.items.map((x: { sessionId: string }) => x.sessionId), [r.json.sessionId]);
    });

    it('is a model session data source without the calendar-only future rows', async () => {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'salesHolidays', targetColumn: 'sales', predictionDomain: 'regression' } });
      assert.equal(r.status, 200, r.text);
      const done = await completedSession(s, r.json.sessionId);
      assert.equal(done.dataSourceName, 'salesHolidays');
      const loaded = done.messages.map((m: { message: string }) => m.message).find((m: string) => m.startsWith('Loaded '));
      assert.match(loaded, new RegExp(`^Loaded ${DAYS} rows × 6 columns`), loaded);
    });

    it("a session on a view reads the markers for a missing value of the data sets it joins", async () => {
      const coded = weather.map((w, i) => ({ ...w, temperature: i % 30 === 7 ? '-9999' : w.temperature }));
      assert.equal((await s.call('PUT', '/v1/data/coded-weather', { json: { data: coded, columns: { date: { role: 'timestamp', dataType: 'date' } }, missingValues: ['-9999'] } })).status, 201);
      assert.equal((await s.call('PUT', '/v1/views/salesCodedWeather', { json: { dataSetName: 'sales', joins: [{ dataSet: { name: 'coded-weather' } }] } })).status, 201);
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'salesCodedWeather', targetColumn: 'sales', predictionDomain: 'regression' } });
      assert.equal(r.status, 200, r.text);
      const done = await completedSession(s, r.json.sessionId);
      assert.deepEqual(done.messages.filter((m: { message: string }) => /holds -9999/.test(m.message)), [], 'the joined data set\'s -9999 is missing, not a number');
      const view = await s.call('GET', '/v1/views/salesCodedWeather?page=0&pageSize=10');
      assert.equal(view.json.data[7].temperature, '-9999', 'the rows keep it as sent');
    });

    it('refuses bad definitions with 4xx and changes nothing', async () => {
      const cases: [unknown, number, RegExp][] = [
        [{ dataSetName: 'nope' }, 404, /dataSet/],
        [{ dataSetName: 'sales', joins: [{ calendar: { name: 'Holidays of Atlantis' } }] }, 400, /Unknown calendar/],
        [{ dataSetName: 'sales', joins: [{ calendar: { name: 'Nexosis.Holidays-ZZ' } }] }, 400, /no holiday calendar/],
        [{ dataSetName: 'sales', joins: [{ calendar: { url: ics.url, timeZone: 'Mars/Olympus' } }] }, 400, /time zone/],
        [{ dataSetName: 'sales', joins: [{ dataSet: { name: 'weather' }, calendar: { name: 'Nexosis.Holidays-US' } }] }, 400, /exactly one/],
        [{ dataSetName: 'sales', joins: [{ dataSet: { name: 'weather' }, columnOptions: { date: { joinInterval: 'fortnight' } } }] }, 400, /joinInterval/],
        [{ joins: [] }, 400, /dataSetName/],
        [{ dataSetName: 'sales', joins: nested(12) }, 400, /levels deep/],
      ];
      for (const [body, status, message] of cases) {
        const r = await s.call('PUT', '/v1/views/bad', { json: body });
        assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
        assert.match(JSON.stringify(r.json), message);
      }
      const named = await s.call('PUT', '/v1/views/weather', { json: { dataSetName: 'sales' } });
      assert.equal(named.status, 400);
      assert.equal((await s.call('GET', '/v1/views/bad')).status, 404);
    });

    it('deletes: 204, then 404; a data set delete with cascade=view takes the views that read it', async () => {
      assert.equal((await s.call('DELETE', '/v1/views/selfJoin')).status, 204);
      const gone = await s.call('GET', '/v1/views/selfJoin');
      assert.equal(gone.status, 404);
      assert.equal(gone.json.errorDetails.itemType, 'view');
      assert.equal((await s.call('DELETE', '/v1/views/selfJoin')).status, 404);
      assert.equal((await s.call('DELETE', '/v1/data/weather?cascade=view')).status, 204);
      assert.equal((await s.call('GET', '/v1/views/salesWeather')).status, 404);
      assert.equal((await s.call('GET', '/v1/views/salesHolidays')).status, 200);
    });
  });
}
