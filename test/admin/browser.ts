// Driving the dashboard in Debian's Chromium (playwright-core, no browser download), shared by
// the end-to-end test and `npm run admin:screens`: the app's own listening origin is trusted for
// cookies (as a deployment's base URL is), axe-core runs inside the page, and a failing step
// leaves a screenshot and the console log in test/.screenshots/admin/ (CI prints that folder).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(PACKAGE_ROOT, 'test/.screenshots/admin');
const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A free local port, so the app's origin is known before it boots (its trusted origin). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The console and page errors of a page, for the failure log and the CSP assertion. */
export function recordConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => lines.push(`[pageerror] ${error.message}`));
  return lines;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  targets: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is. The source is evaluated
 * through the DevTools protocol: the dashboard's CSP (rightly) refuses an injected inline script.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

/** Runs one step; on failure saves `<name>.png` and `<name>.console.log`, then rethrows. */
export async function step<T>(page: Page, consoleLines: string[], name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const base = path.join(ARTIFACTS, name.replace(/[^a-z0-9-]+/gi, '-'));
    await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    fs.writeFileSync(`${base}.console.log`, consoleLines.join('\n') + '\n');
    console.error(`admin e2e: step "${name}" failed; screenshot and console log in ${path.relative(PACKAGE_ROOT, base)}.*`);
    throw error;
  }
}
