import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@shared/domain/device';
import { readJson, writeJson } from '@web/lib/browser-storage';

/** The stored cookie choice. */
export interface TCookieConsent {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  timestamp: string;
}

export type TConsentChoices = Pick<TCookieConsent, 'analytics' | 'marketing'>;

const listeners = new Set<() => void>();
let consent: TCookieConsent | null | undefined;
let isDialogRequested = false;
/** A page a person may reach in distress (/support) holds the banner back until they move on. */
let isReleasedOnSupport = false;

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isConsent(value: unknown): value is TCookieConsent {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.analytics === 'boolean' && typeof record.marketing === 'boolean';
}

function getConsent(): TCookieConsent | null {
  if (consent === undefined) {
    const stored = readJson<unknown>(STORAGE_KEYS.cookieConsent);
    consent = isConsent(stored) ? { ...stored, essential: true } : null;
  }
  return consent;
}

export function saveConsent(choices: TConsentChoices): void {
  consent = { essential: true, ...choices, timestamp: new Date().toISOString() };
  writeJson(STORAGE_KEYS.cookieConsent, consent);
  isDialogRequested = false;
  notify();
}

/** Opens the dialog again so the choice can be changed (footer link). */
export function openCookiePreferences(): void {
  isDialogRequested = true;
  notify();
}

/** The stored choice, or null while the visitor has not decided. */
export function useCookieConsent(): TCookieConsent | null {
  return useSyncExternalStore(subscribe, getConsent, () => null);
}

export function useIsCookieDialogRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isDialogRequested,
    () => false,
  );
}

/**
 * The Support page holds the first-visit banner back until its emergency numbers have been
 * scrolled past; leaving the page shows it on the next one.
 */
export function releaseCookieBannerOnSupport(): void {
  if (isReleasedOnSupport) return;
  isReleasedOnSupport = true;
  notify();
}

export function useIsCookieBannerReleasedOnSupport(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isReleasedOnSupport,
    () => false,
  );
}
