// Types of the parascope package: importing it ("parascope") registers every custom element and hands out the page's
// one engine; "parascope/engine" is the engine on its own (the same engine on a page that imports both). Element
// attributes, the tag maps and JSX are in elements.d.ts (generated from lib/model/attributes.js); React 19's JSX in
// react.d.ts ("parascope/react").
export type * from './engine.js';
export { EngineError, loadEngine } from './engine.js';
export * from './elements.js';
import type { ParascopeElementAttributes } from './elements.js';

/**
 * Resolves once every element is registered: each loads from its own module, so one whose script fails leaves the
 * others working (it shows a note in its place and maps to false). Wait for it before calling an element's methods
 * right after importing the package. In node (no DOM) nothing registers and it resolves to {}.
 */
export declare const registered: Promise<Partial<Record<keyof ParascopeElementAttributes, boolean>>>;

/**
 * Makes the engine's wasm, the planner's worker and the code loaded on demand load from `base` (the folder holding the
 * package's dist/ files, e.g. "/parascope/"), for a host that moved them or a bundler that copies none (esbuild).
 * Call it before the first figure starts; null goes back to each file's own place.
 */
export declare function setAssetBase(base: string | URL | null): void;
