import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './upstreams.js';

/** Debian's Chromium (`.ci/run` installs it when missing); a test tool never downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
const AXE_SOURCE = readFileSync(resolve(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface ConsoleTab {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions the page has logged so far. */
  errors: string[];
}

/** A fresh tab (own session storage) at the console, signed in with `key` unless it is undefined. */
export async function openConsole(browser: Browser, baseUrl: string, key: string | undefined, options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<ConsoleTab> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl}/console`);
  if (key !== undefined) {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }
  return { context, page, errors };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
  help: string;
}

/** axe-core's violations on the page as it is now (evaluated by the driver, so the page's CSP allows it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const browser = globalThis as any;
    const result: { violations: { id: string; impact: string | null; nodes: unknown[]; help: string }[] } = await browser.axe.run(browser.document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length, help: violation.help }));
  });
}

/** Moves the console to `path` (under /console) the way its own links do. */
export async function goTo(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    const browserGlobal = globalThis as any;
    browserGlobal.history.pushState(null, '', `/console${target}`);
    browserGlobal.dispatchEvent(new browserGlobal.PopStateEvent('popstate'));
  }, path);
}

/** Waits until the catalog shows the answer for these filters. */
export async function catalogReady(page: Page, filters: Record<string, string>): Promise<void> {
  await page.waitForFunction((expected) => {
    const state = (globalThis as any).document.querySelector('[data-catalog-state]');
    if (state?.dataset.catalogState !== 'ready') return false;
    const shown = JSON.parse(state.dataset.catalogKey || '{}');
    return Object.entries(expected).every(([name, value]) => shown[name] === value);
  }, filters);
}
