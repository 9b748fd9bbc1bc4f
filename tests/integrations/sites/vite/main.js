// A Vite site's entry: the package's figures, its stylesheet through Vite's CSS pipeline, and the engine asked from
// both entries, which must be one engine.
import 'parascope/embed.css';
import { loadEngine } from 'parascope';
import { loadEngine as loadAlone } from 'parascope/engine';

Promise.all([loadEngine(), loadAlone()]).then(([a, b]) => {
  document.documentElement.dataset.oneEngine = String(a === b);
});
