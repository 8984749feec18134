import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Owner only: the data directory holds the database, the session secret, mail and videos. */
const PRIVATE_DIR_MODE = 0o700;
const LOOSE_BITS = 0o077;

export interface TDataDirReport {
  /** Paths that other local accounts could read or change before this start-up. */
  loosened: string[];
}

function collectLoose(target: string, found: string[], limit: number): void {
  if (found.length >= limit) return;
  const stats = lstatSync(target);
  if (stats.isSymbolicLink()) return;
  if ((stats.mode & LOOSE_BITS) !== 0) found.push(target);
  if (stats.isDirectory()) {
    for (const entry of readdirSync(target)) collectLoose(path.join(target, entry), found, limit);
  }
}

/** Closes group and other access on everything below `target` (PGlite ignores the umask). */
export function tightenDataDir(target: string): void {
  // PGlite adds and removes files while it runs: one gone since the folder was read is no error.
  const stats = lstatSync(target, { throwIfNoEntry: false });
  if (!stats || stats.isSymbolicLink()) return;
  try {
    if ((stats.mode & LOOSE_BITS) !== 0) chmodSync(target, stats.mode & ~LOOSE_BITS & 0o7777);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(target)) tightenDataDir(path.join(target, entry));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Makes DATA_DIR readable by the server's user only (issue 14 item 5): new files come out 0600 and
 * folders 0700 (the process umask, set by the server at start-up), and anything an operator or
 * an older version left open to other accounts is found, reported and closed.
 */
export function securePrivateDataDir(dataDir: string): TDataDirReport {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const loosened: string[] = [];
  collectLoose(dataDir, loosened, 10_000);
  if (loosened.length > 0) tightenDataDir(dataDir);
  return { loosened };
}
