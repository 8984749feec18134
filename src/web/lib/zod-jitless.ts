import type { $ZodConfig } from 'zod/v4/core';

declare global {
  /** Where zod keeps its settings, shared by every copy of it that loads (zod/v4/core). */
  var __zod_globalConfig: $ZodConfig | undefined;
}

/**
 * Turns zod's compiled parsers off before zod loads, so that it never probes for `new Function`:
 * the content security policy forbids it, and the browser reported the refused probe on every
 * page. zod adopts this object as its `z.config()` when it loads; setting it here, rather than
 * calling `z.config`, keeps zod out of the first screen's code (it loads with the first form).
 * Imported first by every entry: the page's and each worker's.
 */
(globalThis.__zod_globalConfig ??= {}).jitless = true;
