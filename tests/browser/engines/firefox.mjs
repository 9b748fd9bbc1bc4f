// Firefox (Gecko) for the cross-engine tests: Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi.
import puppeteer from 'puppeteer-core';

import { openScriptedPage } from './scripted-page.mjs';

export const name = 'firefox';

/** Starts a headless Firefox ESR whose pages prefer `colorScheme` ('light' or 'dark'; a preference set at start). */
export async function launch({ colorScheme = 'light' } = {}) {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: '/usr/bin/firefox-esr',
    headless: true,
    extraPrefsFirefox: {
      // 0 = dark, 1 = light: what prefers-color-scheme reports to pages.
      'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
      'ui.systemUsesDarkTheme': colorScheme === 'dark' ? 1 : 0,
      // Overlay scrollbars, as on phones and in the other two engines here: a 360 px viewport lays out 360 px.
      'ui.useOverlayScrollbars': 1,
    },
  });
  return {
    name,
    version: await browser.version(),
    async open(url, { width, height }) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      return openScriptedPage(page, url, {
        prepare: (p) => p.setViewport({ width, height }),
        close: () => context.close(),
      });
    },
    close: () => browser.close(),
  };
}
