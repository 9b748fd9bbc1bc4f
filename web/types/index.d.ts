// Types of the parascope package: importing it ("parascope") registers every custom element; "parascope/engine"
// is the engine on its own. Element attributes are in elements.d.ts (generated from lib/model/attributes.js).
export * from './engine.js';
export * from './elements.js';
import type { ParascopeElementAttributes } from './elements.js';

/**
 * Resolves once every element is registered: each loads from its own module, so one whose script fails leaves the
 * others working (it shows a note in its place and maps to false). Wait for it before calling an element's methods
 * right after importing the package.
 */
export declare const registered: Promise<Record<keyof ParascopeElementAttributes, boolean>>;

/** What every parascope element adds to HTMLElement. */
export interface ParascopeElement extends HTMLElement {
  /** Starts the figure now (it normally starts when scrolled near). */
  startNow(): void;
  /** The current state as attribute values (what a permalink holds), or null before it has started. */
  linkState(): Record<string, string | number | boolean | null> | null;
  /** A link to this page with this figure's state in the hash (permalink attribute). */
  linkHref(): string;
}

declare global {
  interface HTMLElementTagNameMap {
    'parascope-axes': ParascopeElement;
    'parascope-ring': ParascopeElement;
    'parascope-bubble': ParascopeElement;
    'parascope-mfu': ParascopeElement;
  }
  interface HTMLElementEventMap {
    /** Fired (bubbling) when a figure has started and drawn its first state. */
    'parascope-ready': CustomEvent<void>;
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'parascope-axes': ParascopeElementAttributes['parascope-axes'] & Record<string, unknown>;
      'parascope-ring': ParascopeElementAttributes['parascope-ring'] & Record<string, unknown>;
      'parascope-bubble': ParascopeElementAttributes['parascope-bubble'] & Record<string, unknown>;
      'parascope-mfu': ParascopeElementAttributes['parascope-mfu'] & Record<string, unknown>;
    }
  }
}
