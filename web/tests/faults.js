// main.js over the unbundled modules (dist/lib, dist/widgets), so a test can rewrite one widget's module on its way in.
import { registerWidgets } from '../lib/register-widgets.js';
import { WIDGET_MODULES } from '../lib/widget-modules.js';

window.registered = registerWidgets(WIDGET_MODULES);
