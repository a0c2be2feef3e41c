import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { column, readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { eventually, startTestServer, type TestServer } from '../support/server.js';

/** Daily page views of a blog (fpp2 hyndsight, 2014-04-30..2015-04-29), with one day made a 5× spike. */
const SPIKE_DATE = '2014-11-12';
function hyndsight(): { date: string; value: string }[] {
  const t = readFixture('forecast', 'fpp2', 'hyndsight.csv');
  const values = column(t, 'value');
  return column(t, 'date').map((date, i) => ({ date, value: date === SPIKE_DATE ? String(Number(values[i]) * 5) : values[i]! }));
}

async function completed(s: TestServer, id: string): Promise<any> {
  return eventually(async () => {
    const r = await s.call('GET', `/v1/sessions/${id}`);
    if (r.json.status === 'failed') throw new Error(`session failed: ${JSON.stringify(r.json.messages)}`);
    return r.json.status === 'completed' ? r.json : undefined;
  }, 120_000, 200);
}

for (const backend of await backends()) {
  describe(`forecast sessions over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const put = await s.call('PUT', '/v1/data/hyndsight', { json: { data: hyndsight(), columns: { date: { dataType: 'date', role: 'timestamp' }, value: { dataType: 'numeric', role: 'target' } } } });
      assert.equal(put.status, 201);
      // A second series with a numeric feature that has no values after the data ends, and a text column.
      const rows = hyndsight().slice(0, 60).map((r, i) => ({ ...r, temp: String(10 + (i % 7)), note: `n${i}` }));
      assert.equal((await s.call('PUT', '/v1/data/withfeature', { json: { data: rows, columns: { temp: { dataType: 'numeric', role: 'feature' } } } })).status, 201);
    });
    after(async () => { await s.close(); });

    it('creates a session from the JS client body: compat dates echoed with offset, interval capitalised, levels listed', async () => {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { startDate: '04-29-2015', endDate: '05-12-2015', resultInterval: 'day', dataSourceName: 'hyndsight', targetColumn: 'value' } });
      assert.equal(r.status, 200);
      assert.equal(r.json.type, 'forecast');
      assert.equal(r.json.status, 'requested');
      assert.equal(r.json.predictionDomain, 'forecast');
      assert.equal(r.json.startDate, '2015-04-29T00:00:00+00:00');
      assert.equal(r.json.endDate, '2015-05-12T00:00:00+00:00');
      assert.equal(r.json.resultInterval, 'day');
      assert.equal(r.json.dataSourceName, 'hyndsight');
      assert.equal(r.json.targetColumn, 'value');
      assert.deepEqual(r.json.availablePredictionIntervals, ['0.05', '0.1', '0.2', '0.5', '0.8', '0.9', '0.95']);
      assert.deepEqual(r.json.columns.date, { dataType: 'date', role: 'timestamp' });
      assert.equal(r.json.columns.value.role, 'target');
      assert.equal(r.headers.get('service-webhook-token'), null);
      assert.equal(r.headers.get('nexosis-session-status'), 'Requested');
    });

    it('reads parameters from the query string (Ruby sends a JSON "" body), .NET enum integers and PascalCase names', async () => {
      const q = await s.call('POST', '/v1/sessions/forecast?dataSetName=hyndsight&startDate=2015-04-20&endDate=2015-04-26&resultInterval=WEEK&targetColumn=value', { body: '""', headers: { 'content-type': 'application/json' } });
      assert.equal(q.status, 200, q.text);
      assert.equal(q.json.resultInterval, 'week');
      const net = await s.call('POST', '/v1/sessions/forecast', { json: { DataSourceName: 'hyndsight', StartDate: '2015-04-29T00:00:00.0000000+00:00', EndDate: '2015-05-01T00:00:00.0000000+00:00', ResultInterval: 1, Columns: { value: { Role: 'Target', DataType: 1 } } } });
      assert.equal(net.status, 200, net.text);
      assert.equal(net.json.resultInterval, 'day');
      assert.equal(net.json.targetColumn, 'value', 'the target can come from the columns metadata');
    });

    it('answers the webhook token header when a callbackUrl is given', async () => {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hyndsight', targetColumn: 'value', startDate: '2015-04-29', endDate: '2015-05-01', callbackUrl: 'https://example.com/hook' } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('service-webhook-token') ?? '', /^[\w-]{20,}$/);
      assert.equal(r.json.callbackUrl, 'https://example.com/hook');
    });

    it('rejects what the spec rules out', async () => {
      const post = (json: Record<string, unknown>) => s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hyndsight', targetColumn: 'value', startDate: '2015-04-29', endDate: '2015-05-12', ...json } });
      // A start after the data is no longer refused (issue 11): it runs across the gap, with a warning.
      let r = await post({ startDate: '2015-05-02' });
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.messages.some((m: { severity: string; message: string }) => m.severity === 'warning' && /after the period following the last observation/.test(m.message)), JSON.stringify(r.json.messages));
      r = await post({ startDate: '2015-05-12', endDate: '2015-05-01' });
      assert.equal(r.json.errorType, 'InvalidDateRange');
      r = await post({ startDate: 'not a date' });
      assert.equal(r.status, 400);
      assert.equal(r.json.errorType, 'RequestValidation');
      assert.ok(r.json.errorDetails.startDate, 'the parameter is named in errorDetails');
      r = await post({ endDate: '2015-13-45' });
      assert.ok(r.json.errorDetails.endDate);
      r = await post({ resultInterval: 'day', endDate: '2050-01-01' });
      assert.equal(r.status, 400, 'a horizon of tens of thousands of periods');
      assert.ok(r.json.errorDetails.endDate);
      r = await post({ resultInterval: 'fortnight' });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.resultInterval);
      r = await post({ columns: { visitors: { role: 'feature' } } });
      assert.equal(r.status, 400, 'a column that is not in the data set');
      assert.ok(r.json.errorDetails.visitors);
      r = await post({ columns: { value: { dataType: 'string' } } });
      assert.equal(r.status, 400, 'a target that is not numeric');
      assert.ok(r.json.errorDetails.value);
      r = await post({ targetColumn: 'nope' });
      assert.equal(r.status, 400);
      assert.deepEqual(r.json.errorDetails.targetColumn, ["column 'nope' is not in data set 'hyndsight'."]);
      r = await post({ targetColumn: 'vlaue', columns: { dates: { role: 'none' } } });
      assert.deepEqual(r.json.errorDetails.targetColumn, ["column 'vlaue' is not in data set 'hyndsight'. Did you mean 'value'?"]);
      r = await post({ columns: { dates: { role: 'none' } } });
      assert.deepEqual(r.json.errorDetails.dates, ["column 'dates' is not in data set 'hyndsight'. Did you mean 'date'?"]);
      r = await post({ dataSourceName: 'missing' });
      assert.equal(r.status, 404);
      assert.equal(r.json.errorDetails.itemType, 'dataSource');
      r = await s.call('POST', '/v1/sessions/forecast', { json: { targetColumn: 'value' } });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.dataSourceName);
    });

    it('requires declared features to have values over the whole forecast period', async () => {
      const body = { dataSourceName: 'withfeature', targetColumn: 'value', startDate: '2014-06-28', endDate: '2014-07-05' };
      let r = await s.call('POST', '/v1/sessions/forecast', { json: body });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.temp, 'the feature without future values is named');
      r = await s.call('POST', '/v1/sessions/forecast', { json: { ...body, columns: { note: { role: 'feature' } } } });
      assert.equal(r.status, 400, 'a text column cannot be a feature of a series');
      assert.ok(r.json.errorDetails.note);
      r = await s.call('POST', '/v1/sessions/forecast', { json: { ...body, columns: { temp: { role: 'none' } } } });
      assert.equal(r.status, 200, 'setting the feature to role none forecasts without it');
    });

    it('forecasts each requested period with metrics from a holdout, quantile rows by level, and the smoothed spike as an outlier', async () => {
      const created = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hyndsight', targetColumn: 'value', startDate: '2015-04-29', endDate: '2015-05-12' } });
      const id = created.json.sessionId;
      const done = await completed(s, id);
      assert.ok(done.algorithm?.name, 'the chosen method is reported');
      assert.ok(!done.messages.some((m: { message: string }) => /has no value for|has values for/.test(m.message)), 'no day is missing, no period partial');
      const r = await s.call('GET', `/v1/sessions/${id}/results`);
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json.metrics).sort(), ['meanAbsoluteError', 'meanAbsolutePercentError', 'meanAbsoluteScaledError', 'rSquared', 'rootMeanSquareError']);
      // A weekly-seasonal series of ~1,000–2,500 views a day: a sane model is far better than a 50 % error.
      assert.ok(r.json.metrics.meanAbsolutePercentError < 0.5, `MAPE ${r.json.metrics.meanAbsolutePercentError}`);
      assert.equal(r.json.data.length, 14);
      assert.equal(r.json.data[0].date, '2015-04-29T00:00:00.0000000Z');
      assert.equal(r.json.data[13].date, '2015-05-12T00:00:00.0000000Z');
      for (const row of r.json.data) {
        assert.equal(typeof row.value, 'string');
        assert.ok(Number(row.value) > 300 && Number(row.value) < 5000, row.value);
      }
      // The blog is read on weekdays: the forecast keeps the weekly pattern (Saturday 2015-05-02 below Tuesday 2015-05-05).
      const byDate = new Map(r.json.data.map((d: any) => [d.date.slice(0, 10), Number(d.value)]));
      assert.ok(byDate.get('2015-05-02')! < byDate.get('2015-05-05')!);

      const levels = ['0.05', '0.1', '0.2', '0.5', '0.8', '0.9', '0.95'];
      const series = await Promise.all(levels.map(async (l) => (await s.call('GET', `/v1/sessions/${id}/results?predictionInterval=${l}`)).json.data));
      for (let k = 0; k < 14; k++) {
        const values = series.map((rows: any[]) => Number(rows[k].value));
        for (let j = 1; j < values.length; j++) assert.ok(values[j]! >= values[j - 1]!, `quantiles ordered at period ${k}: ${values}`);
        assert.equal(series[3][k].date, r.json.data[k].date);
      }
      assert.deepEqual(series[3], r.json.data, 'the 0.5 level is the point forecast');
      const bad = await s.call('GET', `/v1/sessions/${id}/results?predictionInterval=0.33`);
      assert.equal(bad.status, 400);

      const o = await s.call('GET', `/v1/sessions/${id}/results/outliers?page=0&pageSize=50`);
      assert.equal(o.status, 200);
      assert.equal(o.json.sessionId, id);
      const spike = o.json.data.find((row: any) => row.date.startsWith(SPIKE_DATE));
      assert.ok(spike, `the spike is among the outliers: ${JSON.stringify(o.json.data)}`);
      const original = Number(hyndsight().find((row) => row.date === SPIKE_DATE)!.value);
      assert.equal(Number(spike['value:actual']), original);
      assert.ok(Number(spike['value:smooth']) < original / 2, 'the smoothed value is near the usual level');
    });

    it('measures the metrics on a holdout the fit never saw: changing the held-out values changes the score, not the holdout forecast', async () => {
      const body = { targetColumn: 'value', startDate: '2015-04-29', endDate: '2015-05-12' };
      const original = await s.call('POST', '/v1/sessions/forecast', { json: { ...body, dataSourceName: 'hyndsight' } });
      // The same data with the 14 held-out days (2015-04-15..28) turned into spikes an outlier filter would smooth away.
      const spiked = hyndsight().map((r) => (r.date >= '2015-04-15' && r.date <= '2015-04-28' ? { ...r, value: String(Number(r.value) * 6) } : r));
      assert.equal((await s.call('PUT', '/v1/data/hyndsight-spiked', { json: { data: spiked, columns: { date: { dataType: 'date', role: 'timestamp' }, value: { dataType: 'numeric', role: 'target' } } } })).status, 201);
      const changed = await s.call('POST', '/v1/sessions/forecast', { json: { ...body, dataSourceName: 'hyndsight-spiked' } });
      await completed(s, original.json.sessionId);
      await completed(s, changed.json.sessionId);
      const a = (await s.call('GET', `/v1/sessions/${original.json.sessionId}/results`)).json;
      const b = (await s.call('GET', `/v1/sessions/${changed.json.sessionId}/results`)).json;
      assert.equal(a.holdout.length, 14);
      assert.deepEqual(a.holdout.map((r: any) => r.date.slice(0, 10)), Array.from({ length: 14 }, (_, k) => `2015-04-${String(15 + k).padStart(2, '0')}`));
      for (const row of a.holdout) assert.ok(Number(row['value:predicted']) > 300 && Number(row['value:actual']) > 0, JSON.stringify(row));
      assert.deepEqual(b.holdout.map((r: any) => r['value:predicted']), a.holdout.map((r: any) => r['value:predicted']), 'the holdout forecast ignores the held-out values');
      assert.deepEqual(b.holdout.map((r: any) => Number(r['value:actual'])), a.holdout.map((r: any) => Number(r['value:actual']) * 6));
      assert.ok(b.metrics.meanAbsoluteError > 3 * a.metrics.meanAbsoluteError, `${b.metrics.meanAbsoluteError} vs ${a.metrics.meanAbsoluteError}`);
    });

    it('names the days missing from the data and what they were filled with (zeroes by default, the imputation asked for)', async () => {
      const gaps = ['2014-06-09', '2014-06-10', '2014-08-08', '2014-10-01'];
      const rows = hyndsight().filter((r) => !gaps.includes(r.date));
      assert.equal((await s.call('PUT', '/v1/data/hyndsight-gaps', { json: { data: rows, columns: { date: { dataType: 'date', role: 'timestamp' }, value: { dataType: 'numeric', role: 'target' } } } })).status, 201);
      const body = { dataSourceName: 'hyndsight-gaps', targetColumn: 'value', startDate: '2015-04-29', endDate: '2015-05-05' };
      const zeroes = await completed(s, (await s.call('POST', '/v1/sessions/forecast', { json: body })).json.sessionId);
      const said = zeroes.messages.filter((m: { message: string }) => /has no value for/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(zeroes.messages));
      assert.equal(said[0].severity, 'warning');
      assert.match(said[0].message, /^The target 'value' has no value for 4 days of the 364 days analysed \(2014-06-09, 2014-06-10, 2014-08-08, …\): they were filled with 0, as the column's imputation is zeroes/);
      const columns = { value: { dataType: 'numeric', role: 'target', imputation: 'mean', aggregation: 'sum' } };
      const mean = await completed(s, (await s.call('POST', '/v1/sessions/forecast', { json: { ...body, columns } })).json.sessionId);
      const observed = rows.map((r) => Number(r.value)); // the imputation's mean is over every observed day of the series
      const average = observed.reduce((a, b) => a + b, 0) / observed.length;
      const note = mean.messages.find((m: { message: string }) => /has no value for/.test(m.message));
      assert.equal(note?.severity, 'informational', JSON.stringify(mean.messages));
      const filledWith = Number(/filled with ([\d.]+), by the column's imputation \(mean\)/.exec(note.message)?.[1]);
      assert.ok(Math.abs(filledWith - average) < 0.01, `${filledWith} vs the mean ${average}`);
    });

    it('says when the first and last months of daily data are partial, which their sums make look like drops', async () => {
      const done = await completed(s, (await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hyndsight', targetColumn: 'value', startDate: '2015-05-01', endDate: '2015-07-01', resultInterval: 'month' } })).json.sessionId);
      const said = done.messages.filter((m: { message: string }) => /has values for/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(done.messages));
      assert.equal(said[0].severity, 'warning');
      assert.match(said[0].message, /^In the target 'value', the first month, from 2014-04-01, has values for 1 of its 30 days, and the last month, from 2015-04-01, has values for 29 of its 30 days\./);
    });

    it('forecasts from the start date when it lies before the last date (training stops before it)', async () => {
      const created = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'hyndsight', targetColumn: 'value', startDate: '2015-04-20', endDate: '2015-04-26' } });
      const id = created.json.sessionId;
      await completed(s, id);
      const r = await s.call('GET', `/v1/sessions/${id}/results`);
      assert.deepEqual(r.json.data.map((d: any) => d.date.slice(0, 10)), ['2015-04-20', '2015-04-21', '2015-04-22', '2015-04-23', '2015-04-24', '2015-04-25', '2015-04-26']);
    });

    it('outliers are only for forecast sessions; unknown sessions are 404', async () => {
      const missing = await s.call('GET', '/v1/sessions/015ee297-af57-47b1-a33c-1d489cba24dd/results/outliers');
      assert.equal(missing.status, 404);
      const bad = await s.call('GET', '/v1/sessions/not-a-guid/results/outliers');
      assert.equal(bad.status, 400);
    });
  });
}
