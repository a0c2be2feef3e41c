/** Debian's Chromium for the browser tests, in a throw-away profile (playwright cannot download browsers here). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface DashboardBrowser {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/** A headless Chromium at 1280 × 900 on the dashboard at `baseURL`, actions timing out after 30 s. */
export async function launchDashboardBrowser(baseURL: string): Promise<DashboardBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'sibyl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
    baseURL,
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(30_000);
  return {
    context, page,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs a new account up through the dashboard's form (an address unique to this run) and waits for the start page. */
export async function signUpInDashboard(page: Page, addressPrefix: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(`${addressPrefix}-${Date.now()}@example.org`);
  await page.getByLabel('Password').fill('a long enough passphrase');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Welcome to Sibyl' }).waitFor();
}
