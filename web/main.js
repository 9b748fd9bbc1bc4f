// The site's entry: registers every parascope widget on the page, each from its own module (lib/register-widgets.js),
// so that one widget failing to load leaves the others working. `registered` resolves once all have loaded or failed.
import { registerWidgets } from './lib/register-widgets.js';
import { WIDGET_MODULES } from './lib/widget-modules.js';

export const registered = registerWidgets(WIDGET_MODULES);
