/**
 * Storage access that never throws: private browsing, full quotas and blocked site data all
 * make localStorage/sessionStorage throw, and none of that should crash the app.
 */
type TArea = 'local' | 'session';

function findArea(area: TArea): Storage | null {
  try {
    return area === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string, area: TArea = 'local'): string | null {
  try {
    return findArea(area)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string, area: TArea = 'local'): void {
  try {
    findArea(area)?.setItem(key, value);
  } catch (error) {
    console.warn(`Could not save "${key}" in ${area} storage`, error);
  }
}

export function removeItem(key: string, area: TArea = 'local'): void {
  try {
    findArea(area)?.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

export function readJson<T>(key: string, area: TArea = 'local'): T | null {
  const raw = readItem(key, area);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, area: TArea = 'local'): void {
  writeItem(key, JSON.stringify(value), area);
}
