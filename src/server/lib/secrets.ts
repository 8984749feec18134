import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomToken } from './crypto';

/** The cookie-signing key: from configuration, else generated once and kept in DATA_DIR. */
export function loadSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'session-secret');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomToken();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
