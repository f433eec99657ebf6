// The dashboard end to end in Chromium against the real app: sign in → create a product with two
// option types, prices and an image → find it in the list and in search → a customer orders it
// through the API → fulfil with tracking and refund one line in the dashboard → the daily-journal
// report shows both, and its CSV downloads. The editor changes a variant's SKU, a price's amount and
// the status; a customer's detail page adds a group and store credit; the settings forms save the
// return window and put a 422 on the field it names. axe-core finds no serious or critical violation on
// any screen visited, and the CSP refuses nothing the dashboard does. Behind COMMERCE_SLOW_TESTS
// (about a minute and a half with the bundle built).
import fs from 'node:fs';
import sharp from 'sharp';
import { print } from 'graphql';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, pay, restock, type Store } from '../orders/helpers.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { ensureAdminBundle } from '../../scripts/admin-build.mjs';
import { AdminOrdersDocument } from '../../admin/src/gql/graphql.js';
import { CHROMIUM, axeViolations, freePort, launch, recordConsole, step, type AxeViolation } from './browser.js';

const runnable = Boolean(process.env.COMMERCE_SLOW_TESTS) && fs.existsSync(CHROMIUM);

let t: TestApp;
let store: Store;
let browser: Browser;
let page: Page;
let consoleLines: string[];
const violations: Record<string, AxeViolation[]> = {};

