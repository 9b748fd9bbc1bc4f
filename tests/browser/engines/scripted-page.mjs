// The driver page of the engines that have a scripting library (playwright-core for Chromium, puppeteer-core for
// Firefox): both name the same page methods, so one wrapper serves them. WebKit speaks WebDriver (webkit.mjs).

/**
 * Records console errors and uncaught errors of `page` (a playwright or puppeteer page), then opens `url`; resolves
 * to the driver page the engines test uses. `prepare(page)` runs before navigation (e.g. setting the viewport);
 * `close` releases what holds the page.
 */
export async function openScriptedPage(page, url, { prepare = async () => {}, close }) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location()?.url ?? '?'})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await prepare(page);
  await page.goto(url);
  return {
    window: 'window',
    problems: async () => [...problems],
    evaluate: (source) => page.evaluate(source),
    press: (key) => page.keyboard.press(key),
    click: (x, y) => page.mouse.click(x, y),
    screenshot: (path) => page.screenshot({ path }),
    close,
  };
}
