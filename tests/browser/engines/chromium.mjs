// Chromium (Blink) for the cross-engine tests: Debian's /usr/bin/chromium driven by playwright-core over CDP.
import { chromium } from 'playwright-core';

import { openScriptedPage } from './scripted-page.mjs';

export const name = 'chromium';

/** Starts a headless Chromium whose pages prefer `colorScheme` ('light' or 'dark'). */
export async function launch({ colorScheme = 'light' } = {}) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
  });
  return {
    name,
    version: browser.version(),
    async open(url, { width, height }) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      return openScriptedPage(page, url, { close: () => context.close() });
    },
    close: () => browser.close(),
  };
}
