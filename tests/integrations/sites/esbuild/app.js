// An esbuild site's entry: esbuild copies no `new URL()` asset, so the package's dist/ is copied to /parascope/ and
// the figures are told where it is.
import { setAssetBase } from 'parascope';

setAssetBase('/parascope/');
