// The permalink's history.replaceState (a few ms) runs in an idle period, never inside the frame a reader waits for
// after a key press: each call must come from a requestIdleCallback callback (lib/widget.js stateChanged).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);

/** Installed before the page's scripts: records, for each replaceState, whether an idle callback was running. */
function watchReplaceState() {
  window.linkWrites = [];
  let idle = 0;
  const request = window.requestIdleCallback.bind(window);
  window.requestIdleCallback = (callback, options) => request((deadline) => {
    idle += 1;
    try {
      callback(deadline);
    } finally {
      idle -= 1;
    }
  }, options);
  const replace = history.replaceState.bind(history);
  history.replaceState = (...args) => {
    window.linkWrites.push({ idle: idle > 0, url: String(args[2]) });
    return replace(...args);
  };
}

test('a key press on the bubble writes its link from an idle callback, not from a task that can delay a frame', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(watchReplaceState);
  const page = await context.newPage();
  await page.goto(site().url);
  const widget = await widgetReady(page, 'parascope-bubble');
  const slider = widget.locator('input[name="microbatches"]');
  await slider.focus();
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft']) await page.keyboard.press(key);
  await page.waitForFunction(() => window.linkWrites.some((w) => w.url.includes('bubble.')), null, { timeout: 5000 });
  const writes = await page.evaluate(() => window.linkWrites);
  assert.ok(writes.length >= 1);
  assert.deepEqual(writes.filter((w) => !w.idle), [], 'every replaceState ran in an idle callback');
  await context.close();
});