async function audit(screen: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Let CSS transitions end first (a modal fading in, a button's press style): axe measures colour
  // contrast as painted, and mid-fade a button over the overlay read as too faint once in CI.
  // Endless animations (a loader's spin) never finish: only the finite ones are awaited.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  violations[screen] = await axeViolations(page);
}

describe.runIf(runnable)('dashboard end to end (Chromium)', () => {
  beforeAll(async () => {
    await ensureAdminBundle();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    t = await startTestApp({ ...ORDER_TEST_CONFIG, baseUrl: origin }, { port });
    store = await openStore(t);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    consoleLines = recordConsole(page);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs a store from the browser', async () => {
    const admin = await t.signIn('admin');
    const mark = Date.now().toString(36);
    const slug = `tee-${mark}`;
    // No hyphen in the title: websearch syntax reads `tee-x` as a phrase the document must match word by word.
    const title = `Dashboard Tee ${mark}`;

    await step(page, consoleLines, '01-sign-in', async () => {
      await page.goto(`${t.url}/admin/`);
      await page.getByLabel('Email').fill(admin.email);
      await page.locator('input[name=password]').fill('correct-horse-battery');
      await audit('sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      await audit('home');
    });

    let entityId = '';
    await step(page, consoleLines, '02-create-product', async () => {
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page
        .getByRole('button', { name: 'New product' })
        .or(page.getByRole('link', { name: 'New product' }))
        .click();
      await page.getByLabel('Slug').fill(slug);
      await page.getByLabel('Title (en)').fill(title);
      await audit('product-new');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      entityId = page.url().split('/').pop()!;
      for (const [name, values] of [
        ['Size', 'S, M'],
        ['Color', 'Red, Blue'],
      ]) {
        await page.getByLabel('Option name').fill(name!);
        await page.getByLabel('Values (comma separated)').fill(values!);
        await page.getByRole('button', { name: 'Add option type' }).click();
        await page.getByLabel(`Name of option ${name}`).waitFor();
      }
      await page.getByRole('button', { name: 'Generate variants' }).click();
      await expect.poll(() => page.getByRole('table', { name: 'Variants' }).locator('tbody tr').count(), { timeout: 15_000 }).toBe(4);
      // Prices per currency: USD 25.00 and EUR 23.00 for the product.
      for (const [currency, amount] of [
        ['USD', '25.00'],
        ['EUR', '23.00'],
      ]) {
        await page
          .getByRole('textbox', { name: 'Currency' })
          .or(page.getByRole('combobox', { name: 'Currency' }))
          .first()
          .click();
        await page.getByRole('option', { name: currency!, exact: true }).click();
        await page.getByLabel('Amount', { exact: true }).fill(amount!);
        await page.getByRole('button', { name: 'Add price' }).click();
        await page
          .getByRole('table', { name: 'Prices' })
          .getByText(currency === 'USD' ? '$25.00' : '€23.00')
          .waitFor();
      }
      // An existing price changes in place: USD 25.00 → 27.50.
      await page.getByLabel('New amount for The product, USD, everyone').fill('27.50');
      await page.getByRole('button', { name: 'Save price The product, USD, everyone' }).click();
      await page.getByRole('table', { name: 'Prices' }).getByText('$27.50').waitFor();
      // An existing variant's SKU changes in its row (Enter submits the row's form).
      const firstSku = page.getByRole('table', { name: 'Variants' }).locator('tbody tr').first().getByRole('textbox').first();
      await firstSku.fill(`EDITED-${mark}`.toUpperCase());
      await firstSku.press('Enter');
      await expect
        .poll(
          async () => {
            const res = await t.request(`/api/catalog/entities/${entityId}?include=variants`, { apiKey: store.admin });
            return (res.body.data.variants as Array<{ sku: string }>).map((v) => v.sku);
          },
          { timeout: 15_000 },
        )
        .toContain(`EDITED-${mark}`.toUpperCase());
      // The last variant (Size M, Color Blue) is drafted in its row: not sold, still listed here.
      const lastRow = page.getByRole('table', { name: 'Variants' }).locator('tbody tr').last();
      await lastRow.getByRole('combobox').selectOption('draft');
      await lastRow.getByRole('button', { name: /^Save / }).click();
      const variantStates = async () => {
        const res = await t.request(`/api/catalog/entities/${entityId}?include=variants,optionTypes`, { apiKey: store.admin });
        return res.body.data as { variants: Array<{ status: string; options: Record<string, string> }>; optionTypes: Array<{ name: string; values: Array<{ value: string }> }> };
      };
      await expect.poll(async () => (await variantStates()).variants.map((v) => v.status), { timeout: 15_000 }).toEqual(['active', 'active', 'active', 'draft']);
      // An option value is renamed in place (Enter saves) and moved first; variants follow.
      const blue = page.getByLabel('Color value Blue');
      await blue.fill('Navy');
      await blue.press('Enter');
      await page.getByRole('button', { name: 'Move Navy earlier' }).click();
      await expect.poll(async () => (await variantStates()).optionTypes.find((o) => o.name === 'Color')?.values.map((v) => v.value), { timeout: 15_000 }).toEqual(['Navy', 'Red']);
      expect((await variantStates()).variants.map((v) => v.options.Color)).toEqual(['Navy', 'Red', 'Navy', 'Red']);
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 90 } } })
        .png()
        .toBuffer();
      await page.locator('input[type=file]').setInputFiles({ name: 'tee.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('img', { name: 'tee.png' }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Publish' }).click();
      const status = page
        .getByRole('textbox', { name: 'Status' })
        .or(page.getByRole('combobox', { name: 'Status' }))
        .first();
      await expect.poll(() => status.inputValue(), { timeout: 15_000 }).toBe('active');
      await audit('product-editor');
    });

    await step(page, consoleLines, '03-list-and-search', async () => {
      // The search index is kept by jobs: run them the way an operator's cron does.
      const run = await t.request('/api/jobs/run?limit=100', { apiKey: store.admin });
      expect(run.status, run.text).toBe(200);
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByRole('link', { name: title }).waitFor();
      await audit('catalog');
      // Full-text search finds it by its title's words (the PostgreSQL engine by default).
      await page.getByRole('textbox', { name: 'Search' }).fill(title);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('table', { name: 'Search results' }).getByRole('link', { name: title }).waitFor();
    });

    // A customer orders two variants through the API (a guest cart and checkout), and pays.
    const variants = (await t.request(`/api/catalog/entities/${entityId}?include=variants`, { apiKey: store.admin })).body.data.variants as Array<{ id: string; status: string }>;
    expect(variants).toHaveLength(4);
    // The storefront is not shown the drafted variant, and a cart refuses it.
    const shown = (await t.request(`/api/catalog/entities/${entityId}?include=variants`, { apiKey: store.storefront })).body.data.variants as Array<{ id: string }>;
    expect(shown.map((v) => v.id)).toEqual(variants.filter((v) => v.status === 'active').map((v) => v.id));
    const drafted = variants.find((v) => v.status === 'draft')!;
    const refusedCart = await guestCart(store);
    const refused = await t.request(`/api/carts/${refusedCart.id}/items`, {
      apiKey: store.storefront,
      headers: refusedCart.headers,
      body: { entityId, variantId: drafted.id, quantity: 1 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0].reason).toBe('VARIANT_NOT_ACTIVE');
    for (const v of variants.slice(0, 2)) await restock(store, entityId, 5, v.id);
    const cart = await guestCart(
      store,
      variants.slice(0, 2).map((v) => ({ entityId, variantId: v.id, quantity: 1 })),
    );
    const placed = await checkout(store, cart);
    expect(placed.status, placed.text).toBe(201);
    const order = await pay(store, placed.body.data);

    await step(page, consoleLines, '04-fulfil-and-refund', async () => {
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('link', { name: order.orderNumber }).click();
      await page.getByRole('heading', { name: `Order ${order.orderNumber}` }).waitFor();
      await audit('order-detail');
      await page.getByRole('button', { name: 'Start processing' }).click();
      await page.getByText('processing', { exact: true }).first().waitFor();
      await page.getByLabel('Carrier').fill('UPS');
      await page.getByLabel('Tracking number').fill('1Z999AA10123456784');
      await page.getByRole('button', { name: 'Fulfil' }).click();
      await page.getByText('UPS 1Z999AA10123456784').waitFor();
      const firstLine = page.getByRole('table', { name: 'Order lines' }).locator('tbody tr').first();
      await firstLine.getByRole('textbox').fill('1');
      await page.getByLabel('Reason').fill('Damaged in transit');
      await page.getByRole('button', { name: 'Refund selected' }).click();
      await page
        .getByText(/Damaged in transit/)
        .last()
        .waitFor();
    });
    const after = (await t.request(`/api/orders/${order.id}`, { apiKey: store.admin })).body.data;
    const fulfilments = (await t.request(`/api/orders/${order.id}/fulfillments`, { apiKey: store.admin })).body.data;
    expect(fulfilments[0]).toMatchObject({ carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(after.refundedAmount).toBeGreaterThan(0);
    expect(after.refundedAmount).toBeLessThan(after.grandTotal);

    await step(page, consoleLines, '05-daily-journal', async () => {
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('table', { name: 'Orders' }).waitFor();
      await audit('orders');
      // The search filter: the order number finds exactly that order (and stays in the URL).
      await page.getByLabel('Search').fill(order.orderNumber);
      await page.getByLabel('Search').press('Enter');
      await page.waitForURL(/[?&]q=/);
      await page.getByRole('table', { name: 'Orders' }).getByRole('link', { name: order.orderNumber }).waitFor();
      await expect.poll(() => page.getByRole('table', { name: 'Orders' }).locator('tbody tr').count()).toBe(1);
      // A page load of the list sends its query once: the shell's prefetch, which the screen reads
      // from the cache instead of asking again (it used to send the same query twice).
      const ordersQueries: string[] = [];
      // urql sends queries as GET within the URL length limit (POST above it): either way the operation is named.
      const countOrders = (request: { url(): string; postData(): string | null }) => {
        if (request.url().includes('/graphql') && `${request.url()} ${request.postData() ?? ''}`.includes('AdminOrders')) ordersQueries.push(request.url());
      };
      page.on('request', countOrders);
      await page.goto(`${t.url}/admin/orders`);
      await page.getByRole('table', { name: 'Orders' }).getByRole('link', { name: order.orderNumber }).waitFor();
      await page.waitForLoadState('networkidle');
      page.off('request', countOrders);
      expect(ordersQueries).toHaveLength(1);
      await page.getByRole('link', { name: 'Reports' }).click();
      const table = page.getByRole('table', { name: 'Daily journal' });
      await table.waitFor();
      const refunded = (after.refundedAmount / 100).toFixed(2);
      await table.getByText(`$${refunded}`).first().waitFor();
      await table
        .getByText(`$${(after.grandTotal / 100).toFixed(2)}`)
        .first()
        .waitFor();
      await audit('reports');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^daily-journal-.*\.csv$/);
      const csv = fs.readFileSync((await download.path())!, 'utf8');
      expect(csv.split('\n')[0]).toContain('Payment status');
      // CSV amounts are integer minor units: the paid order's revenue and the refund of one line.
      expect(csv).toContain(`paid,1,${after.grandTotal},`);
      expect(csv).toContain(`,${after.refundedAmount},${after.grandTotal - after.refundedAmount}`);
    });

    // The dashboard's own orders-list query sends as many SQL statements for 2 rows as for 1: a
    // page of 100 costs what a page of 1 does (the timing itself is printed by admin:screens).
    const second = await checkout(store, await guestCart(store, [{ entityId, variantId: variants[0]!.id, quantity: 1 }]));
    expect(second.status, second.text).toBe(201);
    const listStatements = async (first: number) => {
      const runs: number[] = [];
      // The least of two runs: the first may also warm a cache (settings, the key's grant).
      for (let i = 0; i < 2; i += 1) {
        const before = t.statements();
        const res = await t.graphql(print(AdminOrdersDocument), { first }, { apiKey: store.admin });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.orders.data).toHaveLength(Math.min(first, 2));
        runs.push(t.statements() - before);
      }
      return Math.min(...runs);
    };
    const [one, hundred] = [await listStatements(1), await listStatements(100)];
    console.info(`dashboard orders list: ${one} SQL statements for 1 row, ${hundred} for a page of 100 (2 rows)`);
    expect(hundred).toBe(one);

    await step(page, consoleLines, '06-customer-detail', async () => {
      const shopper = await t.signIn('customer');
      const address = await t.request('/api/me/addresses', {
        bearer: shopper.token,
        body: { firstName: 'Ada', lastName: 'Lovelace', line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US', isDefaultShipping: true },
      });
      expect(address.status, address.text).toBe(201);
      await page.getByRole('link', { name: 'Customers', exact: true }).click();
      await page.getByLabel('Search').fill(shopper.email);
      await page.locator(`a[href="/admin/customers/${shopper.userId}"]`).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByText('1 Main St').waitFor();
      await page.getByLabel('Group key').fill('wholesale');
      await page.getByRole('button', { name: 'Add to group' }).click();
      await page.getByRole('button', { name: 'Remove group wholesale' }).waitFor();
      await page.getByLabel('Amount').fill('12.50');
      await page.getByLabel('Reason').fill('Goodwill');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('table', { name: 'Store credit ledger' }).getByText('Goodwill').waitFor();
      await audit('customer-detail');
      const customer = (await t.request(`/api/customers/${shopper.userId}`, { apiKey: store.admin })).body.data;
      expect(customer.customerGroupIds).toEqual(['wholesale']);
      const credit = (await t.request(`/api/customers/${shopper.userId}/store-credit`, { apiKey: store.admin })).body.data;
      expect(credit.balances).toEqual([{ currency: 'USD', balance: 1250 }]);
    });

    await step(page, consoleLines, '07-settings-forms', async () => {
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByLabel('Return window (days)').fill('45');
      await page.getByRole('button', { name: 'Save policies' }).click();
      await expect.poll(async () => (await t.request('/api/settings/policies', { apiKey: store.admin })).body.data.returnWindowDays, { timeout: 15_000 }).toBe(45);
      // The browser does not check a locale; the server's 422 lands under the Locale field.
      await page.getByLabel('Locale', { exact: true }).fill('not a locale!!');
      await page.getByRole('button', { name: 'Save general' }).click();
      await page.getByText('must be a BCP 47 locale such as en or en-US').waitFor();
      await audit('settings-forms');
    });

    // API keys: mint a storefront key (shown once, in a dialog), it works; revoke it, it is refused.
    await step(page, consoleLines, '08-api-keys', async () => {
      await page.getByRole('link', { name: 'API keys', exact: true }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await audit('api-keys');
      // By role: unnamed keys' revoke buttons ("Revoke Unnamed admin key …") also match a label search for Name.
      await page.getByRole('textbox', { name: /^Name\b/ }).fill(`E2E storefront ${mark}`);
      await page
        .getByRole('textbox', { name: 'Scope' })
        .or(page.getByRole('combobox', { name: 'Scope' }))
        .first()
        .click();
      await page.getByRole('option', { name: 'storefront', exact: true }).click();
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your new API key' });
      await dialog.waitFor();
      await audit('api-key-created');
      const key = (await dialog.getByTestId('minted-key').textContent())?.trim() ?? '';
      expect(key).toMatch(/^cs_store_/);
      expect((await t.request('/api/catalog/entities', { apiKey: key })).status).toBe(200);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: `Revoke E2E storefront ${mark}` }).click();
      await page.getByRole('dialog', { name: 'Revoke this API key?' }).getByRole('button', { name: 'Revoke key' }).click();
      await page.getByRole('button', { name: `Revoke E2E storefront ${mark}` }).waitFor({ state: 'detached' });
      expect((await t.request('/api/catalog/entities', { apiKey: key })).status).toBe(401);
    });

    // The other screens open and pass axe too.
    for (const [label, heading] of [
      ['Customers', 'Customers'],
      ['Inventory', 'Inventory'],
      ['Promotions', 'Promotions'],
      ['Tax classes', 'Tax classes'],
      ['Webhooks', 'Webhooks'],
      ['Audit log', 'Audit log'],
      ['Failed jobs', 'Failed jobs'],
      ['Settings', 'Settings'],
    ] as Array<[string, string]>) {
      await step(page, consoleLines, `09-${label}`, async () => {
        await page.getByRole('link', { name: label, exact: true }).click();
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await audit(label);
      });
    }

    expect(Object.fromEntries(Object.entries(violations).filter(([, v]) => v.length))).toEqual({});
    expect(consoleLines.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
  }, 300_000);
});
