// The set-up the dashboard's browser tests share: the app served on a loopback port, a page in a
// context of its own (its console errors collected), logging in, screenshots for the docs, and a
// mouse drag as dnd-kit needs it.
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page, PageScreenshotOptions } from 'playwright-core';
import type { TestApp } from './app.ts';
import { watchConsole } from './dashboard.ts';
import { PASSWORD } from './management.ts';

/** Serves the app on a free loopback port (for a browser or fetch); its origin. */
export async function listen(t: TestApp): Promise<string> {
  await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.fastify.server.address() as { port: number }).port}`;
}

/** Every context's options: no animations, English, UTC (the pages' dates are then fixed). */
export const CONTEXT = { reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' } as const;

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** the page's console errors and uncaught errors so far */
  consoleErrors: () => string[];
}

/** A page in a new context of its own: CONTEXT, with `options` (a viewport) on top. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({ ...CONTEXT, ...options });
  const page = await context.newPage();
  return { context, page, consoleErrors: watchConsole(page) };
}

/** Logs `email` in on the login page; done once the projects list is shown. */
export async function logIn(page: Page, origin: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${origin}/projects`);
}

const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots');

/** With UPDATE_SCREENSHOTS=1 (`make screenshots`), the page as it is now goes to docs/screenshots/`name`.png. */
export async function screenshot(page: Page, name: string, options: Omit<PageScreenshotOptions, 'path'> = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ ...options, path: join(SCREENSHOTS, `${name}.png`) });
}

/** Drags `handle` onto `target` with the mouse, in steps: dnd-kit starts a drag once the pointer has moved. */
export async function dragTo(page: Page, handle: Locator, target: Locator): Promise<void> {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 5, { steps: 10 });
  await page.mouse.up();
}

/**
 * Picks `option` from a Mantine select: opens it and clicks the option. A click that lands while the page
 * re-renders under it (a list refetching) may not open the dropdown, so it opens it again until it shows;
 * a dropdown already open (`data-expanded`, its options slow to render on a loaded machine) is not
 * clicked again at first, which would close it; one still empty after the wait is closed and opened again.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  const item = page.getByRole('option', { name: option, exact: true });
  for (let attempt = 1; ; attempt++) {
    const expanded = (await select.getAttribute('data-expanded')) !== null;
    // Open, or on a retry close a dropdown that stayed empty and open it again.
    if (expanded && attempt > 1) await page.keyboard.press('Escape');
    if (!expanded || attempt > 1) await select.click();
    try {
      await item.waitFor({ timeout: 3000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await item.click();
}

/**
 * Sets a Mantine DateTimePicker (with seconds) to instant `at` on the wall clock of `timeZone`:
 * opens it, clicks the day (shown in the month it opens on), fills hours, minutes and seconds, and
 * applies (the pickers' submit button is labelled "Apply date and time" in the dashboard).
 */
export async function pickDateTime(page: Page, picker: Locator, at: Date, timeZone: string): Promise<void> {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  await picker.click();
  await page.getByRole('button', { name: `${parts.day} ${parts.month} ${parts.year}`, exact: true }).click();
  for (const [label, value] of [['Hours', parts.hour], ['Minutes', parts.minute], ['Seconds', parts.second]] as const) {
    const input = page.getByLabel(label, { exact: true });
    // Typed keys land beside the field's current digits; a fill replaces them.
    await input.fill(value!);
    const typed = await input.inputValue();
    if (typed !== value) throw new Error(`${label}: ${typed} instead of ${value}`);
  }
  const apply = page.getByRole('button', { name: 'Apply date and time' });
  await apply.click();
  await apply.waitFor({ state: 'hidden' });
}
