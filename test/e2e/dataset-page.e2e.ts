/**
 * The data set page in a real browser (Debian's Chromium driven by playwright-core) against a real
 * server: what a newcomer checks after an upload before starting a session. Each column's statistics
 * (type, role, counts, spread, most frequent values), a histogram per numeric column and the most
 * frequent categories of a table, a line over time of a time series (the first 5,000 rows of a long
 * one, said so), what the latest upload said about the file (kept with the data set, so shown on
 * any later visit), and a table of sixty columns that fits a phone. Screenshots go to test-results/e2e/.
 *
 * Run with `npm run test:e2e`, or alone: `node --test dist/test/e2e/dataset-page.e2e.js` after a build.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchDashboardBrowser, type DashboardBrowser, signUpInDashboard } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Backend } from '../support/backends.js';
import { fixturePath } from '../support/fixtures.js';

// The functions passed to page.evaluate run in the browser; the server's compilation has no DOM types.
declare const document: any;
type BrowserElement = any;

const SHOTS = join(process.cwd(), 'test-results', 'e2e');
const BACKEND = (process.env.SIBYL_E2E_BACKEND ?? 'pglite') as Backend;

describe(`data set page in Chromium (${BACKEND})`, () => {
  let server: TestServer;
  let context: BrowserContext;
  let page: Page;
  let browser: DashboardBrowser | undefined;
  let scratch: string;
  const problems: string[] = [];

  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${BACKEND}-dataset-${name}.png`), fullPage: true });
  };

  /** A chart has drawn: its canvas has pixels that are not background, and it has a text summary. */
  const assertChartDrawn = async (testId: string): Promise<string> => {
    const chart = page.getByTestId(testId);
    await chart.locator('canvas').first().waitFor({ timeout: 30_000 });
    const painted = await chart.evaluate((el: BrowserElement) => {
      const canvas = el.querySelector('canvas')!;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let coloured = 0;
      for (let i = 0; i < data.length; i += 16) if (data[i + 3]! > 0 && (data[i]! < 240 || data[i + 1]! < 240 || data[i + 2]! < 240)) coloured++;
      return coloured;
    });
    assert.ok(painted > 100, `chart ${testId} has drawn something (${painted} painted samples)`);
    const summary = await chart.getAttribute('aria-label');
    assert.ok(summary?.length, `chart ${testId} has a text summary`);
    return summary!;
  };

  /** The cells of one column's row in the statistics table, by header. */
  const statsRow = async (column: string): Promise<Record<string, string>> => {
    const table = page.getByTestId('column-stats');
    await table.waitFor();
    const heads = await table.locator('thead th').allInnerTexts();
    const cells = await table.locator(`tbody tr[data-column="${column}"]`).locator('th, td').allInnerTexts();
    assert.equal(cells.length, heads.length, `a row for ${column}`);
    return Object.fromEntries(heads.map((h, i) => [h.trim(), cells[i]!.trim()]));
  };

  const upload = async (path: string, name: string) => {
    await page.goto('/data');
    await page.getByLabel('Data set name').first().fill(name);
    await page.locator('input[type="file"]').first().setInputFiles(path);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(`**/data/${name}`);
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'sibyl-e2e-dataset-'));
    server = await startTestServer(BACKEND);
    browser = await launchDashboardBrowser(server.url);
    ({ context, page } = browser);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.status() >= 400 && !(r.status() === 401 && path === '/auth/session')) problems.push(`HTTP ${r.status()} ${r.request().method()} ${path}`);
    });
    await signUpInDashboard(page, 'data');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('shows a table\'s column statistics, a histogram per numeric column and its most frequent categories', async () => {
    await upload(fixturePath('classification', 'iris.csv'), 'iris');
    assert.deepEqual(await statsRow('Sepal.Length'), {
      Column: 'Sepal.Length', Type: 'numericMeasure', Role: 'feature', Values: '150', Missing: '0', Distinct: '35',
      Min: '4.3', Median: '5.8', Mean: '5.843', Max: '7.9', sd: '0.8253', 'Most frequent': '',
    });
    const species = await statsRow('Species');
    assert.deepEqual([species.Type, species.Distinct, species.Min, species.Mean, species['Most frequent']], ['string', '3', '', '', 'setosa (50), versicolor (50), virginica (50)']);
    assert.equal(await page.locator('[data-testid^="chart-histogram-"]').count(), 4, 'one histogram per numeric column');
    for (const c of ['Sepal.Length', 'Sepal.Width', 'Petal.Length', 'Petal.Width']) await assertChartDrawn(`chart-histogram-${c}`);
    assert.match(await page.getByTestId('chart-histogram-Petal.Length').getAttribute('aria-label') ?? '', /^Histogram of Petal\.Length: 1 to 6\.9, most rows \(37\) in 1 – 1\.59$/);
    assert.equal(await assertChartDrawn('chart-top-values'), 'The 3 most frequent values of Species: setosa (50), versicolor (50), virginica (50)');
    assert.equal(await page.getByTestId('chart-over-time').count(), 0, 'no line over time without a timestamp');
    await shot('iris');
  });

  it('draws a time series over time and gives a date column its range', async () => {
    await upload(fixturePath('web', 'airpassengers.csv'), 'airpassengers');
    const month = await statsRow('month');
    assert.deepEqual([month.Type, month.Role, month.Min, month.Median, month.Max, month.Distinct], ['date', 'timestamp', '1949-01-01', '1954-12-01', '1960-12-01', '144']);
    const passengers = await statsRow('passengers');
    assert.deepEqual([passengers.Role, passengers.Min, passengers.Max, passengers.Mean], ['target', '104', '622', '280.3']);
    assert.equal(await assertChartDrawn('chart-over-time'), 'passengers over month: 144 points from 1949-01-01 to 1960-12-01, values 104 to 622');
    assert.equal(await page.getByTestId('rows-drawn').innerText(), 'Drawn from all 144 rows.');
    await shot('airpassengers');
  });

  it('draws the first 5,000 rows of a longer series, says so, and draws the column picked', async () => {
    const day0 = Date.UTC(2000, 0, 1);
    const lines = Array.from({ length: 6000 }, (_, i) => `${new Date(day0 + i * 86_400_000).toISOString().slice(0, 10)},${(100 + 10 * Math.sin(i / 30)).toFixed(2)},${i % 7}`);
    const path = join(scratch, 'daily.csv');
    writeFileSync(path, ['day,sales,weekday', ...lines].join('\n') + '\n');
    await upload(path, 'daily');
    await page.getByTestId('rows-drawn').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('rows-drawn').innerText(), 'Drawn from the first 5,000 of 6,000 rows.');
    const first = await assertChartDrawn('chart-over-time');
    assert.match(first, /^sales over day: 5000 points from 2000-01-01 to 2013-09-08/);
    await page.getByLabel('Column drawn').selectOption('weekday');
    assert.equal(await assertChartDrawn('chart-over-time'), 'weekday over day: 5000 points from 2000-01-01 to 2013-09-08, values 0 to 6');
  });

  it('shows what the latest upload said whenever the page is opened, not only straight after the upload', async () => {
    const path = join(scratch, 'uk-sales.csv');
    writeFileSync(path, 'day,sales\n12/01/2017,3\n13/01/2017,5\n14/01/2017,4\n');
    await upload(path, 'uksales');
    const dayFirst = () => page.getByTestId('upload-warnings').getByText(/Column 'day' holds dates written day first/);
    await dayFirst().waitFor();
    // Coming back later: a fresh load of the page, with nothing carried over from the upload form.
    await page.goto('/data');
    await page.goto('/data/uksales');
    await page.getByTestId('column-stats').waitFor();
    await dayFirst().waitFor({ timeout: 10_000 });
  });

  it('keeps sixty columns readable: the table scrolls in its box, a phone\'s page does not scroll sideways', async () => {
    const names = Array.from({ length: 59 }, (_, i) => `measurement_${String(i + 1).padStart(2, '0')}`);
    const rows = Array.from({ length: 30 }, (_, r) => [...names.map((_, c) => (r === 3 && c === 0 ? '' : String((r * (c + 1)) % 17))), ['red', 'green', 'blue'][r % 3]].join(','));
    const path = join(scratch, 'wide.csv');
    writeFileSync(path, [[...names, 'colour'].join(','), ...rows].join('\n') + '\n');
    await upload(path, 'wide');
    await page.getByTestId('column-stats').waitFor();
    assert.equal(await page.getByTestId('column-stats').locator('tbody tr').count(), 50, 'fifty columns a page');
    await page.getByRole('navigation', { name: 'Statistics pages' }).getByRole('button', { name: 'Next' }).click();
    assert.deepEqual(await page.getByTestId('column-stats').locator('tbody th').allInnerTexts(), [...names.slice(50), 'colour']);
    await page.getByRole('navigation', { name: 'Statistics pages' }).getByRole('button', { name: 'Previous' }).click();
    const first = await statsRow('measurement_01');
    assert.deepEqual([first.Values, first.Missing], ['29', '1 (3.3 %)']);
    assert.equal(await page.locator('[data-testid^="chart-histogram-"]').count(), 12, 'the first twelve histograms');
    await page.getByRole('button', { name: 'Show all 59 numeric columns' }).click();
    assert.equal(await page.locator('[data-testid^="chart-histogram-"]').count(), 59);
    await assertChartDrawn('chart-histogram-measurement_59');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('column-stats').waitFor();
    await page.getByTestId('chart-top-values').locator('canvas').waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'the page fits 390 px');
    const box = await page.getByRole('region', { name: 'Statistics of each column' }).evaluate((el: BrowserElement) => ({ scroll: el.scrollWidth, client: el.clientWidth, height: el.clientHeight }));
    assert.ok(box.scroll > box.client, 'the statistics table scrolls sideways inside its box');
    assert.ok(box.height < 600, `a long table scrolls down in its box (${box.height} px high)`);
    await shot('wide-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, [], 'no script errors or failed requests');
  });

  it('wraps a long column name in the statistics table between its words, not inside one', async () => {
    const camel = 'customerLifetimeValueEstimatedInEuros';
    const snake = 'average_monthly_household_electricity_consumption_kwh';
    const path = join(scratch, 'long-names.csv');
    writeFileSync(path, `${camel},${snake},x\n1,2,3\n4,5,6\n7,8,9\n`);
    await upload(path, 'longnames');
    await page.getByTestId('column-stats').waitFor();
    /** The name's text as it is laid out, line by line. */
    const lines = (column: string) => page.getByTestId('column-stats').locator(`tbody tr[data-column="${column}"] .column-name`).evaluate((el: BrowserElement) => {
      const out: string[] = [];
      let line = '';
      let top: number | undefined;
      const walker = document.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < n.textContent.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const t = Math.round(r.getBoundingClientRect().top);
          if (top !== undefined && t > top + 2) { out.push(line); line = ''; }
          top = t;
          line += n.textContent[i];
        }
      }
      return [...out, line];
    });
    const camelLines = await lines(camel);
    assert.ok(camelLines.length >= 2, `the name wraps: ${camelLines.join(' | ')}`);
    assert.equal(camelLines.join(''), camel, 'and reads the same');
    assert.ok(camelLines.slice(1).every((l) => /^[A-Z]/.test(l)), `each line starts a word: ${camelLines.join(' | ')}`);
    const snakeLines = await lines(snake);
    assert.ok(snakeLines.length >= 2 && snakeLines.slice(0, -1).every((l) => l.endsWith('_')), `lines end after an underscore: ${snakeLines.join(' | ')}`);
    await shot('long-names');
  });

  it('edits the columns of a wide data set page by page, found by name, and saves the changes of every page together', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `c_${String(i + 1).padStart(3, '0')}`);
    const path = join(scratch, 'wide300.csv');
    writeFileSync(path, [names.join(','), ...Array.from({ length: 5 }, (_, r) => names.map((_, c) => String((r + c) % 7)).join(','))].join('\n') + '\n');
    await upload(path, 'wide300');
    const editor = page.locator('table.columns-table');
    const roleOf = (c: string) => page.getByRole('combobox', { name: `Role of ${c}`, exact: true });
    await roleOf('c_001').waitFor();
    // Four controls a column: 300 columns at once made every change redraw 1,200 of them.
    assert.equal(await editor.locator('tbody tr').count(), 50, 'fifty columns a page');
    await roleOf('c_001').selectOption('none');
    const columnPages = page.getByRole('navigation', { name: 'Column pages' });
    assert.equal(await columnPages.getByText('Page 1 of 6').count(), 1);
    await columnPages.getByRole('button', { name: 'Next' }).click();
    await roleOf('c_060').selectOption('none');
    await page.getByLabel('Find a column').fill('c_299');
    assert.deepEqual(await editor.locator('tbody th').allInnerTexts(), ['c_299'], 'the search finds the column on a later page');
    await roleOf('c_299').selectOption('none');
    await page.getByLabel('Find a column').fill('no such column');
    await page.getByText('No column\'s name contains “no such column”.').waitFor();
    await page.getByRole('button', { name: 'Save 3 changes' }).click();
    await page.getByText('Column metadata saved.').waitFor();
    const saved = await (await page.request.get('/v1/data/wide300?pageSize=1')).json() as { columns: Record<string, { role: string }> };
    assert.deepEqual(names.filter((c) => saved.columns[c]!.role === 'none'), ['c_001', 'c_060', 'c_299'], 'the changes of every page, and only those');
    // The statistics table above it pages the same way, with its own search.
    const stats = page.getByTestId('column-stats');
    assert.equal(await stats.locator('tbody tr').count(), 50, 'fifty statistics rows a page');
    assert.equal(await page.getByRole('navigation', { name: 'Statistics pages' }).getByText('Page 1 of 6').count(), 1);
    await page.getByLabel('Statistics of the columns named').fill('c_29');
    assert.deepEqual(await stats.locator('tbody th').allInnerTexts(), Array.from({ length: 10 }, (_, i) => `c_${290 + i}`));
    assert.equal(await page.getByRole('navigation', { name: 'Statistics pages' }).count(), 0, 'one page of matches, no pager');
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight) < 12_000, 'the page is not as long as its 300 columns');
    await shot('wide-columns-editor');
    assert.deepEqual(problems, [], 'no script errors or failed requests');
  });
});
