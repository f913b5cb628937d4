// Debian's Chromium driven by playwright-core (installed by `make test`: scripts/ensure-services.sh).
// playwright starts it headless with a fresh profile of its own.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  // The machine has no network beyond loopback: keep Chromium from calling home.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}
