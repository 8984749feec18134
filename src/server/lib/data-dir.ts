import {
  chmodSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** Owner only: the data directory holds the database, the session secret, mail and videos. */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
const LOOSE_BITS = 0o077;
/** PostgreSQL's page: the unit a database file's empty stretches come in. */
const PAGE_BYTES = 8192;
/** Files from this size are written page by page, leaving out the pages that hold only zeros. */
const SPARSE_FROM_BYTES = 1 << 20;

export interface DataDirReport {
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
 * Makes DATA_DIR readable by the server's user only: new files come out 0600 and
 * folders 0700 (the process umask, set by the server at start-up), and anything an operator or
 * an older version left open to other accounts is found, reported and closed.
 */
export function securePrivateDataDir(dataDir: string): DataDirReport {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const loosened: string[] = [];
  collectLoose(dataDir, loosened, 10_000);
  if (loosened.length > 0) tightenDataDir(dataDir);
  return { loosened };
}

const ZERO_PAGE = Buffer.alloc(PAGE_BYTES);

/** Whether `bytes[start, end)` (at most a page) holds only zeros, compared as memory is. */
function isAllZero(bytes: Buffer, start: number, end: number): boolean {
  return bytes.subarray(start, end).equals(ZERO_PAGE.subarray(0, end - start));
}

/**
 * Copies one file through `buffer`, a chunk at a time. A large file's all-zero pages are not
 * written: the new file is cut to length after, and the file system reads those holes as zeros.
 */
function copyFileThrough(buffer: Buffer, from: string, to: string): void {
  const source = openSync(from, 'r');
  try {
    const target = openSync(to, 'wx', PRIVATE_FILE_MODE);
    try {
      const { size } = fstatSync(source);
      const isSparse = size >= SPARSE_FROM_BYTES;
      for (let position = 0; position < size;) {
        const length = readSync(source, buffer, 0, buffer.length, position);
        if (length === 0) break;
        // Each run of pages between holes in one write: the whole chunk when none is skipped.
        let runStart = 0;
        const writeRun = (runEnd: number) => {
          if (runEnd > runStart)
            writeSync(target, buffer, runStart, runEnd - runStart, position + runStart);
        };
        for (let start = 0; isSparse && start < length; start += PAGE_BYTES) {
          const end = Math.min(start + PAGE_BYTES, length);
          if (!isAllZero(buffer, start, end)) continue;
          writeRun(start);
          runStart = end;
        }
        writeRun(length);
        position += length;
      }
      if (isSparse) ftruncateSync(target, size);
    } finally {
      closeSync(target);
    }
  } finally {
    closeSync(source);
  }
}

function copyTreeThrough(buffer: Buffer, source: string, target: string): void {
  mkdirSync(target, { mode: PRIVATE_DIR_MODE });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) copyTreeThrough(buffer, from, to);
    else if (entry.isFile()) copyFileThrough(buffer, from, to);
  }
}

/**
 * Copies the directory tree `source` to the new directory `target`, for the server's user only
 * (folders 0700, files 0600) whatever the source's modes, through one buffer of a megabyte. A
 * large file's all-zero pages are left as holes: much of the build's database template is a
 * write-ahead log segment that is zeros past its first page.
 */
export function copyPrivateTree(source: string, target: string): void {
  copyTreeThrough(Buffer.allocUnsafe(SPARSE_FROM_BYTES), source, target);
}
