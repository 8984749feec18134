import { fileURLToPath } from 'node:url';

/** A path from the repository's root, wherever the build is started from. */
export const fromRoot = (relative: string) =>
  fileURLToPath(new URL(relative, new URL('../../', import.meta.url)));
