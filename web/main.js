// The site's entry: registers every parascope widget on the page, each from its own module (lib/register-widgets.js),
// so that one widget failing to load leaves the others working. `registered` resolves once all have loaded or failed.
// It also hands out the page's one engine (the same as "parascope/engine" gives) and setAssetBase (lib/assets.js).
import { registerWidgets } from './lib/register-widgets.js';
import { WIDGET_MODULES } from './lib/widget-modules.js';

export { EngineError, loadEngine } from './lib/engine.js';
export { setAssetBase } from './lib/assets.js';

export const registered = registerWidgets(WIDGET_MODULES);
