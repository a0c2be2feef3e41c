/**
 * What the dashboard says when things go wrong, in a real browser (Debian's Chromium driven by
 * playwright-core) against a real server: a server that stops answering (its requests refused by the
 * browser, as when it is stopped or restarting) and an address naming a session or model that is not
 * there. Each is said in plain words with a way on; nothing is claimed that was not read (an account
 * whose key list failed to load is not told it has no keys). Screenshots go to test-results/e2e/.
 *
 * Run with `npm run test:e2e`, or alone: `node --test dist/test/e2e/error-states.e2e.js` after a build.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchDashboardBrowser, type DashboardBrowser, signUpInDashboard } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Backend } from '../support/backends.js';

const SHOTS = join(process.cwd(), 'test-results', 'e2e');
const BACKEND = (process.env.SIBYL_E2E_BACKEND ?? 'pglite') as Backend;
const UNREACHABLE = /^Sibyl did not answer: the server may be stopped or restarting, or the network is down\. Try again in a moment, or reload the page\.$/;

describe(`error states in Chromium (${BACKEND})`, () => {
  let server: TestServer;
  let page: Page;
  let browser: DashboardBrowser | undefined;

  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${BACKEND}-errors-${name}.png`), fullPage: true });
  };

  /** Follows a link of the main navigation, as a user does within the loaded app. */
  const nav = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer(BACKEND);
    browser = await launchDashboardBrowser(server.url);
    ({ page } = browser);
    await signUpInDashboard(page, 'errors');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says in plain words that the server did not answer, and does not tell an account it has no keys', async () => {
    // The app is loaded; from now on the server does not answer (the connection is refused).
    await page.route(/\/(v1|auth\/keys)(\/|\?|$)/, (route) => route.abort('connectionrefused'));
    try {
      await nav('Sessions');
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 30_000 });
      assert.match((await alert.innerText()).trim(), UNREACHABLE);
      await shot('unreachable-sessions');

      await nav('Account');
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      const keysAlert = page.locator('section', { has: page.getByRole('heading', { name: 'API keys' }) }).getByRole('alert');
      await keysAlert.waitFor({ timeout: 30_000 });
      assert.match((await keysAlert.innerText()).trim(), UNREACHABLE);
      assert.equal(await page.getByText('No active keys.').count(), 0, 'a key list that did not load says nothing about the keys');
      assert.equal(await page.getByText('Failed to fetch').count(), 0, "no browser jargon");
      await shot('unreachable-account');
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
    // Back again: the list loads, and only now says there are no keys.
    await page.reload();
    await page.getByText('No active keys.').waitFor();
  });

  it('says a session or model in the address is not there, and leads back to the list', async () => {
    const cases = [
      { path: '/sessions/00000000-0000-4000-8000-000000000000', what: 'session', id: '00000000-0000-4000-8000-000000000000', link: 'Your sessions', list: '/sessions' },
      { path: '/sessions/not-a-session-id', what: 'session', id: 'not-a-session-id', link: 'Your sessions', list: '/sessions' },
      { path: '/models/00000000-0000-4000-8000-000000000000', what: 'model', id: '00000000-0000-4000-8000-000000000000', link: 'Your models', list: '/models' },
    ];
    for (const c of cases) {
      await page.goto(c.path);
      const note = page.locator('.note', { hasText: `There is no ${c.what}` });
      await note.waitFor();
      assert.equal((await note.innerText()).trim(), `There is no ${c.what} ${c.id} in your account: it has been deleted, or the address is not complete. ${c.link}`);
      assert.equal(await page.getByText(/Item of type|Request is invalid|not valid for Guid/).count(), 0, `no API wording for ${c.path}`);
      await shot(`missing-${c.what}-${c.id.slice(0, 8)}`);
      await note.getByRole('link', { name: c.link }).click();
      await page.waitForURL(`**${c.list}`);
    }
  });
});
