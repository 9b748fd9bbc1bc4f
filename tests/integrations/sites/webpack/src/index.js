// A webpack site's entry: the package's figures (its assets: wasm, worker, export code, copied by webpack).
import 'parascope';
