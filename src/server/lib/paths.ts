import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's root: the nearest folder holding package.json above this module. The same answer
 * whether the server runs from its TypeScript sources (src/server/lib) or from the build
 * (dist/server), so migrations and the web build are found from both.
 */
function findProjectRoot(start: string): string {
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) return start;
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
