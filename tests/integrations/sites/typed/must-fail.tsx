// Must not compile: a misspelt attribute on a parascope element (tests/integrations/sites.test.mjs reads the error).
import type {} from 'parascope/react';

export const post = <parascope-bubble stagse="8" />;
