/**
 * A trained model's pages in a real browser (Debian's Chromium driven by playwright-core) against a
 * real server, as a newcomer (and a screen reader) meets them: the session page's test rows, each
 * "Explain" button saying which row it explains; the contest's candidates named in words, their exact
 * setting kept in the title; the model page saying which column it predicts, its form's types in words.
 *
 * Run alone: `node --test dist/test/e2e/model-page.e2e.js` after a build.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchDashboardBrowser, type DashboardBrowser, signUpInDashboard } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Backend } from '../support/backends.js';
import { fixturePath } from '../support/fixtures.js';

const SHOTS = join(process.cwd(), 'test-results', 'e2e');
const BACKEND = (process.env.SIBYL_E2E_BACKEND ?? 'pglite') as Backend;
/** Sessions train in worker threads; on a loaded two-core machine a model can take a while. */
const SESSION_TIMEOUT = 240_000;

describe(`model pages in Chromium (${BACKEND})`, () => {
  let server: TestServer;
  let page: Page;
  let browser: DashboardBrowser | undefined;
  const problems: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer(BACKEND);
    browser = await launchDashboardBrowser(server.url);
    ({ page } = browser);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.status() >= 400 && !(r.status() === 401 && path === '/auth/session')) problems.push(`HTTP ${r.status()} ${r.request().method()} ${path}`);
    });
    await signUpInDashboard(page, 'model');
    await page.goto('/data');
    await page.getByLabel('Data set name').first().fill('iris');
    await page.locator('input[type="file"]').first().setInputFiles(fixturePath('classification', 'iris.csv'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL('**/data/iris');
    await page.getByRole('link', { name: 'Train a model' }).click();
    await page.getByLabel('Target column').selectOption('Species');
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    await page.locator('.session-head .badge', { hasText: /Completed|Failed/ }).waitFor({ timeout: SESSION_TIMEOUT });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('names each Explain button for the row it explains, so a screen reader can tell eight apart', async () => {
    const section = page.getByRole('region', { name: 'Why a row got its prediction' });
    const buttons = section.locator('tbody').getByRole('button');
    await buttons.first().waitFor();
    const names = await buttons.evaluateAll((bs: { getAttribute(n: string): string | null; textContent: string | null }[]) => bs.map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''));
    assert.equal(names.length, 8);
    assert.equal(new Set(names).size, 8, `eight different names: ${names.join(' | ')}`);
    names.forEach((n, i) => assert.match(n, new RegExp(`^Explain test row ${i + 1}: actual (setosa|versicolor|virginica), predicted (setosa|versicolor|virginica)$`)));
    // The name starts with the visible word (WCAG's label in name), so voice control's "click Explain" still works.
    await section.getByRole('button', { name: 'Explain test row 3:' }).click();
    await page.getByTestId('explanation').waitFor();
    await section.getByRole('navigation', { name: 'Test row pages' }).getByRole('button', { name: 'Next' }).click();
    await section.getByRole('button', { name: /^Explain test row 9: / }).waitFor();
  });

  it('names the contest\'s candidates in words, the exact setting in their title', async () => {
    const rows = page.locator('table.leaderboard tbody tr');
    await rows.first().waitFor();
    const names = (await rows.locator('th').allInnerTexts()).map((n) => n.replace(/\s*chosen$/, '').trim());
    assert.ok(names.length >= 5, names.join(' | '));
    assert.deepEqual(names.filter((n) => /_|\b(stack|blend)\(/.test(n)), [], `no internal ids: ${names.join(' | ')}`);
    assert.ok(names.some((n) => /^(Weighted average|Average) of [A-Z]/.test(n)), `a blend by its members: ${names.join(' | ')}`);
    assert.ok(names.includes('Gradient Boosted Trees with small-data settings'), names.join(' | '));
    const titles = await rows.locator('th span[title]').evaluateAll((ss: { getAttribute(n: string): string | null }[]) => ss.map((s) => s.getAttribute('title') ?? ''));
    assert.ok(titles.includes('LightGBM-style gradient boosting: histogram-based, leaf-wise trees with learned missing-value directions and native categorical splits. Candidate gbdt_small_data.'), titles.join(' | '));
    assert.ok(titles.some((t) => /Candidate (stack|blend)\(\w+/.test(t)), 'a blend\'s exact members kept in its title');
    await page.screenshot({ path: join(SHOTS, `${BACKEND}-model-contest.png`), fullPage: true });
  });

  it('says on the model page which column the model predicts, from what, and its inputs\' types in words', async () => {
    await page.getByRole('link', { name: 'Try the model' }).click();
    await page.waitForURL(/\/models\/[0-9a-f-]{36}$/);
    assert.equal(await page.getByTestId('model-purpose').innerText(), 'Predicts the class of Species from 4 columns of iris.');
    const form = page.getByRole('form', { name: 'Prediction input' });
    assert.deepEqual(await form.locator('.type-hint').allInnerTexts(), ['number', 'number', 'number', 'number']);
    await page.getByText('Columns the model uses').click();
    assert.match(await page.locator('details').innerText(), /Sepal\.Length — number, input/);
    assert.match(await page.locator('details').innerText(), /Species — category, predicted/);
    assert.equal(await page.getByText(/numericMeasure|\bfeature\b/).count(), 0, 'no API type or role names');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth) <= 390, 'the model page fits 390 px');
    await page.screenshot({ path: join(SHOTS, `${BACKEND}-model-page-phone.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, [], 'no script errors or failed requests');
  });
});
