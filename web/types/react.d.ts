// React 19's JSX for the parascope tags (React's types read React.JSX, not the global JSX namespace): each element's
// own attributes and the common ones, no other, so a misspelt attribute fails to compile. Opt in with
// `import type {} from 'parascope/react'` or tsconfig's "types": ["parascope/react"]; needs @types/react 19.
import type { ParascopeIntrinsicElements } from './elements.js';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements extends ParascopeIntrinsicElements {}
  }
}
