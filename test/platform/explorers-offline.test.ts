// The explorers work with no outside network: Chromium (playwright-core driving the system's
// /usr/bin/chromium) opens /api/reference (Scalar) and /graphql (GraphiQL) while every request
// to another origin than the server's is aborted and recorded. None may be attempted — no
// proxy.scalar.com, no api.scalar.com ("Ask AI"), no font or CDN host — and each page must
// still render. GraphiQL's default tab must run for an anonymous visitor. Screenshots go to
// test/.screenshots/ (gitignored) for a human look.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, type TestApp } from '../support/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(PACKAGE_ROOT, 'test/.screenshots');
// CI installs Chromium (.ci/run); a contributor's machine without it skips this file.
const runnable = fs.existsSync(CHROMIUM) || Boolean(process.env.COMMERCE_SLOW_TESTS);

let t: TestApp;
let browser: Browser;

interface Visit {
  page: Page;
  context: BrowserContext;
  outside: string[];
  failed: string[];
}

async function visit(pathname: string): Promise<Visit> {
  const origin = new URL(t.url).origin;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside: string[] = [];
  const failed: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  // WebSockets are not routed by context.route: record them too.
  await context.routeWebSocket(/.*/, (ws) => {
    if (new URL(ws.url()).origin.replace(/^ws/, 'http') !== origin) outside.push(ws.url());
    ws.close();
  });
  const page = await context.newPage();
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
  await page.goto(t.url + pathname, { waitUntil: 'load' });
  return { page, context, outside, failed };
}

/** Lets late requests (telemetry, lazy chunks, fonts) happen before counting. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(1500);
}

describe.runIf(runnable)('explorers offline (Chromium)', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('Scalar at /api/reference renders the API and calls no outside host', async () => {
    const { page, context, outside } = await visit('/api/reference');
    try {
      // The document is large: under load Scalar takes seconds to process it.
      await page.getByRole('heading', { name: 'Commerce API', level: 1 }).waitFor({ timeout: 90_000 });
      await page.getByText('carts', { exact: true }).first().waitFor();
      await settle(page);
      await page.screenshot({ path: path.join(SHOTS, 'api-reference.png') });
      // No "Ask AI" agent, no Share/Deploy toolbar (both talk to scalar.com).
      expect(await page.getByText('Ask AI').count()).toBe(0);
      expect(await page.getByText('Deploy', { exact: true }).count()).toBe(0);
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('GraphiQL at /graphql opens on a query anyone can run, with a note on headers, and calls no outside host', async () => {
    const { page, context, outside } = await visit('/graphql');
    try {
      await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
      await settle(page);
      const editor = page.locator('.graphiql-query-editor').first();
      await expect.poll(() => editor.innerText(), { timeout: 30_000 }).toContain('x-api-key');
      const text = await editor.innerText();
      expect(text).toMatch(/Authorization/);
      // Run the default tab as an anonymous visitor: an answer with data, no error.
      const answer = page.waitForResponse((res) => res.url().endsWith('/graphql') && res.request().method() === 'POST' && (res.request().postData() ?? '').includes('Welcome'));
      await page.locator('.graphiql-execute-button').first().click();
      const body = await (await answer).json();
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ __typename: 'Query' });
      await settle(page);
      await page.screenshot({ path: path.join(SHOTS, 'graphiql.png') });
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
