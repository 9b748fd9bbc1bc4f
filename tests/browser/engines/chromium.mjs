// Chromium (Blink) for the cross-engine tests: Debian's /usr/bin/chromium driven by playwright-core over CDP.
import { chromium } from 'playwright-core';

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
      const problems = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location()?.url ?? '?'})`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      await page.goto(url);
      return {
        window: 'window',
        problems: async () => [...problems],
        evaluate: (source) => page.evaluate(source),
        press: (key) => page.keyboard.press(key),
        click: (x, y) => page.mouse.click(x, y),
        screenshot: (path) => page.screenshot({ path }),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
