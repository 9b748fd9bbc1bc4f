// The site's entry: registers every parascope widget on the page.
import './widgets/parascope-mfu.js';
import './widgets/parascope-axes.js';
import './widgets/parascope-ring.js';
import './widgets/parascope-bubble.js';
import './widgets/parascope-planner.js';
