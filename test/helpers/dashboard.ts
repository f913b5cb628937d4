// Browser checks of the dashboard: axe-core accessibility scans and a page's console errors.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: unknown[][];
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's strict CSP does not block it.
  // Page-side code is passed as text: this file is type-checked without the DOM library.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(await AXE_SOURCE);
  // The settled page: a modal's overlay still fading in gives the colours of no real frame.
  // Transitions end; endless animations (a loader's spinner) are not waited for.
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => {})))`);
  const violations = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) })))`)) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${where}: ${JSON.stringify(serious, null, 1)}`);
}

/** Collects console errors and uncaught page errors (CSP violations included) for a final check. */
export function watchConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} ${msg.location().url}`.trimEnd());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return () => errors;
}
